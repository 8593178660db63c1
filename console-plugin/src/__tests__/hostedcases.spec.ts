// What the fleet decides of a hosted cluster where the documented fleet
// does not show it, as pkg/hostedview/fleet_test.go TestBuild and TestFind
// check the command: the documented insights
// (test/testdata/docs/hosted-clusters.yaml), each case editing a copy; and
// the words of text.go the goldens do not reach. Table-driven.
import * as fs from 'fs';
import * as path from 'path';
import { loadAll } from 'js-yaml';
import type { HostedClusterProgressInsight, NodePoolProgressInsight } from '../model/types';
import { buildFleet, findCluster } from '../view/hosted';
import { clusterSections, fleetRows, skew } from '../view/hostedtext';
import { approx, minutes, oneLineCharacters } from '../view/text';
import { Minute, Second } from '../view/duration';

const root = path.resolve(__dirname, '../../..');
const objects = loadAll(fs.readFileSync(path.join(root, 'test/testdata/docs/hosted-clusters.yaml'), 'utf8')) as { kind: string; metadata: { name: string } }[];
const now = new Date('2026-12-02T13:00:00Z');

// documented are copies of the documented insights of the clusters named,
// and of their NodePools.
const documented = (...names: string[]) => {
  const copy = <T>(kind: string) => JSON.parse(JSON.stringify(objects.filter((o) => o.kind === kind))) as T[];
  return {
    clusters: copy<HostedClusterProgressInsight>('HostedClusterProgressInsight').filter((c) => names.includes(c.metadata!.name!)),
    pools: copy<NodePoolProgressInsight>('NodePoolProgressInsight').filter((p) => names.includes(p.status!.hostedCluster)),
  };
};

const summaries = ({ clusters, pools }: ReturnType<typeof documented>) =>
  buildFleet(clusters, pools, now).clusters.map((c) => ({
    name: `${c.namespace}/${c.name}`,
    attention: c.attention,
    count: c.nodePoolCount,
    estimate: c.estimate,
    problem: c.problem ? `${c.problem.nodePool ?? ''}:${c.problem.reason}` : undefined,
  }));

// after is the documented moment and m minutes, as the insights write it.
const after = (m: number) => new Date(now.getTime() + m * 60000).toISOString().replace('.000Z', 'Z');

test.each<[string, ReturnType<typeof documented>, ReturnType<typeof summaries>]>([
  [
    'a Degraded NodePool needs attention though its control plane completed',
    (() => {
      const d = documented('payments', 'ledger');
      d.pools.find((p) => p.status!.hostedCluster === 'payments')!.status!.assessment = 'Degraded';
      return d;
    })(),
    [
      { name: 'clusters/payments', attention: 'NeedsAttention', count: { total: 1, updated: 1, fromNodePools: true }, estimate: { unknown: true }, problem: undefined },
      { name: 'clusters/ledger', attention: 'Progressing', count: { total: 1, updated: 0, fromNodePools: true }, estimate: { at: after(41) }, problem: 'workers-a:DrainingNode' },
    ],
  ],
  [
    'an Error problem of a NodePool needs attention',
    (() => {
      const d = documented('payments', 'ledger');
      d.pools.find((p) => p.metadata!.name === 'workers-a')!.status!.problems![0].level = 'Error';
      return d;
    })(),
    [
      { name: 'clusters/ledger', attention: 'NeedsAttention', count: { total: 1, updated: 0, fromNodePools: true }, estimate: { at: after(41) }, problem: 'workers-a:DrainingNode' },
      { name: 'clusters/payments', attention: 'Completed', count: { total: 1, updated: 1, fromNodePools: true }, estimate: {}, problem: undefined },
    ],
  ],
  [
    'a NodePool that waits to update is progress, and without an estimate leaves the whole unknown',
    (() => {
      const d = documented('payments');
      d.pools[0].status!.assessment = 'Pending';
      d.pools[0].status!.versions!.current = '4.17.8';
      return d;
    })(),
    [{ name: 'clusters/payments', attention: 'Progressing', count: { total: 1, updated: 0, fromNodePools: true }, estimate: { unknown: true }, problem: undefined }],
  ],
  [
    "without NodePool insights, the HostedCluster insight's count",
    { ...documented('ledger'), pools: [] },
    [{ name: 'clusters/ledger', attention: 'Progressing', count: { total: 1, updated: 0 }, estimate: { at: after(20) }, problem: undefined }],
  ],
  [
    'the worst NodePool problem is the most serious one',
    (() => {
      const d = documented('ledger');
      const other = JSON.parse(JSON.stringify(d.pools[0])) as NodePoolProgressInsight;
      other.metadata!.name = 'workers-b';
      other.status!.problems = [{ level: 'Critical', reason: 'MachineFailed', message: 'failed' }];
      return { ...d, pools: [other, ...d.pools] };
    })(),
    [{ name: 'clusters/ledger', attention: 'NeedsAttention', count: { total: 2, updated: 0, fromNodePools: true }, estimate: { at: after(41) }, problem: 'workers-b:MachineFailed' }],
  ],
])('%s', (_, insights, want) => {
  expect(summaries(insights)).toEqual(want);
});

