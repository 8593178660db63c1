import { buildStatus, Insights } from '../view/status';
import type { ClusterOperatorProgressInsight, ClusterVersionProgressInsight } from '../model/types';

// The cases of pkg/statusview/operators_test.go, whose table follows oc's
// (pkg/cli/admin/upgrade/status/controlplane.go): the Progressing reason,
// or - without one, cut to 20 characters with "...", and each further line
// of a message on a row of its own.
const now = new Date('2024-08-05T17:23:22Z');

const updating = (name: string, reason: string, message: string, agoSeconds: number): ClusterOperatorProgressInsight => ({
  apiVersion: 'openshift.muller.dev/v1alpha1',
  kind: 'ClusterOperatorProgressInsight',
  metadata: { name },
  status: {
    name,
    progressingReason: reason || undefined,
    conditions: [
      {
        type: 'Updating',
        status: 'True',
        reason: 'Progressing',
        message,
        lastTransitionTime: new Date(now.getTime() - agoSeconds * 1000).toISOString(),
      },
    ],
  },
});

const progressing: ClusterVersionProgressInsight = {
  apiVersion: 'openshift.muller.dev/v1alpha1',
  kind: 'ClusterVersionProgressInsight',
  metadata: { name: 'version' },
  status: {
    name: 'version',
    assessment: 'Progressing',
    completionPercent: 50,
    versions: { target: { version: '4.16.0' }, previous: { version: '4.15.0' } },
    startedAt: '2024-08-05T16:23:22Z',
    conditions: [{ type: 'Updating', status: 'True', reason: 'Progressing', message: '', lastTransitionTime: '2024-08-05T16:23:22Z' }],
  },
} as ClusterVersionProgressInsight;

const insights = (operators: ClusterOperatorProgressInsight[]): Insights => ({
  clusterVersions: [progressing],
  clusterOperators: operators,
  machineConfigPools: [],
  nodes: [],
  health: [],
  updateInformers: [],
});

test('the updating operators say their reason and continue their messages as status prints them', () => {
  const view = buildStatus(
    insights([
      updating('kube-apiserver', 'NodeInstaller', 'NodeInstallerProgressing: 3 nodes are at revision 274; 0 nodes have achieved new revision 276', 6 * 60 + 8),
      updating('machine-config', '', 'Working towards 4.16.0', 21 * 60 + 20),
      updating(
        'network',
        'RolloutProgressingAndSlow',
        'Deployment "/openshift-network-operator/iptables-alerter" is not available\nDaemonSet "/openshift-multus/multus" is not yet scheduled on any nodes',
        45,
      ),
      updating('storage', 'Exactly20Characters!', 'a', 1),
    ]),
    now,
  );
  expect(view.controlPlane.updating).toEqual([
    {
      name: 'kube-apiserver',
      since: '6m8s',
      reason: 'NodeInstaller',
      lines: ['NodeInstallerProgressing: 3 nodes are at revision 274; 0 nodes have achieved new revision 276'],
    },
    { name: 'machine-config', since: '21m20s', reason: '-', lines: ['Working towards 4.16.0'] },
    {
      name: 'network',
      since: '45s',
      reason: 'RolloutProgressin...',
      wholeReason: 'RolloutProgressingAndSlow',
      lines: [
        'Deployment "/openshift-network-operator/iptables-alerter" is not available',
        'DaemonSet "/openshift-multus/multus" is not yet scheduled on any nodes',
      ],
    },
    { name: 'storage', since: '1s', reason: 'Exactly20Characters!', lines: ['a'] },
  ]);
});
