// The pre-checks view of an UpdatePlan and what accepting a finding
// writes, ported from pkg/planview (planview.go Findings, accept.go Accept,
// text.go) and pkg/updateplan (Informers, NeedsAcceptance), so that
// accepting in the console writes exactly what `pre-checks --accept`
// writes: the entry {updateInformer, uid: the finding's identity, accepted:
// true} in spec.acceptedInsights, appended, or an existing entry for that
// informer and identity set to accepted.
import type {
  AcceptedInsight,
  Condition,
  InsightResource,
  UpdateInsightLevel,
  UpdatePlan,
} from '../model/types';
import { findCondition } from '../model/types';
import { between, durationString, Second, truncate } from './duration';
import { rfc3339 } from './format';

export type Finding = {
  informer: string;
  // stale says the informer did not answer the last evaluation.
  stale: boolean;
  // pool is the worker pool the finding is about; empty for the control
  // plane.
  pool: string;
  identity: string;
  // needsAcceptance is false for status-level findings, which say how the
  // update would go rather than what might go wrong.
  needsAcceptance: boolean;
  accepted: boolean;
  uid: string;
  level: UpdateInsightLevel;
  // levelText is the level as the command prints it: Error, Warning.
  levelText: string;
  impact?: string;
  summary: string;
  description?: string;
  reference?: string;
  // scope is the Scope line: ControlPlane (ClusterVersion.config.openshift.io/version).
  scope: string;
};

export type PlanView = {
  name: string;
  targetRelease: string;
  // evaluated is the Evaluated line: a time and how long ago, or not yet.
  evaluated: string;
  findings: Finding[];
  conditions: { type: string; text: string }[];
  staleInformers: string[];
};

// updateInsightLevels are the informers' levels, the most serious first
// (pkg/apis/insights/v1alpha1/levels.go).
const updateInsightLevels: UpdateInsightLevel[] = ['critical', 'error', 'warning', 'info', 'status'];

const levelRank = (level: string): number => {
  const i = updateInsightLevels.indexOf(level as UpdateInsightLevel);
  return i < 0 ? updateInsightLevels.length : i;
};

const capitalize = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

// resourceString names a resource as kubectl does,
// <kind>[.<group>]/[<namespace>/]<name> (pkg/informer/protocol/identity.go).
export const resourceString = (r: InsightResource): string =>
  `${r.kind}${r.group ? `.${r.group}` : ''}/${r.namespace ? `${r.namespace}/` : ''}${r.name}`;

// findings are the plan's findings, the most serious first, and otherwise
// in the plan's order: the control plane's, then each pool's.
export const findings = (plan: UpdatePlan): Finding[] => {
  const out: Finding[] = [];
  const informers: [string, NonNullable<NonNullable<UpdatePlan['status']>['controlPlane']>['informers']][] = [
    ['', plan.status?.controlPlane?.informers],
    ...(plan.status?.workerPools ?? []).map(
      (p) => [p.resource.name, p.informers] as [string, typeof p.informers],
    ),
  ];
  for (const [pool, list] of informers) {
    for (const informer of list ?? []) {
      for (const i of informer.insights ?? []) {
        const resources = (i.scope.resources ?? []).map(resourceString);
        out.push({
          informer: informer.name,
          stale: !!informer.stale,
          pool,
          identity: i.identity,
          needsAcceptance: i.impact.level !== 'status',
          accepted: !!i.accepted,
          uid: i.uid,
          level: i.impact.level,
          levelText: capitalize(i.impact.level),
          impact: i.impact.type || undefined,
          summary: i.impact.summary,
          description: i.impact.description,
          reference: i.remediation?.reference,
          scope:
            i.scope.type +
            (pool ? ` ${pool}` : '') +
            (resources.length > 0 ? ` (${resources.join(', ')})` : ''),
        });
      }
    }
  }
  // Array.prototype.sort is stable, as slices.SortStableFunc is.
  return out.sort((a, b) => levelRank(a.level) - levelRank(b.level));
};

