// Every recorded cluster, read where the operator's own tests keep it: the
// insights analyze computes for it, in the exact shapes the operator writes
// them (test/testdata/golden/<case>.yaml), the Status the status command
// builds from them (test/testdata/golden/status/<case>.json) and what
// `status --details=all` prints (test/testdata/golden/status/
// <case>.detailed-output). The view must hold the same facts: the same
// counts as the Status, and each line of text it shows where the command
// prints it. When the operator's goldens change (go test ./pkg/statusview
// -update), this test says whether the view still agrees.
import * as fs from 'fs';
import * as path from 'path';
import { load } from 'js-yaml';
import { buildStatus, Insights } from '../view/status';
import { parseDuration } from '../view/duration';
import { nodeEstimate } from '../view/format';

const golden = path.resolve(__dirname, '../../../test/testdata/golden');

const cases = fs
  .readdirSync(golden)
  .filter((f) => f.endsWith('.yaml') && fs.existsSync(path.join(golden, 'status', f.replace(/\.yaml$/, '.json'))))
  .map((f) => f.replace(/\.yaml$/, ''));

type Obj = { kind: string };

const insightsOf = (items: Obj[]): Insights => {
  const of = <T>(kind: string) => items.filter((i) => i.kind === kind) as T[];
  return {
    clusterVersions: of('ClusterVersionProgressInsight'),
    clusterOperators: of('ClusterOperatorProgressInsight'),
    machineConfigPools: of('MachineConfigPoolProgressInsight'),
    nodes: of('NodeProgressInsight'),
    health: of('UpdateHealthInsight'),
    updateStatus: of<NonNullable<Insights['updateStatus']>>('UpdateStatus')[0],
    updateInformers: of('UpdateInformer'),
  };
};

// line matches a row of a table the command prints: the cells in order,
// separated by the spaces tabwriter pads with.
const row = (...cells: string[]) =>
  new RegExp(`^${cells.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join(' {2,}')}\\s*$`, 'm');

test('the recorded clusters are found', () => {
  expect(cases.length).toBeGreaterThanOrEqual(9);
});

describe.each(cases)('recorded cluster %s', (name) => {
  const { items } = load(fs.readFileSync(path.join(golden, `${name}.yaml`), 'utf8')) as { items: Obj[] };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const want = JSON.parse(fs.readFileSync(path.join(golden, 'status', `${name}.json`), 'utf8')) as any;
  const text = fs.readFileSync(path.join(golden, 'status', `${name}.detailed-output`), 'utf8');
  const view = buildStatus(insightsOf(items), new Date(want.now));

  test('counts what the status command counts', () => {
    expect(view.updating).toBe(want.updating);
    expect(view.controlPlane.completion).toEqual(want.controlPlane.completion);
    expect(view.controlPlane.operatorHealth).toEqual(want.controlPlane.operatorHealth);
    expect(view.controlPlane.updating.map((o) => o.name)).toEqual(want.controlPlane.updating.map((o: { name: string }) => o.name));
    const pools = [...(want.controlPlaneNodes ? [want.controlPlaneNodes] : []), ...want.workerPools];
    const ours = [...(view.controlPlaneNodes ? [view.controlPlaneNodes] : []), ...view.workerPools];
    expect(ours.map((p) => [p.name, p.assessment, p.completionPercent, p.summary])).toEqual(
      pools.map((p) => [p.name, p.assessment, p.completionPercent, p.summary]),
    );
    expect(ours.map((p) => p.nodes.map((n) => [n.name, n.assessment, n.phase, n.version, n.message, n.available]))).toEqual(
      pools.map((p) =>
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        p.nodes.map((n: any) => [n.name, n.assessment, n.phase, n.version, n.message, n.available]),
      ),
    );
    expect(ours.flatMap((p) => p.nodes.map((n) => n.estimate))).toEqual(
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      pools.flatMap((p) => p.nodes.map((n: any) => nodeEstimate(n.estimatedToComplete, n.phase, n.assessment))),
    );
    expect(view.health.map((h) => [h.name, h.level, h.impact, h.summary])).toEqual(
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      (want.updating ? want.health : want.health.filter((h: any) => h.informer)).map((h: any) => [h.name, h.level, h.impact, h.summary]),
    );
  });

  test('shows the lines status --details=all prints', () => {
    const cp = view.controlPlane;
    if (!view.updating) {
      expect(text).toContain(view.notUpdating);
      return;
    }
    if (cp.completedText) {
      expect(text).toContain(cp.completedText);
    } else {
      expect(text).toContain(`Assessment:      ${cp.assessmentText}\n`);
      expect(text).toContain(`Target Version:  ${cp.target}\n`);
      expect(text).toContain(`Completion:      ${cp.completionText}\n`);
      const est = cp.estimatedTimeRemaining ? ` (Est. Time Remaining: ${cp.estimatedTimeRemaining})` : '';
      expect(text).toContain(`Duration:        ${cp.duration}${est}\n`);
      expect(text).toContain(`Operator Health: ${cp.operatorHealthText}\n`);
    }
    if (view.controlPlaneNodesText) {
      expect(text).toContain(view.controlPlaneNodesText);
    }
    // status prints the worker pools only while one of them has nodes.
    for (const p of view.workerPools.some((w) => w.assessment !== 'Empty') ? view.workerPools : []) {
      expect(text).toMatch(row(p.name, p.assessment ?? '?', p.completion, p.status));
    }
    for (const p of [...(view.controlPlaneNodes && !view.controlPlaneNodesText ? [view.controlPlaneNodes] : []), ...view.workerPools]) {
      for (const n of p.nodes) {
        const cells = [n.name, n.assessment, n.phase, n.version ?? '?', n.estimate, ...(n.message ? [n.message] : [])];
        expect(text).toMatch(row(...cells));
      }
    }
    for (const o of cp.updating) {
      expect(text).toMatch(row(o.name, o.since, o.reason, ...o.lines.slice(0, 1).filter((l) => l !== '')));
      for (const line of o.lines.slice(1)) {
        expect(text).toMatch(row('', line));
      }
    }
    for (const h of view.health) {
      expect(text).toContain(`Message: ${h.summary}\n  Since:       ${h.since}\n`);
      expect(text).toContain(`  Level:       ${h.level}\n  Impact:      ${h.impact}\n  Reference:   ${h.reference}\n`);
    }
  });
});

test('a node estimate is read as a Go duration', () => {
  expect(parseDuration('1h2m3s')).toBe(3723e9);
});
