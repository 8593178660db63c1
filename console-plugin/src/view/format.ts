// The wording the status command uses, ported from pkg/statusview/format.go
// so that the tab says what `status --details=all` says: durations, the
// remaining time, the assessment word, the versions, the counts.
import {
  between,
  durationString,
  Hour,
  Minute,
  parseDuration,
  round,
  Second,
  truncate,
} from './duration';
import type { ResourceRef, Version } from '../model/types';

// unknown stands for a value the insights do not tell, as in the reference.
export const unknown = '?';

export const orUnknown = (s: string | undefined): string => (s ? s : unknown);

// shortDuration prints a duration as the reference does: 1h12m, 28m,
// 1h0m17s, 1m29s, 6s.
export const shortDuration = (d: number): string => {
  const s = durationString(d);
  if (s.endsWith('h0m0s')) {
    return s.slice(0, -'0m0s'.length);
  }
  if (s.endsWith('m0s')) {
    return s.slice(0, -'0s'.length);
  }
  return s;
};

// roughDuration prints a long duration to the minute and a short one to
// the second.
export const roughDuration = (d: number): string =>
  d > 10 * Minute ? shortDuration(round(d, Minute)) : shortDuration(round(d, Second));

// since prints how long ago t was, in whole seconds truncated as the
// reference's SINCE columns are: 2m56.7s is 2m56s. "now" under a second (or
// for a time in the future), "-" when t is unknown.
export const since = (t: string | undefined, now: Date): string => {
  if (!t) {
    return '-';
  }
  const d = truncate(between(new Date(t), now), Second);
  return d <= 0 ? 'now' : shortDuration(d);
};

// sinceStart prints how long the update has run, rounded to the second, as
// the reference dates its "Update is proceeding well" row.
export const sinceStart = (t: string | undefined, now: Date): string => {
  if (!t) {
    return '-';
  }
  const d = round(between(new Date(t), now), Second);
  return d <= 0 ? 'now' : shortDuration(d);
};

// rfc3339 prints a time as Go's time.RFC3339 in UTC: to the second.
export const rfc3339 = (t: string | Date): string =>
  new Date(t).toISOString().replace(/\.\d+Z$/, 'Z');

// believedUpTo is the longest time left that an estimate is believed for:
// the curve it projects through was fitted on updates of an hour or two, and
// an update that has run for days projects through it to years.
export const believedUpTo = 24 * Hour;

// remaining prints the time left until the estimated completion: vague
// under 10 minutes, and once more than 10 minutes past the estimate, or
// further ahead than is believed, the estimate's duration instead.
export const remaining = (estimated: string, started: string | undefined, now: Date): string => {
  const est = new Date(estimated);
  const left = between(now, est);
  if ((left < -10 * Minute || left > believedUpTo) && started) {
    return `N/A; estimate duration was ${shortDuration(truncate(between(new Date(started), est), Minute))}`;
  }
  if (left < -10 * Minute || left > believedUpTo) {
    return 'N/A';
  }
  if (left < 10 * Minute) {
    return '<10m';
  }
  return roughDuration(left);
};

// estimatedFinish is when the update is estimated to finish, only while that
// is ahead of now and believed: a finish already passed, or years away, is
// no time to come.
export const estimatedFinish = (estimated: string | undefined, now: Date): string | undefined => {
  if (!estimated) {
    return undefined;
  }
  const left = between(now, new Date(estimated));
  return left > 0 && left <= believedUpTo ? rfc3339(estimated) : undefined;
};

// nodeEstimate is a node's EST column: how long until it is updated while
// it updates, - once it is or while its pool is paused, ? when not known. A
// node of a paused pool that is degraded or unavailable reads ?, as in
// pkg/statusview/nodes.go Estimate.
export const nodeEstimate = (estimatedToComplete: string | undefined, phase: string, assessment: string): string => {
  if (estimatedToComplete) {
    return `+${shortDuration(parseDuration(estimatedToComplete))}`;
  }
  return phase === 'Updated' || assessment === 'Excluded' ? '-' : unknown;
};

// assessmentWord is the reference's word for a control plane assessment, as
// pkg/statusview/format.go says it: Degraded, which earlier versions wrote,
// reads Stalled.
export const assessmentWord = (assessment: string | undefined): string => {
  switch (assessment) {
    case 'ProgressingSlow':
      return 'Progressing - Slow';
    case 'Degraded':
      return 'Stalled';
  }
  return orUnknown(assessment);
};

// isStalled says whether a control plane assessment reads Stalled.
export const isStalled = (assessment: string | undefined): boolean =>
  assessment === 'Stalled' || assessment === 'Degraded';

const hasMetadata = (v: Version | undefined, key: string): boolean =>
  !!v?.metadata?.some((m) => m.key === key);

// isArchitectureMigration says whether the update migrates the payload to
// another architecture, keeping its version.
export const isArchitectureMigration = (target: Version): boolean =>
  hasMetadata(target, 'Architecture');

// targetVersion words the update's versions as the reference does.
export const targetVersion = (target: Version, previous?: Version): string => {
  const t = orUnknown(target.version);
  if (!previous) {
    return t;
  }
  const p = orUnknown(previous.version);
  if (hasMetadata(previous, 'Partial')) {
    return `${t} (from incomplete ${p})`;
  }
  if (isArchitectureMigration(target)) {
    return `${t} to Multi-Architecture`;
  }
  return `${t} (from ${p})`;
};

// resourceText names a health insight's resource as --details=health does:
// <resource>[.<group>]: [<namespace>/]<name>.
export const resourceText = (r: ResourceRef): string => {
  const kind = r.group ? `${r.resource}.${r.group}` : r.resource;
  const name = r.namespace ? `${r.namespace}/${r.name}` : r.name;
  return `${kind}: ${name}`;
};
