import { overviewHealth, OverviewInput } from '../view/overview';
import type { ClusterVersionAssessment, ClusterVersionProgressInsight, InsightImpactLevel, UpdateHealthInsight } from '../model/types';
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

const completedPool = () => {
  const p = nodePool('worker', 'Progressing');
  p.status!.assessment = 'Completed';
  return p;
};

describe('Overview → Status', () => {
  test.each<[string, OverviewInput, { state: string; message: string }]>([
    ['loading', { clusterVersion: { loaded: false }, pools: done([]), health: done([]) }, { state: 'LOADING', message: '' }],
    ['cannot read', { clusterVersion: { loaded: true, loadError: { message: 'forbidden' } }, pools: done([]), health: done([]) }, { state: 'UNKNOWN', message: 'Cannot read the insights: forbidden' }],
    ['no insight yet', { clusterVersion: done(undefined), pools: done([]), health: done([]) }, { state: 'NOT_AVAILABLE', message: expect.stringMatching(/^No update insight yet/) }],
    ['updating, healthy', { clusterVersion: done(cv('Progressing', 12)), pools: done([]), health: done([]) }, { state: 'UPDATING', message: 'Updating to 4.14.1: control plane 12%; healthy' }],
    ['updating, an info insight is still healthy', { clusterVersion: done(cv('Progressing', 12)), pools: done([]), health: done([healthOf('Info')]) }, { state: 'UPDATING', message: 'Updating to 4.14.1: control plane 12%; healthy' }],
    ['updating with warnings', { clusterVersion: done(cv('Progressing', 12)), pools: done([]), health: done([healthOf('Info'), healthOf('Warning')]) }, { state: 'WARNING', message: 'Updating to 4.14.1: control plane 12%; warnings' }],
    ['updating with an error', { clusterVersion: done(cv('Progressing', 12)), pools: done([]), health: done([healthOf('Warning'), healthOf('Error')]) }, { state: 'ERROR', message: 'Updating to 4.14.1: control plane 12%; Error health insights' }],
    ['slow: past the estimate', { clusterVersion: done(cv('ProgressingSlow', 40)), pools: done([]), health: done([]) }, { state: 'WARNING', message: 'Updating to 4.14.1: control plane 40%; slow' }],
    ['slow, with warnings', { clusterVersion: done(cv('ProgressingSlow', 40)), pools: done([]), health: done([healthOf('Warning')]) }, { state: 'WARNING', message: 'Updating to 4.14.1: control plane 40%; warnings' }],
    ['stalled: over 10 minutes past the estimate', { clusterVersion: done(cv('Stalled', 40)), pools: done([]), health: done([]) }, { state: 'ERROR', message: 'Updating to 4.14.1: control plane 40%; stalled' }],
    ['stalled, with warnings: stalled', { clusterVersion: done(cv('Stalled', 40)), pools: done([]), health: done([healthOf('Warning')]) }, { state: 'ERROR', message: 'Updating to 4.14.1: control plane 40%; stalled' }],
    ['Degraded, written by earlier versions: stalled', { clusterVersion: done(cv('Degraded', 40)), pools: done([]), health: done([]) }, { state: 'ERROR', message: 'Updating to 4.14.1: control plane 40%; stalled' }],
    ['control plane done, a pool behind', { clusterVersion: done(cv('Completed', 100)), pools: done([nodePool('workers-a', 'Behind'), completedPool()]), health: done([]) }, { state: 'UPDATING', message: 'Updating to 4.14.1: control plane done, 1 pool updating; healthy' }],
    ['not updating', { clusterVersion: done(cv('Completed', 100)), pools: done([completedPool()]), health: done([]) }, { state: 'OK', message: 'Not updating (at 4.14.1)' }],
  ])('%s', (_, input, want) => {
    expect(overviewHealth(input)).toEqual(want);
  });
});
