import * as fs from 'fs';
import * as path from 'path';
import { load } from 'js-yaml';
import type { MachineConfigPoolProgressInsight, NodeProgressInsight } from '../model/types';
import { behindLine, nodeOf, poolCompleted, pools } from '../view/pools';
import { condition, node, nodePool } from './fixtures';

// The node assessments and phases of pkg/statusview/nodes.go NodeOf.
describe('a node as the node tables show it', () => {
  test.each([
    ['pending', node('w1', condition('Updating', 'False', 'Pending')), 'Outdated', 'Pending', '?'],
    ['draining, with its estimate', node('w1', condition('Updating', 'True', 'Draining'), { est: '10m0s' }), 'Progressing', 'Draining', '+10m'],
    ['rebooting and unavailable: expected while updating', node('w1', condition('Updating', 'True', 'Rebooting'), { available: false, est: '5m30s' }), 'Progressing', 'Rebooting', '+5m30s'],
    ['unavailable while not updating', node('w1', condition('Updating', 'False', 'Completed'), { available: false }), 'Unavailable', 'Updated', '-'],
    ['degraded beats all', node('w1', condition('Updating', 'True', 'Updating'), { degraded: true }), 'Degraded', 'Updating', '?'],
    ['paused pool: excluded', node('w1', condition('Updating', 'False', 'Paused')), 'Excluded', 'Paused', '-'],
    ['paused pool, unavailable: when it updates is not known', node('w1', condition('Updating', 'False', 'Paused'), { available: false }), 'Unavailable', 'Paused', '?'],
    ['completed', node('w1', condition('Updating', 'False', 'Completed')), 'Completed', 'Updated', '-'],
    ['cannot determine: phase unknown', node('w1', condition('Updating', 'Unknown', 'CannotDetermine')), 'Outdated', 'Unknown', '?'],
  ])('%s', (_, insight, assessment, phase, estimate) => {
    const n = nodeOf(insight.status!);
    expect([n.assessment, n.phase, n.estimate]).toEqual([assessment, phase, estimate]);
  });

  test('no Updating condition: assessment and phase unknown', () => {
    const insight = node('w1', condition('Updating', 'True', 'Draining'));
    insight.status!.conditions = insight.status!.conditions!.filter((c) => c.type !== 'Updating');
    expect(nodeOf(insight.status!)).toMatchObject({ assessment: 'Unknown', phase: 'Unknown' });
  });
});

describe('pools', () => {
  test('a pool known only from its nodes is counted from them, and its nodes sorted by attention', () => {
    const { workers } = pools(
      [],
      [
        node('b', condition('Updating', 'False', 'Completed'), { pool: 'infra' }),
        node('a', condition('Updating', 'True', 'Draining'), { pool: 'infra', est: '3m0s', message: 'Draining node' }),
        node('c', condition('Updating', 'False', 'Pending'), { pool: 'infra' }),
      ],
      {},
    );
    expect(workers).toHaveLength(1);
    const p = workers[0];
    expect(p.nodes.map((n) => n.name)).toEqual(['a', 'c', 'b']);
    expect(p.summary).toEqual({ total: 3, available: 3, progressing: 1, outdated: 2, draining: 1, excluded: 0, degraded: 0 });
    expect([p.completion, p.status]).toEqual(['0% (1/3)', '3 Available, 1 Progressing, 1 Draining']);
    expect(p.phases).toEqual([
      { phase: 'Pending', count: 1 },
      { phase: 'Draining', count: 1 },
      { phase: 'Updated', count: 1 },
    ]);
  });

  test.each([
    ['a MachineConfigPool', [], [node('w1', condition('Updating', 'False', 'Pending'))], 'worker', 'MachineConfigPool'],
    ['a NodePool named by its pool insight', [nodePool('workers-a', 'Behind')], [node('w1', condition('Updating', 'False', 'Pending'), { pool: 'workers-a' })], 'workers-a', 'NodePool'],
    ['a NodePool known from its nodes only', [], [node('w1', condition('Updating', 'False', 'Pending'), { pool: 'workers-b', nodePool: true })], 'workers-b', 'NodePool'],
  ])('labels %s', (_, mcps, nodes, name, kind) => {
    const { workers } = pools(mcps, nodes, {});
    expect(workers.map((p) => [p.name, p.kind])).toEqual([[name, kind]]);
  });

  test('the default worker pool first, then the others by name; a pool without nodes Empty, as status lists it', () => {
    const empty = nodePool('empty', 'Progressing');
    empty.status!.summaries = [{ type: 'Total', count: 0 }];
    const { workers } = pools(
      [empty],
      ['zeta', 'alpha', 'worker'].map((pool) => node(`n-${pool}`, condition('Updating', 'False', 'Pending'), { pool })),
      {},
    );
    expect(workers.map((p) => [p.name, p.assessment, p.status])).toEqual([
      ['worker', undefined, '1 Available, 0 Progressing, 0 Draining'],
      ['alpha', undefined, '1 Available, 0 Progressing, 0 Draining'],
      ['empty', 'Empty', '0 Total'],
      ['zeta', undefined, '1 Available, 0 Progressing, 0 Draining'],
    ]);
  });
});

