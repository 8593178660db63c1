// The update as the tab shows it: the same facts `status --details=all`
// prints, built from the same insights the same way (pkg/statusview
// build.go and text.go), as data for the components instead of text.
import {
  ClusterOperatorProgressInsight,
  ClusterVersionProgressInsight,
  findCondition,
  MachineConfigPoolProgressInsight,
  NodeProgressInsight,
  UpdateHealthInsight,
  UpdateInformer,
  UpdateStatus,
} from '../model/types';
import { between } from './duration';
import { UpdatingOperator, updatingOperator } from './operators';
import {
  assessmentWord,
  estimatedFinish,
  isArchitectureMigration,
  orUnknown,
  remaining,
  rfc3339,
  roughDuration,
  since,
  targetVersion,
  unknown,
} from './format';
import { health, HealthView } from './health';
import {
  informerProgress,
  InformerView,
  informerViews,
  informerWarnings,
  Progress,
  ProgressLine,
  progressLines,
  upcoming,
  UpcomingView,
} from './informers';
import { poolCompleted, pools, PoolView } from './pools';
import { LeaseReading, livenessWarning } from './liveness';

// ClusterOperator is the operator's own ClusterOperator
// (config.openshift.io/v1), of which the view reads the conditions.
export type ClusterOperator = {
  metadata?: { name?: string };
  status?: { conditions?: { type: string; status: string; reason?: string }[] };
};

// OperatorName names the operator's own ClusterOperator.
export const OperatorName = 'update-insights';

export type Insights = {
  clusterVersions: ClusterVersionProgressInsight[];
  clusterOperators: ClusterOperatorProgressInsight[];
  machineConfigPools: MachineConfigPoolProgressInsight[];
  nodes: NodeProgressInsight[];
  health: UpdateHealthInsight[];
  updateStatus?: UpdateStatus;
  updateInformers: UpdateInformer[];
  operator?: ClusterOperator;
  // lease is the operator's leader Lease as read; absent when not read.
  lease?: LeaseReading;
};

export type Completion = { percent: number; updated: number; updating: number; waiting: number };

export type OperatorHealth = {
  healthy: number;
  unavailable: number;
  degraded: number;
  unknown: number;
};

export type ControlPlaneView = {
  assessment: string;
  // assessmentText is the Assessment line, in the reference's words.
  assessmentText: string;
  target: string;
  completion: Completion;
  // completionText is the Completion line.
  completionText: string;
  // updating are the operators updating, by name: how long they have
  // been, the reason they give and their message.
  updating: UpdatingOperator[];
  startedAt?: string;
  completedAt?: string;
  estimatedCompletedAt?: string;
  // estimatedFinish is the estimated finish while it is ahead and believed.
  estimatedFinish?: string;
  // duration is how long the update has run, or ran.
  duration: string;
  // estimatedTimeRemaining is the Duration line's Est. Time Remaining.
  estimatedTimeRemaining?: string;
  // completedText is the line of a completed update.
  completedText?: string;
  operatorHealth: OperatorHealth;
  operatorHealthText: string;
  informers: ProgressLine[];
};

export type StatusView = {
  updating: boolean;
  // notUpdating is the line shown in place of the sections while not
  // updating: an upcoming update, or that the cluster is not updating.
  notUpdating?: string;
  upcoming?: UpcomingView;
  warnings: string[];
  controlPlane: ControlPlaneView;
  // controlPlaneNodesText says, once the control plane's nodes are all
  // updated, to which version.
  controlPlaneNodesText?: string;
  controlPlaneNodes?: PoolView;
  workerPools: PoolView[];
  health: HealthView[];
  informers: InformerView[];
};

// NoClusterVersion says there is nothing to build a view from.
export const NoClusterVersion =
  'No ClusterVersionProgressInsight found: is update-insights-operator installed and running?';

const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const operatorName = (o: ClusterOperatorProgressInsight) => o.status?.name || o.metadata?.name || '';

const operatorHealthText = (h: OperatorHealth): string =>
  [
    `${h.healthy} Healthy`,
    ...[
      [h.unavailable, 'Unavailable'],
      [h.degraded, 'Available but degraded'],
      [h.unknown, 'Unknown'],
    ]
      .filter(([n]) => (n as number) > 0)
      .map(([n, word]) => `${n} ${word}`),
  ].join(', ');

