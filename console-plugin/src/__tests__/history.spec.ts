// The recorded updates where the operator's tests keep them
// (test/testdata/golden/history/records.yaml, which pkg/historyview's
// tests write, and cases/records.yaml, the cases it does not hold), against
// what `history` prints of them at the goldens' moment: the list as
// `history` and `history -o json` print it (list.txt, list.json), and each
// postmortem as `history RECORD` and `-o json` print it (completed.*,
// progressing.*, cases/<record>.*). The view must build the same values
// and say every cell and line the command says. When the goldens change,
// this test says whether the plugin still agrees; test/console checks that
// the command still prints the files under cases/, which it writes with
//   for f in list RECORD...; do update-insights-operator history [RECORD] \
//     --from cases/records.yaml --now 2026-12-03T12:00:00Z [-o json]; done
import * as fs from 'fs';
import * as path from 'path';
import { load } from 'js-yaml';
import type { UpdateRecord } from '../model/types';
import { durationString, Minute, Second } from '../view/duration';
import { rfc3339 } from '../view/format';
import { build, list, Postmortem, Update } from '../view/history';
import {
  estimatesTable,
  late,
  listCells,
  listColumns,
  noUpdates,
  poolSections,
  postmortemTerms,
  postmortemTitle,
  slowestTable,
  stallsTable,
  Table,
  timelineRows,
} from '../view/historytext';
import { oneLine } from '../view/text';

const golden = path.resolve(__dirname, '../../../test/testdata/golden/history');
const read = (name: string) => fs.readFileSync(path.join(golden, name), 'utf8');
const records = (name: string) => (load(read(name)) as { items: UpdateRecord[] }).items;

// The goldens' moment (docs/history.md runs the command at it).
const now = new Date('2026-12-03T12:00:00Z');

// tabwriter lays out text as Go's text/tabwriter does for the command:
// lines of cells, each ended by a tab but the line's last; a column's
// cells are padded to its widest and padding more across each block of
// consecutive lines that have a cell in it, block by block from the left.
const tabwriter = (text: string, padding: number): string => {
  const lines = text.split('\n').map((l) => l.split('\t'));
  const widths: number[][] = lines.map(() => []);
  const format = (from: number, to: number, column: number) => {
    for (let i = from; i < to; ) {
      if (lines[i].length - 1 <= column) {
        i++;
        continue;
      }
      let j = i;
      let width = 0;
      for (; j < to && lines[j].length - 1 > column; j++) {
        width = Math.max(width, Array.from(lines[j][column]).length + padding);
      }
      for (let k = i; k < j; k++) {
        widths[k][column] = width;
      }
      format(i, j, column + 1);
      i = j;
    }
  };
  format(0, lines.length, 0);
  return lines.map((cells, k) => cells.map((c, i) => (i < cells.length - 1 ? c + ' '.repeat(widths[k][i] - Array.from(c).length) : c)).join('')).join('\n');
};

// The view's values as Go's encoding/json writes the command's: times in
// RFC 3339, durations as Go prints them, empty optional fields left out.
const stamp = (t: number) => rfc3339(new Date(t));
const optional = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== false && v !== 0));
const updateJSON = (u: Update) => ({
  record: u.record,
  ...optional({ from: u.from, notObserved: u.notObserved }),
  to: u.to,
  state: u.state,
  startedAt: stamp(u.startedAt),
  duration: durationString(u.duration),
  controlPlane: durationString(u.controlPlane),
  stalls: u.stalls,
  stallTime: durationString(u.stallTime),
  ...(u.estimateError && { estimateError: { percent: u.estimateError.percent, late: durationString(u.estimateError.late) } }),
});
const time = (t: number | undefined) => (t === undefined ? undefined : stamp(t));
const postmortemJSON = (p: Postmortem) => ({
  update: updateJSON(p.update),
  ...optional({
    completedAt: time(p.completedAt),
    abandonedAt: time(p.abandonedAt),
    updateCompletedAt: time(p.updateCompletedAt),
    poolsOmitted: p.poolsOmitted,
    notObserved: p.notObserved.length ? p.notObserved.map((s) => ({ from: stamp(s.from), to: stamp(s.to) })) : undefined,
    notObservedOmitted: p.notObservedOmitted,
    operatorsUndated: p.operatorsUndated,
    stallsOmitted: p.stallsOmitted,
  }),
  observedUntil: stamp(p.observedUntil),
  timeline: p.timeline.map((e) => ({ at: stamp(e.at), what: e.what })),
  slowestOperators: p.slowestOperators.map((o) => ({ ...o, startedAt: stamp(o.startedAt), completedAt: stamp(o.completedAt), duration: durationString(o.duration) })),
  stalls: p.stalls.map((s) => ({ ...s, duration: durationString(s.duration) })),
  estimates: p.estimates.map((e) => ({
    percent: e.percent,
    observedAt: stamp(e.observedAt),
    completionPercent: e.completionPercent,
    ...optional({ estimatedCompletedAt: time(e.estimated), completedAt: time(e.actual), late: e.late === undefined ? undefined : durationString(e.late) }),
  })),
  // A pool's nodeTimes is a struct in Go, written even when empty.
  pools: p.pools.map(({ duration, ...pool }) => ({ ...pool, nodeTimes: pool.nodeTimes ?? {}, ...optional({ duration: duration === undefined ? undefined : durationString(duration) }) })),
});