// A hosted cluster's NodePools, as the operator's own golden keeps them
// (test/testdata/hosted/nodepools-updating.yaml, rendered by status into
// test/testdata/golden/status/hosted/control-plane-and-nodepools.*): a
// NodePool Behind the control plane is not updating, and is said as status
// says it.
describe('NodePools of a hosted cluster', () => {
  const hosted = path.resolve(__dirname, '../../../test/testdata');
  const { items } = load(fs.readFileSync(path.join(hosted, 'hosted/nodepools-updating.yaml'), 'utf8')) as {
    items: { kind: string }[];
  };
  const text = fs.readFileSync(path.join(hosted, 'golden/status/hosted/control-plane-and-nodepools.detailed-output'), 'utf8');
  const { workers } = pools(
    items.filter((i) => i.kind === 'MachineConfigPoolProgressInsight') as MachineConfigPoolProgressInsight[],
    items.filter((i) => i.kind === 'NodeProgressInsight') as NodeProgressInsight[],
    {},
  );

  test('every pool is a NodePool', () => {
    expect(workers.map((p) => [p.name, p.kind]).sort()).toEqual([
      ['workers-inplace', 'NodePool'],
      ['workers-old', 'NodePool'],
      ['workers-replace', 'NodePool'],
    ]);
  });

  test.each([
    ['workers-inplace', false, undefined],
    ['workers-replace', false, undefined],
    ['workers-old', true, 'behind'],
  ])('%s: completed %s', (name, completed, behind) => {
    const p = workers.find((w) => w.name === name)!;
    expect(poolCompleted(p)).toBe(completed);
    expect(p.behind === undefined ? undefined : 'behind').toBe(behind);
  });

  test('the Behind line is the one status prints', () => {
    const p = workers.find((w) => w.name === 'workers-old')!;
    expect(text.split('\n')).toContain(behindLine(p));
  });
});

// The insight's message is held to 100 characters on one line; where it is
// cut, the row expands to the whole of the condition the operator took it
// from (pkg/assessment/nodes/node.go message).
describe("a node's whole message", () => {
  // The machine-config daemon's reason as the 4.16.0-ec2 recording has it,
  // the message as the operator cuts it.
  const reason =
    'failed to drain node: build0-gstfj-ci-tests-worker-b-4h7pn after 1 hour. Please see machine-config-controller logs for more information';
  const cutMessage = 'failed to drain node: <node> after 1 hour. Please see machine-config-controller logs for more inf…';
  const degraded = (message: string) => {
    const n = node('build0-gstfj-ci-tests-worker-b-4h7pn', condition('Updating', 'True', 'Draining'), { degraded: true, message });
    n.status!.conditions!.find((c) => c.type === 'Degraded')!.message = reason;
    return n;
  };
  const unavailable = (message: string, phase: 'Completed' | 'Draining') => {
    const n = node('w1', condition('Updating', phase === 'Completed' ? 'False' : 'True', phase), { available: false, message });
    n.status!.conditions!.find((c) => c.type === 'Available')!.message = `${'Kubelet stopped posting node status. '.repeat(5)}`;
    return n;
  };
  test.each([
    ['degraded, its message cut: the Degraded reason', degraded(cutMessage), reason],
    ['degraded, its message whole: nothing more', degraded('short'), undefined],
    ['unavailable and not updating, cut: the Available message', unavailable('Kubelet stopped posting node status. Kubelet stopped posting node status. Kubelet stopped posting nod…', 'Completed'), 'Kubelet stopped posting node status. '.repeat(5)],
    ['unavailable while updating: its message is not the Available one', unavailable('Draining…', 'Draining'), undefined],
  ])('%s', (_, insight, want) => {
    expect(nodeOf(insight.status!).wholeMessage).toBe(want);
  });
});