test.each([
  ['clusters', 'ledger', 1],
  ['clusters', 'analytics', 1],
  ['clusters', 'nope', undefined],
  ['other', 'ledger', undefined],
])('find %s/%s', (namespace, name, pools) => {
  const { clusters, pools: all } = documented('payments', 'ledger', 'billing', 'staging', 'analytics');
  expect(findCluster(buildFleet(clusters, all, now), namespace, name)?.nodePools.length).toBe(pools);
});

test.each([
  [0, "at the control plane's minor version"],
  [1, '1 minor version behind the control plane'],
  [3, '3 minor versions behind the control plane'],
  [4, '4 minor versions behind the control plane, more than the 3 HyperShift supports'],
  [-1, '1 minor version ahead of the control plane, which HyperShift does not support'],
  [-2, '2 minor versions ahead of the control plane, which HyperShift does not support'],
])('skew %d', (behind, want) => {
  expect(skew(behind)).toBe(want);
});

test('an estimate that passed is overdue, and a rollout of the release it runs is a new configuration', () => {
  const d = documented('ledger');
  d.clusters[0].status!.estimatedCompletedAt = '2026-12-02T12:15:00Z';
  const pool = d.pools[0].status!;
  pool.versions!.current = '4.17.9';
  delete pool.holdingMachine!.node;
  const c = buildFleet(d.clusters, d.pools, now).clusters[0];
  expect(fleetRows({ now: '', clusters: [c] }, now)[0].eta).toBe('~41m');
  const [cp, np] = clusterSections(c, now);
  expect(cp.items.find((i) => i.term === 'Duration')?.lines).toEqual(['34m (Est. Time Remaining: overdue ~45m)']);
  expect(cp.estimatedFinish).toBeUndefined();
  expect(np.items.find((i) => i.term === 'Target Version')?.lines).toEqual(['4.17.9 (a new configuration)']);
  expect(np.items.find((i) => i.term === 'Held By')?.lines[0]).toBe('Machine workers-a-x7k2p: DrainingNode since 12m ago');
});

// pkg/text's TestMinutes, TestEstimates and TestTruncateCharacters.
test.each([
  [29 * Second, 'under a minute', 'under a minute'],
  [30 * Second, '1m', '~1m'],
  [90 * Second, '2m', '~2m'],
  [55 * Minute, '55m', '~55m'],
  [120 * Minute, '2h', '~2h'],
  [100 * Minute + 20 * Second, '1h40m', '~1h40m'],
  [-5 * Minute, 'under a minute', 'under a minute'],
])('minutes and approx of %d ns', (d, m, a) => {
  expect([minutes(d), approx(d)]).toEqual([m, a]);
});

test.each([
  ['short', 10, 'short'],
  ['exactly10!', 10, 'exactly10!'],
  ['eleven chars', 10, 'eleven ch…'],
  ['é'.repeat(10), 10, 'é'.repeat(10)],
  ['𝄞'.repeat(5), 3, '𝄞𝄞…'],
  ['ab', 1, '…'],
  ['abc', 0, ''],
  ['a\nb\t c\r\n d', 10, 'a b c d'],
])('oneLineCharacters(%j, %d)', (s, max, want) => {
  expect(oneLineCharacters(s, max)).toBe(want);
});
