// What `history` prints of the recorded updates, in its words
// (pkg/historyview/text.go WriteList and WritePostmortem): the list's
// cells, and the postmortem's lines and tables, for the tab to lay out.
import type { UpdateRecord } from '../model/types';
import { Minute, parseDuration, round } from './duration';
import { rfc3339, roughDuration } from './format';
import type { Estimate, Pool, Postmortem, Update } from './history';
import { span, statusOf, timeOf, unobservedAfter } from './history';
import { minutes, oneLine } from './text';

// summaryWidth is where a stall's summary is cut in a table, in bytes.
const summaryWidth = 100;

export const noUpdates = 'No update is recorded: the operator records each update it sees from when it is installed.';

const stamp = (t: number): string => rfc3339(new Date(t));

// late says how the completion fared against an estimate: "12m late",
// "3m early", "on time" within half a minute.
export const late = (d: number): string => {
  if (round(d, Minute) === 0) {
    return 'on time';
  }
  return d > 0 ? `${minutes(d)} late` : `${minutes(-d)} early`;
};

export const listColumns = ['TO', 'FROM', 'STARTED', 'STATE', 'DURATION', 'CONTROL PLANE', 'STALLS', 'COMPLETION VS ESTIMATE'];

// listCells are an update's cells in the list, in listColumns' order.
export const listCells = (u: Update): string[] => [
  u.to,
  u.from || '-',
  stamp(u.startedAt),
  u.notObserved ? `${u.state} (partly observed)` : u.state,
  minutes(u.duration),
  minutes(u.controlPlane),
  u.stalls === 0 ? '0' : `${u.stalls} (${minutes(u.stallTime)})`,
  u.estimateError ? `${late(u.estimateError.late)} (at ${u.estimateError.percent}%)` : '-',
];

// unseenSince says of each update in progress whose record has not been
// written for longer than a running operator lets it go that it was last
// seen then: its record is no word of what it does now.
export const unseenSince = (records: UpdateRecord[], now: Date): string[] =>
  records.flatMap((r) => {
    const s = statusOf(r);
    const seen = timeOf(s.observedUntil);
    if (s.state !== 'Progressing' || seen === undefined || span(seen, now.getTime()) <= unobservedAfter) {
      return [];
    }
    return [
      `The update to ${s.to?.version ?? ''} was last seen in progress at ${stamp(seen)} (${roughDuration(span(seen, now.getTime()))} ago): ` +
        'a running operator writes its record at least every 5 minutes, so no operator has seen it since.',
    ];
  });

export const postmortemTitle = (u: Update): string => `Update to ${u.to}${u.from ? ` from ${u.from}` : ''}`;

// Term is a line of the postmortem's head, and the lines that continue it.
export type Term = { term: string; lines: string[] };

export const postmortemTerms = (p: Postmortem): Term[] => {
  const u = p.update;
  let controlPlane = `updating for ${minutes(u.controlPlane)}, last seen at ${stamp(p.observedUntil)}`;
  if (p.completedAt !== undefined) {
    controlPlane = `completed at ${stamp(p.completedAt)} (${minutes(u.controlPlane)})`;
  } else if (p.abandonedAt !== undefined) {
    controlPlane = `abandoned at ${stamp(p.abandonedAt)} for another update, after ${minutes(u.controlPlane)}`;
  }
  const terms: Term[] = [
    { term: 'Record', lines: [u.record] },
    { term: 'State', lines: [u.state] },
    { term: 'Started', lines: [stamp(u.startedAt)] },
    { term: 'Control Plane', lines: [controlPlane] },
  ];
  if (p.updateCompletedAt !== undefined) {
    terms.push({ term: 'Completed', lines: [`${stamp(p.updateCompletedAt)} (${minutes(u.duration)}), its pools with its control plane`] });
  }
  const notObserved = p.notObserved.map((s) => `${stamp(s.from)} to ${stamp(s.to)} (${minutes(span(s.from, s.to))}): no operator saw the update`);
  if (p.notObservedOmitted > 0) {
    notObserved.push(`and ${p.notObservedOmitted} earlier spans`);
  }
  if (notObserved.length > 0) {
    terms.push({ term: 'Not Observed', lines: notObserved });
  }
  return terms;
};

// Table is one of the postmortem's tables: its columns and rows, what it
// says when it has none, and the lines beneath it.
export type Table = { columns: string[]; rows: string[][]; none: string; notes: string[] };

export const timelineRows = (p: Postmortem): string[][] => p.timeline.map((e) => [stamp(e.at), e.what]);

export const slowestTable = (p: Postmortem): Table => ({
  columns: ['NAME', 'STARTED', 'COMPLETED', 'DURATION'],
  rows: p.slowestOperators.map((o) => [o.name, stamp(o.startedAt), stamp(o.completedAt), minutes(o.duration)]),
  none: 'none was seen both beginning and finishing its update',
  notes: p.operatorsUndated > 0 ? [`${p.operatorsUndated} more updated unseen, with no duration to tell`] : [],
});

