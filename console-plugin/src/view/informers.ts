// What the UpdateInformers report, as the status command reads it from the
// UpdateStatus (pkg/statusview/informers.go and upcoming.go), and each
// UpdateInformer's own state (types_updateinformer.go: the Online
// condition, reasons Unreachable, Failure, Waiting, DiscoveryFailed,
// Disabled when not).
import {
  Condition,
  findCondition,
  InformerInsights,
  InsightImpactLevel,
  UpdateInformer,
  UpdateInsightLevel,
  UpdateStatus,
} from '../model/types';
import { between } from './duration';
import { rfc3339, roughDuration, since } from './format';

// BuiltinInformer is the operator's own informer, whose insights the
// status command reads from its insight objects instead
// (pkg/updatestatus/builtin.go).
export const BuiltinInformer = 'update-insights-operator';

// OfflineUIDPrefix starts the uid of the operator's insight that an
// informer cannot be heard (pkg/updatestatus/status.go).
const OfflineUIDPrefix = 'informer/';

// Progress is a status-level insight of an UpdateInformer: how its part of
// the update goes, as that informer sees it.
export type Progress = {
  informer: string;
  uid: string;
  summary: string;
  since?: string;
  estimatedFinish?: string;
  awaitingWindow: boolean;
  stale: boolean;
};

// impactLevel is an informer's level as a health insight's; a status level
// has none (pkg/apis/insights/v1alpha1/levels.go ImpactLevel).
export const impactLevel = (level: UpdateInsightLevel): InsightImpactLevel | undefined =>
  (
    ({
      critical: 'Critical',
      error: 'Error',
      warning: 'Warning',
      info: 'Info',
    }) as Record<string, InsightImpactLevel>
  )[level];

const progressOf = (informers: InformerInsights[] | undefined): Progress[] => {
  const out: Progress[] = [];
  for (const informer of informers ?? []) {
    if (informer.name === BuiltinInformer) {
      continue;
    }
    for (const i of informer.insights ?? []) {
      if (i.impact.level !== 'status') {
        continue;
      }
      out.push({
        informer: informer.name,
        uid: i.uid,
        summary: i.impact.summary,
        since: i.acquisitionTime,
        estimatedFinish: i.remediation?.estimatedFinish,
        awaitingWindow: i.impact.type === 'Awaiting Window',
        stale: !!informer.stale,
      });
    }
  }
  return out;
};

// informerProgress returns the informers' status-level insights: the
// control plane's, and each worker pool's by the pool's name.
export const informerProgress = (
  s: UpdateStatus | undefined,
): { controlPlane: Progress[]; pools: Record<string, Progress[]> } => {
  const pools: Record<string, Progress[]> = {};
  for (const pool of s?.status?.workerPools ?? []) {
    const p = progressOf(pool.informers);
    if (p.length > 0) {
      pools[pool.resource.name] = p;
    }
  }
  return { controlPlane: progressOf(s?.status?.controlPlane?.informers), pools };
};

// ProgressLine is a progress insight with its note, as a line shows it:
// <summary> (<note>).
export type ProgressLine = Progress & { note: string };

export const progressLines = (progress: Progress[], now: Date): ProgressLine[] =>
  progress.map((p) => ({ ...p, note: progressNote(p, now) }));

// progressNote names a progress insight's informer and says until when it
// should last, and whether it is from a failed informer's last good answer.
export const progressNote = (p: Progress, now: Date): string => {
  const note = [p.informer];
  if (p.estimatedFinish) {
    const finish = new Date(p.estimatedFinish);
    if (p.awaitingWindow) {
      note.push(`window opens at ${rfc3339(finish)}`);
    } else if (finish.getTime() > now.getTime()) {
      note.push(`Est. Time Remaining: ${roughDuration(between(now, finish))}`);
    } else {
      note.push(`expected to finish ${roughDuration(between(finish, now))} ago`);
    }
  }
  if (p.stale) {
    note.push("stale: the informer's last call failed");
  }
  return note.join(', ');
};