// listText is the list as `history` prints it.
const listText = (updates: Update[]) =>
  updates.length === 0 ? `${noUpdates}\n` : `${tabwriter([listColumns, ...updates.map(listCells)].map((r) => r.join('\t')).join('\n'), 3)}\n`;

// postmortemText is the postmortem as `history RECORD` lays it out: its
// head, then the rest through one tabwriter.
const postmortemText = (p: Postmortem) => {
  const head = postmortemTerms(p).flatMap((t) => t.lines.map((l, i) => `${i === 0 ? `${t.term}:`.padEnd(16) : ' '.repeat(16)}${l}`));
  const rows = (indent: string, t: Table) => [t.columns, ...t.rows].map((r) => indent + r.join('\t'));
  const table = (title: string, t: Table) => ['', `${title}:`, ...(t.rows.length ? rows('  ', t) : [`  ${t.none}`]), ...t.notes.map((n) => `  ${n}`)];
  const pools = poolSections(p);
  const rest = [
    '',
    'Timeline:',
    ...timelineRows(p).map((r) => `  ${r.join('\t')}`),
    ...table('Slowest Operators', slowestTable(p)),
    '',
    'Pools:',
    ...(pools.pools.length ? [] : [`  ${pools.none}`]),
    ...pools.pools.flatMap((pool) => [
      `  ${pool.heading}: ${pool.summary}`,
      ...(pool.phases ? rows('    ', pool.phases) : []),
      ...(pool.perNode ? [`    ${pool.perNode}`] : []),
      ...(pool.slowest ? rows('    ', pool.slowest) : []),
      ...pool.notes.map((n) => `    ${n}`),
    ]),
    ...pools.notes.map((n) => `  ${n}`),
    ...table('Stalls', stallsTable(p)),
    ...table('Estimates', estimatesTable(p)),
  ];
  return [`= ${postmortemTitle(p.update)} =`, ...head, tabwriter(rest.join('\n'), 2)].map((l) => `${l}\n`).join('');
};

describe.each([
  ['records.yaml', '', { '4.16.12-20261120-090000': 'completed', '4.16.13-20261203-113000': 'progressing' }],
  [
    'cases/records.yaml',
    'cases/',
    { '4.16.11-20261101-080000': '4.16.11-20261101-080000', '4.16.0-20261001-090000': '4.16.0-20261001-090000', '4.17.0-20261202-000000': '4.17.0-20261202-000000' },
  ],
])('history of %s', (file, dir, postmortems) => {
  const all = records(file);

  test('lists the updates, the newest first, as history -o json does', () => {
    expect({ updates: list(all, now).map(updateJSON) }).toEqual(JSON.parse(read(`${dir}list.json`)));
  });

  test('says each cell as history prints it', () => {
    expect(listText(list(all, now))).toBe(read(`${dir}list.txt`));
  });

  test.each(Object.entries(postmortems))('the postmortem of %s is what history -o json builds', (name, base) => {
    const r = all.find((x) => x.metadata?.name === name)!;
    expect(postmortemJSON(build(r, now))).toEqual(JSON.parse(read(`${dir}${base}.json`)));
  });

  test.each(Object.entries(postmortems))('the postmortem of %s says every line history prints', (name, base) => {
    const r = all.find((x) => x.metadata?.name === name)!;
    expect(postmortemText(build(r, now))).toBe(read(`${dir}${base}.txt`));
  });
});

test('no record: the command says the operator records each update it sees', () => {
  expect(listText(list([], now))).toBe('No update is recorded: the operator records each update it sees from when it is installed.\n');
});

test('an estimate within half a minute is on time, past it a minute off', () => {
  expect([late(29 * Second), late(-29 * Second), late(30 * Second), late(-90 * Second), late(12 * Minute)]).toEqual([
    'on time',
    'on time',
    '1m late',
    '2m early',
    '12m late',
  ]);
});

test('a summary is cut to 100 bytes, never within a character', () => {
  expect(oneLine('a  b\nc', 100)).toBe('a b c');
  expect(oneLine(`${'x'.repeat(96)}ééé`, 100)).toBe(`${'x'.repeat(96)}…`);
  expect(oneLine(`${'x'.repeat(95)}ééé`, 100)).toBe(`${'x'.repeat(95)}é…`);
  expect(oneLine('ééé', 2)).toBe('é');
});