// stallsTable's rows are p.stalls', in order: a cut summary's row is the
// stall of the same index.
export const stallsTable = (p: Postmortem): Table => ({
  columns: ['LEVEL', 'SINCE', 'UNTIL', 'DURATION', 'SUMMARY'],
  rows: p.stalls.map((s) => {
    let until = 'still active at the end';
    if (s.endedAt) {
      until = rfc3339(s.endedAt) + (s.endNotObserved ? ' (last seen)' : '');
    }
    return [s.level, rfc3339(s.startedAt ?? s.firstSeenAt), until, minutes(s.duration), oneLine(s.summary, summaryWidth)];
  }),
  none: 'none: no Warning or Error health insight was active while the update was seen',
  notes: p.stallsOmitted > 0 ? [`${p.stallsOmitted} shorter ones that ended are not kept`] : [],
});

const estimateRow = (e: Estimate): string[] => [
  `${e.completionPercent}%`,
  stamp(e.observedAt),
  e.estimated !== undefined ? stamp(e.estimated) : 'none given',
  e.actual !== undefined ? stamp(e.actual) : 'not yet',
  e.late !== undefined ? late(e.late) : '-',
];

export const estimatesTable = (p: Postmortem): Table => ({
  columns: ['AT', 'TAKEN', 'ESTIMATED COMPLETION', 'COMPLETED', 'COMPLETION VS ESTIMATE'],
  rows: p.estimates.map(estimateRow),
  none: 'none was seen at 25, 50 or 75 percent of the control plane',
  notes: [],
});

// PoolSection is a pool as the postmortem prints it: "master
// (ControlPlane)", what its nodes did, its phases across its nodes, its
// per-node times, its slowest nodes, and the nodes it did not follow.
export type PoolSection = { name: string; heading: string; summary: string; phases?: Table; perNode?: string; slowest?: Table; notes: string[] };

// phaseTime is how long a node was seen in a phase, "-" when it was not.
const phaseTime = (d: string | undefined): string => (d ? minutes(parseDuration(d)) : '-');

const poolSection = (pool: Pool): PoolSection => {
  let summary = `${pool.updated ?? 0} of ${pool.nodes ?? 0} nodes updated, ${pool.nodeTimes?.timed ?? 0} timed`;
  if (!pool.startedAt) {
    summary += '; no node was seen to begin';
  } else if (pool.completedAt) {
    summary += `; from ${rfc3339(pool.startedAt)} to ${rfc3339(pool.completedAt)} (${minutes(pool.duration ?? 0)})`;
  } else {
    summary += `; since ${rfc3339(pool.startedAt)} (${minutes(pool.duration ?? 0)} so far)`;
  }
  if (pool.assessment === 'Excluded') {
    summary += '; excluded from the update (paused)';
  }
  const nt = pool.nodeTimes;
  const phases = pool.phases ?? [];
  const slowest = pool.slowestNodes ?? [];
  return {
    name: pool.name,
    heading: `${pool.name} (${pool.scopeType})`,
    summary,
    phases: phases.length
      ? { columns: ['PHASE', 'FIRST NODE IN', 'LAST NODE OUT'], rows: phases.map((ph) => [ph.phase, rfc3339(ph.startedAt), ph.endedAt ? rfc3339(ph.endedAt) : 'a node is in it']), none: '', notes: [] }
      : undefined,
    perNode: nt?.median && nt.p90 ? `Per node: median ${phaseTime(nt.median)}, 90th percentile ${phaseTime(nt.p90)}, of ${nt.timed ?? 0} timed` : undefined,
    slowest: slowest.length
      ? {
          columns: ['SLOWEST NODE', 'STARTED', 'COMPLETED', 'DURATION', 'DRAINING', 'UPDATING', 'REBOOTING'],
          // A slowest node is one seen finishing: the command reads its
          // completion as there, which the page does not take on trust.
          rows: slowest.map((n) => [
            n.name,
            rfc3339(n.startedAt),
            n.completedAt ? rfc3339(n.completedAt) : '-',
            n.completedAt ? minutes(span(Date.parse(n.startedAt), Date.parse(n.completedAt))) : '-',
            phaseTime(n.draining),
            phaseTime(n.updating),
            phaseTime(n.rebooting),
          ]),
          none: '',
          notes: [],
        }
      : undefined,
    notes: pool.updatingOmitted ? [`up to ${pool.updatingOmitted} more nodes at once updated unfollowed, and untimed`] : [],
  };
};

// poolSections are the postmortem's pools, what it says without any, and
// the pools the record left out.
export const poolSections = (p: Postmortem): { pools: PoolSection[]; none: string; notes: string[] } => ({
  pools: p.pools.map(poolSection),
  none: 'none: no node was seen in the update',
  notes: p.poolsOmitted > 0 ? [`${p.poolsOmitted} more pools are not kept`] : [],
});
