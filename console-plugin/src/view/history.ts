// The cluster's recorded updates, from their UpdateRecords, as the
// `history` command tells them: the list (pkg/historyview/history.go List)
// and one update's postmortem (postmortem.go Build), ported so that the tab
// says what the command prints. Times are milliseconds since the epoch,
// durations nanoseconds (./duration), as Go's time.Time and time.Duration
// are to the command.
import type { PoolUpdateRecord, UpdateRecord, UpdateRecordStatus, UpdateStall } from '../model/types';
import { Millisecond, Minute, parseDuration } from './duration';
import { rfc3339 } from './format';
import { minutes } from './text';

// zeroTime is Go's zero time.Time: what the command reads of a time a
// record without status lacks.
const zeroTime = Date.parse('0001-01-01T00:00:00Z');

// unobservedAfter is how old a record in progress may be before the time
// since it was written was seen by no operator: pkg/updaterecord's
// Heartbeat, 5 minutes, within which a running operator writes it, and a
// minute for a write on a loaded cluster.
export const unobservedAfter = 6 * Minute;

// slowestOperators is how many operators the postmortem lists.
const slowestOperators = 10;

export const timeOf = (t: string | undefined): number | undefined => (t ? Date.parse(t) : undefined);

// span is the duration from a to b.
export const span = (a: number, b: number): number => (b - a) * Millisecond;

// statusOf is the record's status, or the zero values the command reads of
// a record created and not yet written.
export const statusOf = (r: UpdateRecord): Partial<UpdateRecordStatus> => r.status ?? {};

// Update is one line of the history.
export type Update = {
  record: string;
  from?: string;
  to: string;
  state: string;
  startedAt: number;
  // duration is how long the update took, its pools with its control
  // plane, or has taken so far; controlPlane how long the control plane
  // did.
  duration: number;
  controlPlane: number;
  // stalls counts the stalls, stallTime adds up their durations.
  stalls: number;
  stallTime: number;
  // estimateError is the error of the estimate taken at the middle of the
  // control plane; absent when none can be told.
  estimateError?: { percent: number; late: number };
  // notObserved says that part of the update was not seen.
  notObserved: boolean;
};

// stallStart is when a stall began: as its insight dated it, else when it
// was first seen.
export const stallStart = (st: UpdateStall): number => timeOf(st.startedAt) ?? timeOf(st.firstSeenAt) ?? zeroTime;

// stallDuration is pkg/updaterecord's StallDuration: from its start to its
// end, or to until while it lasts.
const stallDuration = (st: UpdateStall, until: number): number => Math.max(0, span(stallStart(st), timeOf(st.endedAt) ?? until));

// end is when the record's update ended, or until when it was seen: now
// for one in progress, whose pools may update on after its control plane
// completed.
export const end = (s: Partial<UpdateRecordStatus>, now: number): number =>
  timeOf(s.completedAt) ??
  timeOf(s.abandonedAt) ??
  (s.state === 'Progressing' ? now : (timeOf(s.controlPlaneCompletedAt) ?? timeOf(s.observedUntil) ?? zeroTime));

// Estimate is an estimate of the control plane's completion against its
// completion: late is how much later it completed than estimated,
// negative when earlier; absent until it completed or without an estimate.
export type Estimate = {
  percent: number;
  observedAt: number;
  completionPercent: number;
  estimated?: number;
  actual?: number;
  late?: number;
};

const estimateErrors = (s: Partial<UpdateRecordStatus>): Estimate[] =>
  (s.estimates ?? []).map((e) => {
    const x: Estimate = { percent: e.percent, observedAt: timeOf(e.observedAt) ?? zeroTime, completionPercent: e.completionPercent };
    x.estimated = timeOf(e.estimatedCompletedAt);
    x.actual = timeOf(s.controlPlaneCompletedAt);
    if (x.actual !== undefined && x.estimated !== undefined) {
      x.late = span(x.estimated, x.actual);
    }
    return x;
  });

const line = (r: UpdateRecord, now: number): Update => {
  const s = statusOf(r);
  const until = end(s, now);
  const controlPlane = s.durations?.controlPlane ? parseDuration(s.durations.controlPlane) : 0;
  const u: Update = {
    record: r.metadata?.name ?? '',
    from: s.from?.version || undefined,
    to: s.to?.version ?? '',
    state: s.state ?? '',
    startedAt: timeOf(s.startedAt) ?? zeroTime,
    duration: s.durations?.total ? parseDuration(s.durations.total) : controlPlane,
    controlPlane,
    stalls: (s.stalls?.length ?? 0) + (s.stallsOmitted ?? 0),
    stallTime: (s.stalls ?? []).reduce((sum, st) => sum + stallDuration(st, until), 0),
    notObserved: (s.notObserved?.length ?? 0) > 0 || (s.notObservedOmitted ?? 0) > 0,
  };
  // The estimate at 50 percent, else the first one told.
  for (const e of estimateErrors(s)) {
    if (e.late !== undefined && (!u.estimateError || e.percent === 50)) {
      u.estimateError = { percent: e.percent, late: e.late };
    }
  }
  return u;
};

// list is the history of the records, the newest first.
export const list = (records: UpdateRecord[], now: Date): Update[] =>
  records
    .map((r) => line(r, now.getTime()))
    .sort((a, b) => (a.startedAt !== b.startedAt ? b.startedAt - a.startedAt : a.record < b.record ? -1 : a.record > b.record ? 1 : 0));

