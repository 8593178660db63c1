import * as fs from 'fs';
import * as path from 'path';
import { load } from 'js-yaml';
import type { MachineConfigPoolProgressInsight, NodeProgressInsight, PoolAssessment, PoolImageBuild } from '../model/types';
import { behindLine, imageBuildLine, nodeOf, poolCompleted, pools } from '../view/pools';
import { buildStatus, Insights } from '../view/status';
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

// An image-mode pool's OS image build, said after the worker pools' table
// and under the "Control Plane Nodes" heading as status says it
// (pkg/statusview/nodes.go imageBuildLine; text.go). The
// insights are a recorded cluster's (test/testdata/golden/4.14.1-workers-
// started-updating-multiple-pools.yaml, as of its status golden's now)
// with a build on the worker pool's insight and one on the control
// plane's; each line wanted is the one `status --from <those insights>
// --now 2024-02-07T16:45:07Z --details=all` printed for them.
describe("an image-mode pool's OS image build", () => {
  const golden = path.resolve(__dirname, '../../../test/testdata/golden');
  const now = new Date('2024-02-07T16:45:07Z');
  const recorded = fs.readFileSync(path.join(golden, '4.14.1-workers-started-updating-multiple-pools.yaml'), 'utf8');
  const building = 'MachineOSBuild worker-abc is building the OS image for configuration rendered-worker-123';

  // view is the recorded cluster with the worker pool's build ib, its
  // assessment as given.
  const view = (ib: PoolImageBuild | undefined, assessment?: PoolAssessment) => {
    const { items } = load(recorded) as { items: { kind: string }[] };
    const mcps = items.filter((i) => i.kind === 'MachineConfigPoolProgressInsight') as MachineConfigPoolProgressInsight[];
    for (const mcp of mcps) {
      const s = mcp.status!;
      if (s.name === 'worker') {
        s.imageBuild = ib;
        s.assessment = assessment ?? s.assessment;
      } else if (s.name === 'master') {
        s.imageBuild = { machineOSConfig: 'master', state: 'Building', since: '2024-02-07T16:42:07Z' };
      }
    }
    const of = <T>(kind: string) => items.filter((i) => i.kind === kind) as T[];
    return buildStatus(
      {
        clusterVersions: of('ClusterVersionProgressInsight'),
        clusterOperators: of('ClusterOperatorProgressInsight'),
        machineConfigPools: mcps,
        nodes: of('NodeProgressInsight'),
        health: of('UpdateHealthInsight'),
        updateStatus: of<NonNullable<Insights['updateStatus']>>('UpdateStatus')[0],
        updateInformers: [],
      },
      now,
    );
  };
  const build = (b: Omit<PoolImageBuild, 'machineOSConfig'>): PoolImageBuild => ({
    machineOSConfig: 'worker',
    machineOSBuild: 'worker-abc',
    ...b,
  });

  test.each<[string, PoolImageBuild | undefined, PoolAssessment | undefined, string | undefined]>([
    [
      'Building, with since and estimate',
      build({ state: 'Building', since: '2024-02-07T16:42:07Z', estimatedToComplete: '9m0s', message: building }),
      undefined,
      `MachineConfigPool worker: OS image build Building since 2024-02-07T16:42:07Z (3m), about 9m left by its past builds: ${building}`,
    ],
    [
      'Failed, with its message, one line break trimmed',
      build({ state: 'Failed', since: '2024-02-07T16:30:00Z', message: 'Failed: the build pod exited with code 1\n' }),
      undefined,
      'MachineConfigPool worker: OS image build Failed since 2024-02-07T16:30:00Z (15m7s): Failed: the build pod exited with code 1',
    ],
    ['Waiting, no since, no message', build({ state: 'Waiting' }), undefined, 'MachineConfigPool worker: OS image build Waiting'],
    [
      'Waiting, no since, with a message',
      build({ state: 'Waiting', message: 'no MachineOSBuild for rendered-worker-123 yet' }),
      undefined,
      'MachineConfigPool worker: OS image build Waiting: no MachineOSBuild for rendered-worker-123 yet',
    ],
    [
      'Interrupted, hours ago',
      build({ state: 'Interrupted', since: '2024-02-07T14:45:07Z' }),
      undefined,
      'MachineConfigPool worker: OS image build Interrupted since 2024-02-07T14:45:07Z (2h)',
    ],
    [
      'Prepared, an estimate only',
      build({ state: 'Prepared', estimatedToComplete: '1h0m30s' }),
      undefined,
      'MachineConfigPool worker: OS image build Prepared about 1h0m30s left by its past builds',
    ],
    // status says how long ago as its SINCE columns do (format.go since):
    // truncated to the second, "now" for a since ahead of now.
    [
      'Building, since ahead of now',
      build({ state: 'Building', since: '2024-02-07T16:45:37Z', estimatedToComplete: '45s' }),
      undefined,
      'MachineConfigPool worker: OS image build Building since 2024-02-07T16:45:37Z (now), about 45s left by its past builds',
    ],
    [
      'Building, since now',
      build({ state: 'Building', since: '2024-02-07T16:45:07Z' }),
      undefined,
      'MachineConfigPool worker: OS image build Building since 2024-02-07T16:45:07Z (now)',
    ],
    [
      'Building, since off the second: truncated',
      build({ state: 'Building', since: '2024-02-07T16:44:06.6Z' }),
      undefined,
      'MachineConfigPool worker: OS image build Building since 2024-02-07T16:44:06Z (1m)',
    ],
    ['the pool completed: none', build({ state: 'Succeeded', since: '2024-02-07T16:00:00Z', message: 'done' }), 'Completed', undefined],
    // A built image is the one the nodes run until the update reaches the
    // pool, and news while they take it.
    ['built, before the update reaches the pool: none', build({ state: 'Succeeded', since: '2024-02-07T16:00:00Z', message: 'built' }), 'Pending', undefined],
    [
      'built, the nodes taking it',
      build({ state: 'Succeeded', since: '2024-02-07T16:44:07Z', message: 'built' }),
      'Progressing',
      'MachineConfigPool worker: OS image build Succeeded since 2024-02-07T16:44:07Z (1m): built',
    ],
    ['no build: none', undefined, undefined, undefined],
  ])('%s', (_, ib, assessment, want) => {
    const v = view(ib, assessment);
    const worker = v.workerPools.find((p) => p.name === 'worker')!;
    expect(imageBuildLine(worker, now)).toBe(want);
    // The infra pool has no build; the control plane's pool, no worker
    // pool, has one, which status says under "Control Plane Nodes".
    expect(imageBuildLine(v.workerPools.find((p) => p.name === 'infra')!, now)).toBeUndefined();
    expect(v.workerPools.map((p) => p.name)).not.toContain('master');
    expect(imageBuildLine(v.controlPlaneNodes!, now)).toBe('MachineConfigPool master: OS image build Building since 2024-02-07T16:42:07Z (3m)');
  });
});
