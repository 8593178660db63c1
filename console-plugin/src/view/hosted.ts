// The hosted clusters of a HyperShift management cluster, as
// `status --hosted-clusters` orders and counts them: ported from
// pkg/hostedview/fleet.go (Build and what it computes), so that the page
// and the tab agree with the command. Insights and a clock in, the fleet
// out; the shape is the command's -o json (test/testdata/golden/hosted/
// fleet.json), which the unit tests hold it to.
import type {
  Condition,
  HostedClusterAssessment,
  HostedClusterProgressInsight,
  HostedProblem,
  InsightImpactLevel,
  NodePoolProgressInsight,
  NodePoolProgressInsightStatus,
  Version,
} from '../model/types';
import { findCondition } from '../model/types';
import { rfc3339 } from './format';

// Attention says how urgently a hosted cluster's update wants a look; the
// fleet is ordered by it. What cannot be known is shown first, never taken
// for a cluster at rest.
export type Attention = 'NeedsAttention' | 'Progressing' | 'Completed';

const attentionRank: Record<Attention, number> = { NeedsAttention: 0, Progressing: 1, Completed: 2 };

// NodePoolCount counts a hosted cluster's NodePools: updated, those at the
// control plane's target, is absent when the target is not known.
export type NodePoolCount = { total: number; updated?: number; fromNodePools?: boolean };

// Estimate is when the whole update, control plane and NodePools, is
// estimated to complete: unknown when a part still updating has none.
export type Estimate = { at?: string; unknown?: boolean };

// Problem is a problem of the control plane, or of the NodePool it names.
export type Problem = HostedProblem & { nodePool?: string };

export type NodePool = NodePoolProgressInsightStatus & { name: string };

export type HostedCluster = {
  namespace: string;
  name: string;
  // insightMissing: no HostedClusterProgressInsight of this name, only
  // NodePool insights that name it; the control plane is then unknown.
  insightMissing?: boolean;
  attention: Attention;
  assessment?: HostedClusterAssessment;
  versions: { target: Version; previous?: Version };
  completionPercent: number;
  startedAt?: string;
  completedAt?: string;
  estimatedCompletedAt?: string;
  problems?: HostedProblem[];
  conditions?: Condition[];
  nodePoolCount: NodePoolCount;
  estimate: Estimate;
  // problem is the worst problem, the one the fleet's table shows.
  problem?: Problem;
  nodePools: NodePool[];
};

export type Fleet = { now: string; clusters: HostedCluster[] };

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const fromInsight = (hc: HostedClusterProgressInsight): HostedCluster => {
  const s = hc.status;
  return {
    namespace: hc.metadata?.namespace ?? '',
    name: hc.metadata?.name ?? '',
    attention: 'NeedsAttention',
    assessment: s?.assessment,
    versions: s?.versions ?? { target: {} },
    completionPercent: s?.completionPercent ?? 0,
    startedAt: s?.startedAt,
    completedAt: s?.completedAt,
    estimatedCompletedAt: s?.estimatedCompletedAt,
    problems: s?.problems,
    conditions: s?.conditions,
    nodePoolCount: { total: s?.nodePools?.total ?? 0, updated: s?.nodePools?.updated ?? 0 },
    estimate: {},
    nodePools: [],
  };
};

// countNodePools counts the NodePools at the control plane's target from
// their insights when there are any, which are read with the cluster's and
// so agree with it; else it keeps the count the HostedCluster insight holds.
const countNodePools = (c: HostedCluster): NodePoolCount => {
  if (c.nodePools.length === 0) {
    return c.nodePoolCount;
  }
  const n: NodePoolCount = { total: c.nodePools.length, fromNodePools: true };
  const target = c.versions.target.version;
  if (!target) {
    return n;
  }
  return { ...n, updated: c.nodePools.filter((p) => p.versions?.current === target).length };
};

// estimate is the latest estimate of the parts still updating: the control
// plane until it completes, and each NodePool that has not. One without an
// estimate leaves the whole unknown, rather than falsely early.
const estimate = (c: HostedCluster): Estimate => {
  const parts: (string | undefined)[] = [];
  if (c.insightMissing || c.assessment !== 'Completed') {
    parts.push(c.estimatedCompletedAt);
  }
  for (const p of c.nodePools) {
    if (p.assessment !== 'Completed' && p.assessment !== 'Behind' && p.assessment !== 'Excluded') {
      parts.push(p.estimatedCompletedAt);
    }
  }
  let at: string | undefined;
  for (const part of parts) {
    if (!part) {
      return { unknown: true };
    }
    if (!at || new Date(part) > new Date(at)) {
      at = part;
    }
  }
  return at ? { at } : {};
};