const conditionText = (conditions: Condition[] | undefined, type: string): string => {
  const c = findCondition(conditions, type);
  const text = c ? `${c.status} (${c.reason ?? ''}) ${c.message ?? ''}` : 'Unknown (not reported yet)';
  return text.replace(/\r\n|\n|\t/g, ' ');
};

export const planView = (plan: UpdatePlan, now: Date): PlanView => {
  const evaluatedAt = plan.status?.evaluatedAt;
  const all = findings(plan);
  return {
    name: plan.metadata?.name ?? '',
    targetRelease: plan.spec?.targetRelease ?? '',
    evaluated: evaluatedAt ? `${rfc3339(evaluatedAt)} (${sinceTruncated(evaluatedAt, now)} ago)` : 'not yet',
    findings: all,
    conditions: ['Answered', 'Accepted'].map((type) => ({
      type,
      text: conditionText(plan.status?.conditions, type),
    })),
    staleInformers: [...new Set(all.filter((f) => f.stale).map((f) => f.informer))],
  };
};

// sinceTruncated is how long ago t was, truncated to the second, as the
// Evaluated line prints it (Go's Duration.String: 0s, 1m5s, 2h0m0s).
const sinceTruncated = (t: string, now: Date): string =>
  durationString(truncate(between(new Date(t), now), Second));

export type AcceptAction =
  | { enabled: true }
  | { enabled: false; reason: string };

// accessReason says why the user may not accept findings: the access
// review is under way, or it said no; undefined when it said yes.
export const accessReason = (access: { allowed: boolean; loading: boolean }): string | undefined => {
  if (access.loading) {
    return 'Checking whether you may patch UpdatePlans…';
  }
  if (!access.allowed) {
    return 'You may not patch UpdatePlans (updateplans.openshift.muller.dev): ask someone who may to accept this finding.';
  }
  return undefined;
};

// acceptAction says whether a finding's Accept action is enabled, and if
// not, why: only a finding that needs accepting and is not accepted can
// be, and only by a user who may patch UpdatePlans.
export const acceptAction = (
  f: Finding,
  access: { allowed: boolean; loading: boolean },
): AcceptAction => {
  if (!f.needsAcceptance) {
    return { enabled: false, reason: 'A status finding says how the update would go: it needs no acceptance.' };
  }
  if (f.accepted) {
    return { enabled: false, reason: 'Accepted.' };
  }
  const reason = accessReason(access);
  return reason ? { enabled: false, reason } : { enabled: true };
};

// acceptedInsights is the plan's spec.acceptedInsights with the finding
// accepted, as planview.Accept computes it; undefined when it already is.
export const acceptedInsights = (
  plan: UpdatePlan,
  f: Pick<Finding, 'informer' | 'identity'>,
): AcceptedInsight[] | undefined => {
  const current = plan.spec?.acceptedInsights ?? [];
  const i = current.findIndex((a) => a.updateInformer === f.informer && a.uid === f.identity);
  if (i < 0) {
    return [...current, { updateInformer: f.informer, uid: f.identity, accepted: true }];
  }
  if (current[i].accepted) {
    return undefined;
  }
  return current.map((a, j) => (j === i ? { ...a, accepted: true } : a));
};

export type JSONPatch = { op: 'test' | 'add' | 'replace'; path: string; value?: unknown }[];

// acceptPatch is the JSON patch (RFC 6902) that accepts the finding, for
// the SDK's k8sPatchResource. The CLI reads the plan and updates it with
// its resourceVersion, retrying on a conflict; the test of the
// resourceVersion makes the API server refuse this patch alike when the
// plan changed since it was read, so that no one else's acceptance is
// overwritten. add sets spec.acceptedInsights whether or not it exists.
export const acceptPatch = (plan: UpdatePlan, f: Pick<Finding, 'informer' | 'identity'>): JSONPatch | undefined => {
  const accepted = acceptedInsights(plan, f);
  if (!accepted) {
    return undefined;
  }
  return [
    { op: 'test', path: '/metadata/resourceVersion', value: plan.metadata?.resourceVersion },
    { op: 'add', path: '/spec/acceptedInsights', value: accepted },
  ];
};
