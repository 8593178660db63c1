// The line in Overview → Status: whether an update is running and whether
// it is healthy, from the control plane's insight, the pools' insights, the
// health insights and the UpdateStatus, which holds what the
// UpdateInformers report, decided as the tab decides them.
import type {
  ClusterVersionProgressInsight,
  MachineConfigPoolProgressInsight,
  UpdateHealthInsight,
  UpdateStatus,
} from '../model/types';
import { isStalled, orUnknown } from './format';
import { health as healthViews, impactLevelRank } from './health';

// HealthStateValue is the SDK's HealthState enum by value
// (frontend/packages/console-dynamic-plugin-sdk/src/extensions/console-types.ts).
export type HealthStateValue = 'OK' | 'ERROR' | 'WARNING' | 'LOADING' | 'UNKNOWN' | 'UPDATING' | 'NOT_AVAILABLE';

export type Loaded<T> = { data?: T; loaded: boolean; loadError?: unknown };

export type OverviewInput = {
  clusterVersion: Loaded<ClusterVersionProgressInsight>;
  pools: Loaded<MachineConfigPoolProgressInsight[]>;
  health: Loaded<UpdateHealthInsight[]>;
  updateStatus: Loaded<UpdateStatus>;
};

export type OverviewHealth = { state: HealthStateValue; message: string };

const errorMessage = (e: unknown): string =>
  (e as { message?: string })?.message ?? String(e);

// notFound says a watch of a named object failed only because it does
// not exist: the UpdateStatus before the operator first writes it.
const notFound = (e: unknown) => (e as { response?: { status?: number } })?.response?.status === 404;

// overviewHealth is the subsystem's health: UPDATING while an update runs
// without a warning, WARNING or ERROR by its most serious health insight,
// the operator's or an UpdateInformer's (as the tab lists them), OK when
// no update runs and nothing is wrong.
export const overviewHealth = ({ clusterVersion, pools, health, updateStatus }: OverviewInput): OverviewHealth => {
  const status = notFound(updateStatus.loadError) ? { loaded: true } : updateStatus;
  const failed = [clusterVersion, pools, health, status].find((r) => r.loadError);
  if (failed) {
    return { state: 'UNKNOWN', message: `Cannot read the insights: ${errorMessage(failed.loadError)}` };
  }
  if (!clusterVersion.loaded || !pools.loaded || !health.loaded || !status.loaded) {
    return { state: 'LOADING', message: '' };
  }
  const cv = clusterVersion.data?.status;
  if (!cv) {
    return { state: 'NOT_AVAILABLE', message: 'No update insight yet: is update-insights-operator running?' };
  }
  // A pool is behind, as the tab counts it, until its insight says
  // Completed: a paused (Excluded) pool too. A pool without nodes has
  // nothing to update.
  const behind = (pools.data ?? []).filter(
    (p) =>
      p.status &&
      p.status.assessment !== 'Completed' &&
      p.status.summaries?.find((s) => s.type === 'Total')?.count !== 0,
  );
  const updating = cv.assessment !== 'Completed' || behind.length > 0;
  // Sorted the most serious first; the time only orders, it is not shown.
  const worst = healthViews(health.data ?? [], status.data, new Date(0))
    .map((h) => h.level)
    .sort((a, b) => impactLevelRank(a) - impactLevelRank(b))[0];
  const serious = worst === 'Critical' || worst === 'Error';
  const warning = worst === 'Warning';
  const target = orUnknown(cv.versions?.target?.version);
  let message: string;
  if (cv.assessment !== 'Completed') {
    message = `Updating to ${target}: control plane ${cv.completionPercent ?? 0}%`;
  } else if (updating) {
    message = `Updating to ${target}: control plane done, ${behind.length} pool${behind.length === 1 ? '' : 's'} updating`;
  } else {
    message = `Not updating (at ${target})`;
  }
  if (serious) {
    return { state: 'ERROR', message: `${message}; ${worst} health insights` };
  }
  // Past its estimate by over 10 minutes, or past it: said as the old
  // insight of an overdue update said it, at Error or Warning.
  if (isStalled(cv.assessment)) {
    return { state: 'ERROR', message: `${message}; stalled` };
  }
  if (warning) {
    return { state: 'WARNING', message: `${message}; warnings` };
  }
  if (cv.assessment === 'ProgressingSlow') {
    return { state: 'WARNING', message: `${message}; slow` };
  }
  return { state: updating ? 'UPDATING' : 'OK', message: updating ? `${message}; healthy` : message };
};