// levelRank orders problem levels, the most serious first.
const levelRank: Record<InsightImpactLevel, number> = { Critical: 0, Error: 1, Warning: 2, Unknown: 3, Info: 4 };

const rank = (l: string): number => levelRank[l as InsightImpactLevel] ?? Object.keys(levelRank).length;

const serious = (p: HostedProblem) => rank(p.level) <= rank('Error');

// worstProblem is the control plane's first problem (its insight lists the
// most serious first), else the most serious first problem of a NodePool,
// the first NodePool by name among equals.
const worstProblem = (c: HostedCluster): Problem | undefined => {
  if (c.problems?.length) {
    return c.problems[0];
  }
  let worst: Problem | undefined;
  for (const p of c.nodePools) {
    const first = p.problems?.[0];
    if (first && (!worst || rank(first.level) < rank(worst.level))) {
      worst = { nodePool: p.name, ...first };
    }
  }
  return worst;
};

const attention = (c: HostedCluster): Attention => {
  switch (c.assessment) {
    case undefined:
    case 'Failing':
    case 'Blocked':
    case 'Stalled':
    case 'Unknown':
      return 'NeedsAttention';
  }
  if (c.insightMissing || c.problems?.some(serious)) {
    return 'NeedsAttention';
  }
  let progressing = c.assessment !== 'Completed';
  for (const p of c.nodePools) {
    if (p.assessment === 'Degraded' || p.problems?.some(serious)) {
      return 'NeedsAttention';
    }
    progressing = progressing || p.assessment === 'Progressing' || p.assessment === 'Pending';
  }
  return progressing ? 'Progressing' : 'Completed';
};

// buildFleet makes the fleet from the insights: a cluster per
// HostedClusterProgressInsight and per HostedCluster that NodePool insights
// name without one, ordered by attention, then namespace and name.
export const buildFleet = (clusters: HostedClusterProgressInsight[], pools: NodePoolProgressInsight[], now: Date): Fleet => {
  const byKey = new Map<string, HostedCluster>();
  const key = (namespace: string, name: string) => `${namespace}/${name}`;
  for (const hc of clusters) {
    const c = fromInsight(hc);
    byKey.set(key(c.namespace, c.name), c);
  }
  for (const np of pools) {
    const namespace = np.metadata?.namespace ?? '';
    const name = np.status?.hostedCluster ?? '';
    let c = byKey.get(key(namespace, name));
    if (!c) {
      c = { namespace, name, insightMissing: true, attention: 'NeedsAttention', versions: { target: {} }, completionPercent: 0, nodePoolCount: { total: 0 }, estimate: {}, nodePools: [] };
      byKey.set(key(namespace, name), c);
    }
    c.nodePools.push({ ...(np.status as NodePoolProgressInsightStatus), name: np.metadata?.name ?? '' });
  }
  const out = [...byKey.values()].map((c) => {
    c.nodePools.sort((a, b) => compare(a.name, b.name));
    c.nodePoolCount = countNodePools(c);
    c.estimate = estimate(c);
    c.problem = worstProblem(c);
    c.attention = attention(c);
    return c;
  });
  out.sort((a, b) => attentionRank[a.attention] - attentionRank[b.attention] || compare(a.namespace, b.namespace) || compare(a.name, b.name));
  return { now: rfc3339(now), clusters: out };
};

// findCluster is the cluster of that namespace and name in the fleet.
export const findCluster = (f: Fleet, namespace: string, name: string): HostedCluster | undefined =>
  f.clusters.find((c) => c.namespace === namespace && c.name === name);

// unknownWhy is the Updating condition's reason and message while the
// assessment is Unknown: the controller's word for what it could not read.
export const unknownWhy = (c: HostedCluster): string => {
  if (c.assessment !== 'Unknown') {
    return '';
  }
  const u = findCondition(c.conditions, 'Updating');
  return u?.message ? `${u.reason ?? ''}: ${u.message}` : '';
};