export type Event = { at: number; what: string };

export type Operator = { name: string; startedAt: number; completedAt: number; duration: number };

export type Stall = UpdateStall & { duration: number };

// Pool is what a pool's nodes took: duration is from its first node's
// start to its last's finish, or to the update's end while it updates;
// absent before a node began.
export type Pool = PoolUpdateRecord & { duration?: number };

// Postmortem is what one recorded update took.
export type Postmortem = {
  update: Update;
  // completedAt is the control plane's completion, abandonedAt the start of
  // the update that replaced this one, updateCompletedAt the update's
  // completion, its pools' with its control plane's.
  completedAt?: number;
  abandonedAt?: number;
  updateCompletedAt?: number;
  observedUntil: number;
  notObserved: { from: number; to: number }[];
  notObservedOmitted: number;
  timeline: Event[];
  slowestOperators: Operator[];
  // operatorsUndated counts the operators updated with no duration to
  // tell: their start or end was not seen.
  operatorsUndated: number;
  stalls: Stall[];
  stallsOmitted: number;
  estimates: Estimate[];
  pools: Pool[];
  poolsOmitted: number;
};

// build is the postmortem of the record at now.
export const build = (r: UpdateRecord, now: Date): Postmortem => {
  const s = statusOf(r);
  const p: Postmortem = {
    update: line(r, now.getTime()),
    completedAt: timeOf(s.controlPlaneCompletedAt),
    abandonedAt: timeOf(s.abandonedAt),
    updateCompletedAt: timeOf(s.completedAt),
    observedUntil: timeOf(s.observedUntil) ?? zeroTime,
    notObserved: [],
    notObservedOmitted: s.notObservedOmitted ?? 0,
    timeline: [],
    slowestOperators: [],
    operatorsUndated: 0,
    stalls: [],
    stallsOmitted: s.stallsOmitted ?? 0,
    estimates: estimateErrors(s),
    pools: [],
    poolsOmitted: s.poolsOmitted ?? 0,
  };
  const add = (at: number, what: string) => p.timeline.push({ at, what });
  add(p.update.startedAt, `The update to ${s.to?.version ?? ''} started`);
  for (const sp of s.notObserved ?? []) {
    const from = Date.parse(sp.from);
    const to = Date.parse(sp.to);
    p.notObserved.push({ from, to });
    add(from, `Not observed until ${rfc3339(sp.to)}: no operator saw the update (${minutes(span(from, to))})`);
  }
  for (const o of s.clusterOperators ?? []) {
    const started = timeOf(o.startedAt);
    const completed = timeOf(o.completedAt);
    if (started !== undefined) {
      add(started, `ClusterOperator ${o.name} began updating`);
    }
    if (completed !== undefined) {
      add(completed, `ClusterOperator ${o.name} updated`);
    }
    if (started === undefined || completed === undefined) {
      if (o.updated) {
        p.operatorsUndated++;
      }
      continue;
    }
    p.slowestOperators.push({ name: o.name, startedAt: started, completedAt: completed, duration: span(started, completed) });
  }
  p.slowestOperators.sort((a, b) => (a.duration !== b.duration ? b.duration - a.duration : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  p.slowestOperators = p.slowestOperators.slice(0, slowestOperators);

  const until = end(s, now.getTime());
  for (const st of s.stalls ?? []) {
    const d = stallDuration(st, until);
    p.stalls.push({ ...st, duration: d });
    add(stallStart(st), `${st.level}: ${st.summary}`);
    if (st.endedAt) {
      add(
        Date.parse(st.endedAt),
        st.endNotObserved
          ? `Last seen after ${minutes(d)} (it ended while no operator watched): ${st.summary}`
          : `Resolved after ${minutes(d)}: ${st.summary}`,
      );
    }
  }
  p.stalls.sort((a, b) => b.duration - a.duration);
  for (const e of p.estimates) {
    if (e.estimated !== undefined) {
      add(e.observedAt, `At ${e.completionPercent}% the control plane's completion was estimated at ${rfc3339(new Date(e.estimated))}`);
    }
  }
  for (const pool of s.pools ?? []) {
    const started = timeOf(pool.startedAt);
    const completed = timeOf(pool.completedAt);
    const duration = started === undefined ? undefined : Math.max(0, span(started, completed ?? until));
    if (started !== undefined) {
      add(started, `Pool ${pool.name} began updating its nodes`);
      if (completed !== undefined) {
        add(completed, `Pool ${pool.name} updated its ${pool.nodes ?? 0} nodes (${minutes(duration!)})`);
      }
    }
    p.pools.push({ ...pool, duration });
  }
  if (p.updateCompletedAt !== undefined && (p.completedAt === undefined || p.updateCompletedAt > p.completedAt)) {
    add(p.updateCompletedAt, `The update completed, its pools with its control plane (${minutes(p.update.duration)})`);
  }
  if (p.completedAt !== undefined) {
    add(p.completedAt, `The control plane completed the update (${minutes(p.update.controlPlane)})`);
  } else if (p.abandonedAt !== undefined) {
    add(p.abandonedAt, 'The update was abandoned for another');
  }
  p.timeline.sort((a, b) => a.at - b.at);
  return p;
};
