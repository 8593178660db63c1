// One recorded update as a picture over time, from its UpdateRecord: what
// the postmortem's timeline says (pkg/historyview/postmortem.go), as bars
// and marks for the tab to draw. As the record, it fills in no time it did
// not see: an operator or pool whose start was not seen is counted, not
// drawn; one whose end was not seen is drawn so, to the end of the update;
// the spans no operator ran, and the time since a record in progress was
// last written, are drawn as not observed.
import type { UpdateRecord } from '../model/types';
import { Hour, Millisecond, Minute } from './duration';
import { end, Estimate, Postmortem, stallStart, statusOf, timeOf, unobservedAfter } from './history';

const Day = 24 * Hour;

// ms is a duration as the milliseconds times are counted in.
const ms = (d: number): number => d / Millisecond;

// Bar is an operator's or a pool's update, from when it was first seen
// updating to when it was seen done. An open bar's end was not seen: to
// when it was last seen updating for an update in progress, else to the
// update's end.
export type Bar = { name: string; from: number; to: number; open: boolean };

export type StallBand = {
  name: string;
  level: string;
  summary: string;
  from: number;
  to: number;
  // ongoing: active when last seen; lastSeen: it ended while no operator
  // watched, some time after to.
  ongoing: boolean;
  lastSeen: boolean;
};

// Unobserved is a span no operator saw; since says it is the time since a
// record in progress was last written.
export type Unobserved = { from: number; to: number; since: boolean };

// EstimateMark is an estimate of the control plane's completion, drawn at
// estimatedAt: its estimate, or the picture's end where beyond says the
// estimate lies past it.
export type EstimateMark = Estimate & { estimatedAt: number; beyond: boolean };

export type Tick = { at: number; label: string };

export type Picture = {
  from: number;
  to: number;
  started: number;
  // completed is the control plane's completion; updateCompleted the
  // update's, its pools' with it, where that came later.
  completed?: number;
  updateCompleted?: number;
  abandoned?: number;
  // lastSeen is when a record in progress was last written.
  lastSeen?: number;
  operators: Bar[];
  pools: Bar[];
  // unseenOperators counts the operators updated without a start seen;
  // unseenPools the pools without one.
  unseenOperators: number;
  unseenPools: number;
  stalls: StallBand[];
  unobserved: Unobserved[];
  estimates: EstimateMark[];
  ticks: Tick[];
};

// tickSteps are the spacings an axis may take, the first that gives at
// most maxTicks.
const tickSteps = [1, 2, 5, 10, 15, 30].map((m) => m * Minute).concat([1, 2, 3, 6, 12].map((h) => h * Hour), [1, 2, 7, 14, 28].map((d) => d * Day));
const maxTicks = 8;

const pad = (n: number) => String(n).padStart(2, '0');

// ticks are the axis's marks, in UTC as the command prints its times: the
// time of day, and the date at midnight.
export const ticks = (from: number, to: number): Tick[] => {
  const step = ms(tickSteps.find((s) => (to - from) / ms(s) <= maxTicks) ?? tickSteps[tickSteps.length - 1]);
  const out: Tick[] = [];
  for (let at = Math.ceil(from / step) * step; at <= to; at += step) {
    const d = new Date(at);
    const midnight = d.getUTCHours() === 0 && d.getUTCMinutes() === 0;
    out.push({ at, label: midnight ? `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` : `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}` });
  }
  return out;
};

// picture is the record, whose postmortem is p, drawn at now; undefined for
// a record with no start yet (created, its status not yet written).
export const picture = (r: UpdateRecord, p: Postmortem, now: Date): Picture | undefined => {
  const s = statusOf(r);
  const started = timeOf(s.startedAt);
  if (started === undefined) {
    return undefined;
  }
  const progressing = s.state === 'Progressing';
  const until = end(s, now.getTime());
  // An open bar ends where the update was last seen in progress, or ended.
  const openEnd = progressing ? p.observedUntil : until;
  const bars = (items: { name: string; startedAt?: string; completedAt?: string }[]): Bar[] =>
    items
      .filter((i) => i.startedAt)
      .map((i) => {
        const from = Date.parse(i.startedAt!);
        const done = timeOf(i.completedAt);
        return { name: i.name, from, to: done ?? Math.max(from, openEnd), open: done === undefined };
      })
      .sort((a, b) => a.from - b.from || (a.name < b.name ? -1 : 1));
  const operators = s.clusterOperators ?? [];
  const pools = s.pools ?? [];
  const pic: Picture = {
    from: started,
    to: started,
    started,
    completed: p.completedAt,
    updateCompleted: p.updateCompletedAt !== undefined && p.updateCompletedAt !== p.completedAt ? p.updateCompletedAt : undefined,
    abandoned: p.abandonedAt,
    lastSeen: progressing ? p.observedUntil : undefined,
    operators: bars(operators),
    pools: bars(pools),
    unseenOperators: operators.filter((o) => !o.startedAt && o.updated).length,
    unseenPools: pools.filter((o) => !o.startedAt).length,
    // As the postmortem lasts them: to their end, or the update's.
    stalls: (s.stalls ?? [])
      .map((st) => ({
        name: st.name,
        level: st.level,
        summary: st.summary,
        from: stallStart(st),
        to: Math.max(stallStart(st), timeOf(st.endedAt) ?? until),
        ongoing: !st.endedAt,
        lastSeen: !!st.endedAt && !!st.endNotObserved,
      }))
      .sort((a, b) => a.from - b.from || (a.name < b.name ? -1 : 1)),
    unobserved: p.notObserved.map((sp) => ({ ...sp, since: false })),
    estimates: [],
    ticks: [],
  };
  if (progressing && now.getTime() - p.observedUntil > ms(unobservedAfter)) {
    pic.unobserved.push({ from: p.observedUntil, to: now.getTime(), since: true });
  }
  const last = Math.max(until, p.observedUntil, ...[...pic.operators, ...pic.pools, ...pic.stalls, ...pic.unobserved].map((x) => x.to));
  // An estimate far off would crush the picture: one further than twice
  // its length, or an hour, is drawn at that limit, said beyond.
  const limit = last + Math.max(2 * (last - started), ms(Hour));
  pic.estimates = p.estimates
    .filter((e) => e.estimated !== undefined)
    .map((e) => ({ ...e, estimatedAt: Math.min(e.estimated!, limit), beyond: e.estimated! > limit }));
  pic.to = Math.max(last, ...pic.estimates.map((e) => e.estimatedAt));
  pic.ticks = ticks(pic.from, pic.to);
  return pic;
};
