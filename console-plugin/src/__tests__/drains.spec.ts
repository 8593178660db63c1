import type { UpdateHealthInsight } from '../model/types';
import { drainsHeld } from '../view/drains';
import { health } from '../view/health';

// A health insight about a pod that holds a node's drain, in the shape
// pkg/health/drain.go forDrain writes it: scoped to the node, the pod and
// its budgets (docs/administrators.md, "Drains Held").
const held = (node: string, pod: string, budgets: string[], level: 'Warning' | 'Error', startedAt: string): UpdateHealthInsight => {
  const [ns, name] = pod.split('/');
  return {
    metadata: { name: `drain-${node}-${name}` },
    status: {
      startedAt,
      scope: {
        type: 'WorkerPool',
        resources: [
          { resource: 'nodes', name: node },
          { resource: 'pods', namespace: ns, name },
          ...budgets.map((b) => ({ group: 'policy', resource: 'poddisruptionbudgets', namespace: b.split('/')[0], name: b.split('/')[1] })),
        ],
      },
      impact: { level, type: 'Update Stalled', summary: `Pod ${pod} holds the drain of node ${node}: its budget allows no disruption` },
      remediation: { reference: 'https://github.com/update-insights/update-insights-operator/blob/main/docs/insights.md#drains-held' },
    },
  };
};

const degradedNode: UpdateHealthInsight = {
  metadata: { name: 'node-degraded' },
  status: {
    startedAt: '2024-02-27T15:00:00Z',
    scope: { type: 'WorkerPool', resources: [{ resource: 'nodes', name: 'ip-10-0-20-162' }] },
    impact: { level: 'Error', type: 'Update Stalled', summary: 'Node ip-10-0-20-162 is degraded' },
    remediation: {},
  },
};

const now = new Date('2024-02-27T15:10:00Z');

describe('drains held', () => {
  test('one row per pod that holds a drain of the pool, by node and pod; other insights and pools are not drains', () => {
    const h = health(
      [
        held('ip-10-0-20-162', 'payments/ledger-7c9d8b6f5d-q8z2x', ['payments/ledger'], 'Warning', '2024-02-27T15:08:30Z'),
        held('ip-10-0-20-162', 'app/guard', [], 'Error', '2024-02-27T14:10:00Z'),
        held('ip-10-0-4-159', 'infra/router', ['infra/a', 'infra/b'], 'Warning', '2024-02-27T15:09:00Z'),
        held('master-0', 'etcd/quorum-guard', ['etcd/guard'], 'Error', '2024-02-27T15:00:00Z'),
        degradedNode,
      ],
      undefined,
      now,
    );
    expect(drainsHeld(h, ['ip-10-0-4-159', 'ip-10-0-20-162'])).toEqual([
      { node: 'ip-10-0-20-162', pod: 'app/guard', budgets: '-', since: '1h', level: 'Error' },
      { node: 'ip-10-0-20-162', pod: 'payments/ledger-7c9d8b6f5d-q8z2x', budgets: 'payments/ledger', since: '1m30s', level: 'Warning' },
      { node: 'ip-10-0-4-159', pod: 'infra/router', budgets: 'infra/a,infra/b', since: '1m', level: 'Warning' },
    ]);
  });
});