export const controlPlane = (
  cv: NonNullable<ClusterVersionProgressInsight['status']>,
  operators: ClusterOperatorProgressInsight[],
  progress: Progress[],
  now: Date,
): ControlPlaneView => {
  const completion: Completion = {
    percent: cv.completionPercent ?? 0,
    updated: 0,
    updating: 0,
    waiting: 0,
  };
  const operatorHealth: OperatorHealth = { healthy: 0, unavailable: 0, degraded: 0, unknown: 0 };
  const updating: ControlPlaneView['updating'] = [];
  for (const o of [...operators].sort((a, b) => compareStrings(operatorName(a), operatorName(b)))) {
    const u = findCondition(o.status?.conditions, 'Updating');
    if (u?.status === 'True') {
      completion.updating++;
      updating.push(updatingOperator(operatorName(o), since(u.lastTransitionTime, now), o.status?.progressingReason, u.message));
    } else if (u?.reason === 'Updated') {
      completion.updated++;
    } else {
      // Pending, or not known: either way not there yet.
      completion.waiting++;
    }
    const h = findCondition(o.status?.conditions, 'Healthy');
    if (!h) {
      operatorHealth.unknown++;
    } else if (h.status === 'True') {
      operatorHealth.healthy++;
    } else if (h.reason === 'Unavailable') {
      operatorHealth.unavailable++;
    } else if (h.reason === 'Degraded') {
      operatorHealth.degraded++;
    } else {
      operatorHealth.unknown++;
    }
  }
  const target = cv.versions?.target ?? {};
  const duration = cv.startedAt ? roughDuration(between(new Date(cv.startedAt), now)) : unknown;
  let estimatedTimeRemaining: string | undefined;
  if (isArchitectureMigration(target)) {
    // A migration has no estimate: the operators keep their versions.
    estimatedTimeRemaining = 'N/A for Multi-Architecture Migration';
  } else if (cv.estimatedCompletedAt) {
    estimatedTimeRemaining = remaining(cv.estimatedCompletedAt, cv.startedAt, now);
  }
  let completedText: string | undefined;
  if (cv.assessment === 'Completed') {
    const at = cv.completedAt ? rfc3339(cv.completedAt) : unknown;
    const took =
      cv.completedAt && cv.startedAt
        ? roughDuration(between(new Date(cv.startedAt), new Date(cv.completedAt)))
        : unknown;
    completedText = `Update to ${orUnknown(target.version)} successfully completed at ${at} (duration: ${took})`;
  }
  return {
    assessment: cv.assessment,
    assessmentText: assessmentWord(cv.assessment),
    target: targetVersion(target, cv.versions?.previous),
    completion,
    completionText: `${completion.percent}% (${completion.updated} operators updated, ${completion.updating} updating, ${completion.waiting} waiting)`,
    updating,
    startedAt: cv.startedAt,
    completedAt: cv.completedAt,
    estimatedCompletedAt: cv.estimatedCompletedAt,
    estimatedFinish: isArchitectureMigration(target) ? undefined : estimatedFinish(cv.estimatedCompletedAt, now),
    duration,
    estimatedTimeRemaining,
    completedText,
    operatorHealth,
    operatorHealthText: operatorHealthText(operatorHealth),
    informers: progressLines(progress, now),
  };
};

// operatorWarnings say that the operator that writes the insights is not
// available or degraded, or cannot read a source of them, as the status
// command says it (pkg/statusview/ownoperator.go).
export const operatorWarnings = (co: ClusterOperator | undefined): string[] => {
  if (!co) {
    return [];
  }
  const name = co.metadata?.name ?? OperatorName;
  const find = (type: string) => co.status?.conditions?.find((c) => c.type === type);
  const available = find('Available');
  const degraded = find('Degraded');
  let state: string;
  let reason: string | undefined;
  if (available?.status === 'False') {
    [state, reason] = ['not available', available.reason];
  } else if (degraded?.status === 'True') {
    [state, reason] = ['degraded', degraded.reason];
  } else if (available?.reason?.endsWith('SourceUnreachable')) {
    return [
      `The ${name} operator cannot read a source of its insights (${available.reason}), so those may be out of date; \`oc describe clusteroperator ${name}\` says why.`,
    ];
  } else {
    return [];
  }
  return [
    `The ${name} operator is ${state} (${orUnknown(reason)}), so what follows may be out of date; \`oc describe clusteroperator ${name}\` says why.`,
  ];
};

// buildStatus returns the view of the insights as of now, or throws
// NoClusterVersion when there is no ClusterVersion insight.
export const buildStatus = (in_: Insights, now: Date): StatusView => {
  const cv = in_.clusterVersions.find((c) => c.metadata?.name === 'version') ?? in_.clusterVersions[0];
  if (!cv?.status) {
    throw new Error(NoClusterVersion);
  }
  const progress = informerProgress(in_.updateStatus);
  const cp = controlPlane(cv.status, in_.clusterOperators, progress.controlPlane, now);
  const poolProgress: Record<string, ProgressLine[]> = {};
  for (const [name, p] of Object.entries(progress.pools)) {
    poolProgress[name] = progressLines(p, now);
  }
  const { controlPlane: cpNodes, workers } = pools(in_.machineConfigPools, in_.nodes, poolProgress);
  let updating =
    cp.assessment !== 'Completed' || (cpNodes !== undefined && !poolCompleted(cpNodes));
  for (const p of workers) {
    updating = updating || !poolCompleted(p);
  }
  const view: StatusView = {
    updating,
    // Whether the operator runs comes first, as status says it.
    warnings: [
      ...[livenessWarning(in_.lease, now)].filter((w): w is string => !!w),
      ...operatorWarnings(in_.operator),
      ...informerWarnings(in_.updateStatus),
    ],
    controlPlane: cp,
    controlPlaneNodes: cpNodes,
    workerPools: workers,
    health: health(in_.health, in_.updateStatus, now),
    informers: informerViews(in_.updateInformers, now),
  };
  if (cpNodes?.nodes.length && cpNodes.assessment === 'Completed') {
    view.controlPlaneNodesText = `All control plane nodes successfully updated to ${orUnknown(cpNodes.nodes[0].version)}`;
  }
  if (!updating) {
    const { upcoming: u, rest } = upcoming(progress.controlPlane, now);
    view.upcoming = u;
    view.notUpdating = u ? u.text : 'The cluster is not updating.';
    cp.informers = progressLines(rest, now);
    // The operator's health insights are about an update in progress.
    view.health = view.health.filter((h) => h.informer);
  }
  return view;
};