// informerWarnings say which informers could not be heard: their insights
// are missing or old, which nothing else on the page can tell.
export const informerWarnings = (s: UpdateStatus | undefined): string[] => {
  const out: string[] = [];
  const complete = findCondition(s?.status?.conditions, 'InsightsComplete');
  if (complete?.status === 'False') {
    const message = (complete.message ?? '').replace(/\n/g, '; ');
    out.push(
      `UpdateStatus does not hold every insight the informers reported: ${truncate(message, 1024)}.`,
    );
  }
  for (const informer of s?.status?.controlPlane?.informers ?? []) {
    if (informer.name !== BuiltinInformer) {
      continue;
    }
    for (const i of informer.insights ?? []) {
      if (i.uid.startsWith(OfflineUIDPrefix)) {
        out.push(`${i.impact.summary}.`);
      }
    }
  }
  return out;
};

// truncate cuts s to max bytes with an ellipsis (three bytes of UTF-8), as
// pkg/text Truncate does; it counts UTF-16 units, which are the bytes of
// the ASCII messages the operator writes.
const truncate = (s: string, max: number): string =>
  s.length <= max ? s : `${s.slice(0, max - 3)}…`;

export type UpcomingView = {
  state: 'Scheduled' | 'Starting';
  // text is the line the status command prints in place of "The cluster
  // is not updating.".
  text: string;
};

// upcoming is the update an informer holds while the control plane is not
// updating: the first status-level Awaiting Window insight. It returns the
// other progress insights too.
export const upcoming = (
  progress: Progress[],
  now: Date,
): { upcoming?: UpcomingView; rest: Progress[] } => {
  const i = progress.findIndex((p) => p.awaitingWindow);
  if (i < 0) {
    return { rest: progress };
  }
  const p = progress[i];
  const scheduled = !!p.estimatedFinish && new Date(p.estimatedFinish).getTime() > now.getTime();
  const note: string[] = [];
  if (scheduled) {
    note.push(`window opens at ${rfc3339(p.estimatedFinish!)}`);
  }
  if (p.stale) {
    note.push("stale: the informer's last call failed");
  }
  const summary = note.length > 0 ? `${p.summary} (${note.join(', ')})` : p.summary;
  const text = scheduled
    ? `An update is scheduled, as ${p.informer} reports: ${summary}.`
    : `An update is starting, as ${p.informer} reports: ${summary}. The control plane has not begun to update.`;
  return {
    upcoming: { state: scheduled ? 'Scheduled' : 'Starting', text },
    rest: [...progress.slice(0, i), ...progress.slice(i + 1)],
  };
};

export type InformerView = {
  name: string;
  enabled: boolean;
  online: 'Online' | 'Offline' | 'Unknown';
  // reason and message are the Online condition's.
  reason?: string;
  message?: string;
  handlers: string[];
  // lastContact is how long ago a call last succeeded, as the status
  // command words durations: 2m, now, - when never.
  lastContact: string;
};

// informerView says whether an UpdateInformer is online: its Online
// condition, which the operator sets after each call.
export const informerView = (i: UpdateInformer, now: Date): InformerView => {
  const online: Condition | undefined = findCondition(i.status?.conditions, 'Online');
  return {
    name: i.metadata?.name ?? '',
    enabled: i.spec?.enabled !== false,
    online: online?.status === 'True' ? 'Online' : online?.status === 'False' ? 'Offline' : 'Unknown',
    reason: online?.reason,
    message: online?.message,
    handlers: (i.status?.handlers ?? []).map((h) => h.name),
    lastContact: since(i.status?.lastHeartbeatTime, now),
  };
};

export const informerViews = (informers: UpdateInformer[], now: Date): InformerView[] =>
  informers
    .map((i) => informerView(i, now))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
