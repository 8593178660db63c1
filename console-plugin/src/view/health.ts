// The health insights as `status --details=health` lists them, ported from
// pkg/statusview (build.go health, informers.go informerHealth, format.go
// message and reference): the operator's and the informers', the most
// serious first, then the most recent, then by summary.
import type {
  InformerInsights,
  InsightImpactLevel,
  ResourceRef,
  UpdateHealthInsight,
  UpdateStatus,
} from '../model/types';
import { BuiltinInformer, impactLevel } from './informers';
import { resourceText, since } from './format';

// NoRunbook is what oc prints for an alert without a runbook, the only
// insight the operator writes without a reference (pkg/health/alerts.go).
export const NoRunbook = '<alert does not have a runbook_url annotation>';

export type HealthView = {
  name: string;
  // informer names the UpdateInformer that reported it; absent for the
  // operator's own.
  informer?: string;
  startedAt?: string;
  // since is the SINCE column: how long ago it started.
  since: string;
  level: InsightImpactLevel;
  impact: string;
  scope: string;
  summary: string;
  // message is the MESSAGE column: the summary, naming the informer.
  message: string;
  description?: string;
  // reference is the remediation link, NoRunbook, or - when there is none.
  reference: string;
  resources: string[];
  // resourceRefs are the resources as the insight names them.
  resourceRefs: ResourceRef[];
};

// impactLevels are the health levels, the most serious first
// (pkg/apis/insights/v1alpha1/levels.go).
const impactLevels: InsightImpactLevel[] = ['Critical', 'Error', 'Warning', 'Info', 'Unknown'];

export const impactLevelRank = (level: string): number => {
  const i = impactLevels.indexOf(level as InsightImpactLevel);
  return i < 0 ? impactLevels.length : i;
};

type Entry = Omit<HealthView, 'since' | 'message' | 'reference' | 'resources' | 'resourceRefs'> & {
  reference?: string;
  resources: ResourceRef[];
};

const informerHealth = (s: UpdateStatus | undefined): Entry[] => {
  const out: Entry[] = [];
  const add = (informers: InformerInsights[] | undefined) => {
    for (const informer of informers ?? []) {
      if (informer.name === BuiltinInformer) {
        continue;
      }
      for (const i of informer.insights ?? []) {
        const level = impactLevel(i.impact.level);
        if (!level) {
          continue;
        }
        out.push({
          name: `${informer.name}/${i.uid}`,
          informer: informer.name,
          startedAt: i.acquisitionTime,
          level,
          impact: i.impact.type || 'Unknown',
          scope: i.scope.type,
          summary: i.impact.summary,
          description: i.impact.description,
          reference: i.remediation?.reference,
          resources: (i.scope.resources ?? []).map((r) => ({
            group: r.group,
            resource: r.kind,
            namespace: r.namespace,
            name: r.name,
          })),
        });
      }
    }
  };
  add(s?.status?.controlPlane?.informers);
  for (const pool of s?.status?.workerPools ?? []) {
    add(pool.informers);
  }
  return out;
};

const isAlert = (r: ResourceRef) => r.group === 'config.openshift.io' && r.resource === 'alerts';

const time = (t: string | undefined) => (t ? new Date(t).getTime() : -Infinity);

const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export const health = (
  insights: UpdateHealthInsight[],
  updateStatus: UpdateStatus | undefined,
  now: Date,
): HealthView[] => {
  const entries: Entry[] = [...informerHealth(updateStatus)];
  for (const h of insights) {
    const s = h.status;
    if (!s) {
      continue;
    }
    entries.push({
      name: h.metadata?.name ?? '',
      startedAt: s.startedAt || undefined,
      level: s.impact.level,
      impact: s.impact.type,
      scope: s.scope.type,
      summary: s.impact.summary,
      description: s.impact.description,
      reference: s.remediation?.reference,
      resources: s.scope.resources ?? [],
    });
  }
  entries.sort(
    (a, b) =>
      impactLevelRank(a.level) - impactLevelRank(b.level) ||
      time(b.startedAt) - time(a.startedAt) ||
      compareStrings(a.summary, b.summary) ||
      compareStrings(a.name, b.name),
  );
  return entries.map((e) => ({
    ...e,
    since: since(e.startedAt, now),
    message: e.informer ? `${e.summary} (${e.informer})` : e.summary,
    reference: e.reference || (e.resources.some(isAlert) ? NoRunbook : '-'),
    resources: e.resources.map(resourceText),
    resourceRefs: e.resources,
  }));
};

// byLevel groups health insights by level, the most serious first.
export const byLevel = (items: HealthView[]): { level: string; items: HealthView[] }[] => {
  const groups: { level: string; items: HealthView[] }[] = [];
  for (const h of items) {
    const last = groups[groups.length - 1];
    if (last?.level === h.level) {
      last.items.push(h);
    } else {
      groups.push({ level: h.level, items: [h] });
    }
  }
  return groups;
};
