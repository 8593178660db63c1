// The hosted clusters of the documented management cluster, read where the
// operator's tests keep them (test/testdata/docs/hosted-clusters.yaml, the
// insights pkg/hostedview's fixtures write), against what the command
// makes of them (test/testdata/golden/hosted: fleet.json, which
// `status --hosted-clusters -o json` prints, fleet.txt and <name>.txt,
// which `status --hosted-clusters` and `--hosted-cluster clusters/<name>`
// print). The view must build the same fleet, in the same order, and say
// each cell and line the command prints. When the goldens are regenerated
// (go test ./pkg/hostedview -run TestGolden -update), this test says
// whether the plugin still agrees.
import * as fs from 'fs';
import * as path from 'path';
import { loadAll } from 'js-yaml';
import type { HostedClusterProgressInsight, NodePoolProgressInsight } from '../model/types';
import { buildFleet, findCluster, Fleet } from '../view/hosted';
import { clusterSections, fleetRows, Section } from '../view/hostedtext';

const root = path.resolve(__dirname, '../../..');
const golden = path.join(root, 'test/testdata/golden/hosted');
const objects = loadAll(fs.readFileSync(path.join(root, 'test/testdata/docs/hosted-clusters.yaml'), 'utf8')) as { kind: string }[];
const clusters = objects.filter((o) => o.kind === 'HostedClusterProgressInsight') as HostedClusterProgressInsight[];
const pools = objects.filter((o) => o.kind === 'NodePoolProgressInsight') as NodePoolProgressInsight[];
const want = JSON.parse(fs.readFileSync(path.join(golden, 'fleet.json'), 'utf8')) as Fleet;
const now = new Date(want.now);
const fleet = buildFleet(clusters, pools, now);

// columns reads a table the command prints, each column starting where its
// heading does (headings of more than one word among them).
const columns = (text: string, headings: string[]): string[][] => {
  const [header, ...lines] = text.split('\n').filter((l) => l !== '');
  const starts = headings.map((h) => header.indexOf(h));
  expect(starts.every((s) => s >= 0)).toBe(true);
  return lines.map((l) => starts.map((s, i) => l.slice(s, i + 1 < starts.length ? starts[i + 1] : undefined).trim()));
};

// table writes rows as Go's tabwriter pads them for the command (padding
// 3, the last column as it is).
const table = (rows: string[][]): string => {
  const widths = rows[0].slice(0, -1).map((_, i) => Math.max(...rows.map((r) => Array.from(r[i]).length)) + 3);
  return rows.map((r) => r.map((c, i) => (i < widths.length ? c + ' '.repeat(widths[i] - Array.from(c).length) : c)).join('') + '\n').join('');
};

// text writes sections as `status --hosted-cluster` lays them out.
const text = (sections: Section[]): string =>
  sections
    .map((s) => {
      let out = `= ${s.kind}: ${s.title} =\n`;
      if (s.completed) {
        out += `${s.completed}\n`;
      }
      for (const item of s.items) {
        out += `${`${item.term}:`.padEnd(17)}${item.lines[0]}\n`;
        out += item.lines
          .slice(1)
          .map((l) => `${' '.repeat(17)}${l}\n`)
          .join('');
      }
      if (s.problems.length > 0) {
        const rows = s.problems.flatMap((p) => [[p.since, p.level, p.reason, p.lines[0]], ...p.lines.slice(1).map((l) => ['', '', '', l])]);
        out += `\nProblems\n${table([['SINCE', 'LEVEL', 'REASON', 'MESSAGE'], ...rows])}`;
      }
      return out;
    })
    .join('\n');

test('the documented fleet is found', () => {
  expect(clusters.length).toBeGreaterThanOrEqual(4);
  expect(pools.length).toBeGreaterThanOrEqual(4);
  expect(want.clusters.length).toBe(5);
});

test('builds the fleet status --hosted-clusters -o json prints', () => {
  // The command omits an empty list of NodePools.
  const built = fleet.clusters.map(({ nodePools, ...c }) => (nodePools.length ? { ...c, nodePools } : c));
  expect({ ...fleet, clusters: built }).toEqual(want);
});

test('orders and says each line as status --hosted-clusters prints it', () => {
  const rows = columns(fs.readFileSync(path.join(golden, 'fleet.txt'), 'utf8'), ['NAMESPACE/NAME', 'FROM -> TO', 'CONTROL PLANE', 'NODEPOOLS', 'ETA', 'PROBLEM']);
  expect(fleetRows(fleet, now).map((r) => [`${r.namespace}/${r.name}`, r.fromTo, r.controlPlane, r.nodePools, r.eta, r.problem])).toEqual(rows);
});

test('a cut problem keeps its whole text for the page to offer', () => {
  const cut = fleetRows(fleet, now).filter((r) => r.wholeProblem);
  expect(cut.map((r) => r.name)).toEqual(['billing', 'staging', 'ledger']);
  for (const r of cut) {
    expect(r.problem.endsWith('…')).toBe(true);
    expect(r.wholeProblem!.startsWith(r.problem.slice(0, -1))).toBe(true);
  }
});

describe.each(want.clusters.map((c) => c.name))('status --hosted-cluster clusters/%s', (name) => {
  test('says every line the command prints, in its order', () => {
    const c = findCluster(fleet, 'clusters', name);
    expect(c).toBeDefined();
    expect(text(clusterSections(c!, now))).toBe(fs.readFileSync(path.join(golden, `${name}.txt`), 'utf8'));
  });
});

test('a section shows a bar, its start and estimated finish only while its update is under way', () => {
  const shown = (name: string) =>
    clusterSections(findCluster(fleet, 'clusters', name)!, now).map((s) => [s.title, s.assessment, s.severity, s.percent, s.startedAt, s.estimatedFinish]);
  expect(shown('ledger')).toEqual([
    ['clusters/ledger', 'Progressing', 'info', 62, '2026-12-02T12:26:00Z', '2026-12-02T13:20:00Z'],
    ['clusters/workers-a', 'Progressing', 'warning', 42, '2026-12-02T12:35:00Z', '2026-12-02T13:41:00Z'],
  ]);
  expect(shown('billing')).toEqual([
    ['clusters/billing', 'Blocked', 'danger', undefined, undefined, undefined],
    ['clusters/billing-inplace', 'Progressing', 'info', 33, '2026-12-02T12:45:00Z', '2026-12-02T13:28:00Z'],
  ]);
  expect(shown('payments')).toEqual([
    ['clusters/payments', 'Completed', 'success', undefined, undefined, undefined],
    ['clusters/payments-workers', 'Completed', 'success', 100, undefined, undefined],
  ]);
  expect(shown('analytics')).toEqual([
    ['clusters/analytics', undefined, undefined, undefined, undefined, undefined],
    ['clusters/analytics-workers', 'Progressing', 'info', 50, '2026-12-02T12:51:00Z', undefined],
  ]);
});
