import { overviewHealth, OverviewInput } from '../view/overview';
import type { ClusterVersionAssessment, ClusterVersionProgressInsight, InsightImpactLevel, UpdateHealthInsight, UpdateInsightLevel, UpdateStatus } from '../model/types';
import { nodePool } from './fixtures';

// The control plane insight of test/testdata/golden/4.14.1-paused-worker-pool.yaml
// (Progressing, 12%, to 4.14.1), and completed.
const cv = (assessment: ClusterVersionAssessment, percent: number): ClusterVersionProgressInsight => ({
  metadata: { name: 'version' },
  status: {
    name: 'version',
    assessment,
    completionPercent: percent,
    versions: { target: { version: '4.14.1' }, previous: { version: '4.14.0' } },
    startedAt: '2024-02-07T16:31:03Z',
  },
});

const healthOf = (level: InsightImpactLevel): UpdateHealthInsight => ({
  metadata: { name: `h-${level}` },
  status: {
    startedAt: '2024-02-07T16:31:03Z',
    scope: { type: 'ControlPlane' },
    impact: { level, type: 'Update Stalled', summary: 'something' },
    remediation: {},
  },
});

const done = <T>(data: T) => ({ data, loaded: true });

// none is the UpdateStatus before the operator writes it: its watch
// fails with a 404.
const none = { loaded: true, loadError: { response: { status: 404 } } };

// informerSays is the UpdateStatus when an informer reports an insight of
// level about the control plane (types_updatestatus.go), beside the
// operator's own informer, whose insights are its health insights.
const informerSays = (level: UpdateInsightLevel, name = 'mco-informer'): UpdateStatus => ({
  metadata: { name: 'cluster' },
  status: {
    controlPlane: {
      informers: [
        { name: 'update-insights-operator', insights: [] },
        {
          name,
          insights: [
            {
              uid: 'etcd-slow',
              acquisitionTime: '2024-02-07T16:40:00Z',
              scope: { type: 'ControlPlane' },
              impact: { level, type: 'Update Stalled', summary: 'etcd is slow' },
            },
          ],
        },
      ],
    },
  },
});

const completedPool = () => {
  const p = nodePool('worker', 'Progressing');
  p.status!.assessment = 'Completed';
  return p;
};

describe('Overview → Status', () => {
  test.each<[string, OverviewInput, { state: string; message: string }]>([
    ['loading', { clusterVersion: { loaded: false }, pools: done([]), health: done([]), updateStatus: none }, { state: 'LOADING', message: '' }],
    ['cannot read', { clusterVersion: { loaded: true, loadError: { message: 'forbidden' } }, pools: done([]), health: done([]), updateStatus: none }, { state: 'UNKNOWN', message: 'Cannot read the insights: forbidden' }],
    ['no insight yet', { clusterVersion: done(undefined), pools: done([]), health: done([]), updateStatus: none }, { state: 'NOT_AVAILABLE', message: expect.stringMatching(/^No update insight yet/) }],
    ['updating, healthy', { clusterVersion: done(cv('Progressing', 12)), pools: done([]), health: done([]), updateStatus: none }, { state: 'UPDATING', message: 'Updating to 4.14.1: control plane 12%; healthy' }],
    ['updating, an info insight is still healthy', { clusterVersion: done(cv('Progressing', 12)), pools: done([]), health: done([healthOf('Info')]), updateStatus: none }, { state: 'UPDATING', message: 'Updating to 4.14.1: control plane 12%; healthy' }],
    ['updating with warnings', { clusterVersion: done(cv('Progressing', 12)), pools: done([]), health: done([healthOf('Info'), healthOf('Warning')]), updateStatus: none }, { state: 'WARNING', message: 'Updating to 4.14.1: control plane 12%; warnings' }],
    ['updating with an error', { clusterVersion: done(cv('Progressing', 12)), pools: done([]), health: done([healthOf('Warning'), healthOf('Error')]), updateStatus: none }, { state: 'ERROR', message: 'Updating to 4.14.1: control plane 12%; Error health insights' }],
    ['slow: past the estimate', { clusterVersion: done(cv('ProgressingSlow', 40)), pools: done([]), health: done([]), updateStatus: none }, { state: 'WARNING', message: 'Updating to 4.14.1: control plane 40%; slow' }],
    ['slow, with warnings', { clusterVersion: done(cv('ProgressingSlow', 40)), pools: done([]), health: done([healthOf('Warning')]), updateStatus: none }, { state: 'WARNING', message: 'Updating to 4.14.1: control plane 40%; warnings' }],
    ['stalled: over 10 minutes past the estimate', { clusterVersion: done(cv('Stalled', 40)), pools: done([]), health: done([]), updateStatus: none }, { state: 'ERROR', message: 'Updating to 4.14.1: control plane 40%; stalled' }],
    ['stalled, with warnings: stalled', { clusterVersion: done(cv('Stalled', 40)), pools: done([]), health: done([healthOf('Warning')]), updateStatus: none }, { state: 'ERROR', message: 'Updating to 4.14.1: control plane 40%; stalled' }],
    ['Degraded, written by earlier versions: stalled', { clusterVersion: done(cv('Degraded', 40)), pools: done([]), health: done([]), updateStatus: none }, { state: 'ERROR', message: 'Updating to 4.14.1: control plane 40%; stalled' }],
    ['control plane done, a pool behind', { clusterVersion: done(cv('Completed', 100)), pools: done([nodePool('workers-a', 'Behind'), completedPool()]), health: done([]), updateStatus: none }, { state: 'UPDATING', message: 'Updating to 4.14.1: control plane done, 1 pool updating; healthy' }],
    ['updating, an informer reports an error', { clusterVersion: done(cv('Progressing', 12)), pools: done([]), health: done([healthOf('Warning')]), updateStatus: done(informerSays('error')) }, { state: 'ERROR', message: 'Updating to 4.14.1: control plane 12%; Error health insights' }],
    ['updating, an informer reports a warning', { clusterVersion: done(cv('Progressing', 12)), pools: done([]), health: done([]), updateStatus: done(informerSays('warning')) }, { state: 'WARNING', message: 'Updating to 4.14.1: control plane 12%; warnings' }],
    ['updating, an informer reports progress only', { clusterVersion: done(cv('Progressing', 12)), pools: done([]), health: done([]), updateStatus: done(informerSays('status')) }, { state: 'UPDATING', message: 'Updating to 4.14.1: control plane 12%; healthy' }],
    ["the operator's own informer: its insights are the health insights, counted once", { clusterVersion: done(cv('Progressing', 12)), pools: done([]), health: done([]), updateStatus: done(informerSays('error', 'update-insights-operator')) }, { state: 'UPDATING', message: 'Updating to 4.14.1: control plane 12%; healthy' }],
    ['the UpdateStatus cannot be read', { clusterVersion: done(cv('Progressing', 12)), pools: done([]), health: done([]), updateStatus: { loaded: true, loadError: { message: 'forbidden' } } }, { state: 'UNKNOWN', message: 'Cannot read the insights: forbidden' }],
    ['not updating', { clusterVersion: done(cv('Completed', 100)), pools: done([completedPool()]), health: done([]), updateStatus: none }, { state: 'OK', message: 'Not updating (at 4.14.1)' }],
  ])('%s', (_, input, want) => {
    expect(overviewHealth(input)).toEqual(want);
  });
});
