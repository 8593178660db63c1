// The pools and their nodes as the node tables of `status --details=nodes`
// show them, ported from pkg/statusview/nodes.go: each node's assessment,
// phase and estimate, the counts by state, and the order of pools and
// nodes.
import {
  findCondition,
  MachineConfigPoolProgressInsight,
  NodeProgressInsight,
  PoolImageBuild,
  ResourceRef,
} from '../model/types';
import { parseDuration } from './duration';
import { nodeEstimate, rfc3339, shortDuration, since } from './format';
import type { ProgressLine } from './informers';

export type NodeAssessment =
  | 'Degraded'
  | 'Unavailable'
  | 'Progressing'
  | 'Outdated'
  | 'Excluded'
  | 'Completed'
  | 'Unknown';

export type NodeView = {
  name: string;
  assessment: NodeAssessment;
  // Draining, Updating, Rebooting, Paused, Pending, Updated or Unknown.
  phase: string;
  version?: string;
  // estimate is the EST column: +10m, - or ?.
  estimate: string;
  message?: string;
  // wholeMessage is the message whole where the insight's message, held
  // to 100 characters on one line, cuts it: the Degraded condition's
  // message (the machine-config daemon's reason, which oc prints whole),
  // or the Available one's while the node is not updating, as the
  // operator chooses the message (pkg/assessment/nodes/node.go message).
  wholeMessage?: string;
  available: boolean;
};

export type NodeCounts = {
  total: number;
  available: number;
  progressing: number;
  outdated: number;
  draining: number;
  excluded: number;
  degraded: number;
};

// PoolKind is what a pool is: the status command's MachineConfigPool, or
// on a cluster whose control plane is hosted a HyperShift NodePool, which
// the pool insight's status.resource names (pkg/hosted/nodepool.go).
export type PoolKind = 'MachineConfigPool' | 'NodePool';

export type PoolView = {
  name: string;
  kind: PoolKind;
  assessment?: string;
  completionPercent: number;
  // completion is the COMPLETION column: 50% (1/2).
  completion: string;
  // status is the STATUS column: 1 Available, 1 Progressing, 0 Draining.
  status: string;
  summary: NodeCounts;
  nodes: NodeView[];
  // phases count the nodes by phase, in the order a node goes through them.
  phases: { phase: string; count: number }[];
  informers: ProgressLine[];
  // configurationRollout says the nodes are all at the target version and
  // roll out a new configuration of it: no update.
  configurationRollout?: string;
  // behind says how far a NodePool assessed Behind runs behind the hosted
  // control plane, none of its nodes updating: NodePools are updated apart
  // from the control plane, so this is no update in progress
  // (pkg/statusview/nodes.go, Pool.Behind).
  behind?: string;
  // imageBuild is the OS image build of an image-mode pool, as its
  // insight says; absent for any other pool (pkg/statusview/status.go,
  // Pool.ImageBuild).
  imageBuild?: PoolImageBuild;
};

// phases are how the reference words a node's Updating reason. A reason not
// here, CannotDetermine included, reads Unknown.
const phases: Record<string, string> = {
  Draining: 'Draining',
  Updating: 'Updating',
  Rebooting: 'Rebooting',
  Paused: 'Paused',
  Pending: 'Pending',
  Completed: 'Updated',
};

const phaseOrder = ['Pending', 'Draining', 'Updating', 'Rebooting', 'Updated', 'Paused', 'Unknown'];

const nodeRank: Record<NodeAssessment, number> = {
  Degraded: 0,
  Unavailable: 1,
  Progressing: 2,
  Unknown: 3,
  Outdated: 4,
  Excluded: 5,
  Completed: 6,
};

// nodeOf returns a node insight as the node tables show it.
export const nodeOf = (s: NonNullable<NodeProgressInsight['status']>): NodeView => {
  const updating = findCondition(s.conditions, 'Updating');
  const phase = (updating?.reason && phases[updating.reason]) || 'Unknown';
  const available = findCondition(s.conditions, 'Available')?.status !== 'False';
  let assessment: NodeAssessment;
  if (findCondition(s.conditions, 'Degraded')?.status === 'True') {
    assessment = 'Degraded';
  } else if (!available && updating?.status !== 'True') {
    // An updating node is expected to be unavailable for a while.
    assessment = 'Unavailable';
  } else if (!updating) {
    assessment = 'Unknown';
  } else if (updating.reason === 'Paused') {
    assessment = 'Excluded';
  } else if (updating.status === 'True') {
    assessment = 'Progressing';
  } else if (updating.reason === 'Completed') {
    assessment = 'Completed';
  } else {
    assessment = 'Outdated';
  }
  const degraded = findCondition(s.conditions, 'Degraded');
  const unavailable = findCondition(s.conditions, 'Available');
  const source =
    degraded?.status === 'True' ? degraded : !available && updating?.status !== 'True' ? unavailable : undefined;
  const message = s.message || undefined;
  return {
    name: s.name,
    assessment,
    phase,
    version: s.version || undefined,
    estimate: nodeEstimate(s.estimatedToComplete, phase, assessment),
    message,
    wholeMessage: cut(message, source?.message) ? source?.message : undefined,
    available,
  };
};

// cut says whether message is a cut of whole: the operator ends a cut
// message with an ellipsis (pkg/text OneLine).
const cut = (message: string | undefined, whole: string | undefined): boolean =>
  !!message && !!whole && message.endsWith('…');

const isProgressing = (n: NodeView) => ['Draining', 'Updating', 'Rebooting'].includes(n.phase);

// countNodes counts nodes the way the reference counts them.
export const countNodes = (nodes: NodeView[]): NodeCounts => {
  const c: NodeCounts = {
    total: 0,
    available: 0,
    progressing: 0,
    outdated: 0,
    draining: 0,
    excluded: 0,
    degraded: 0,
  };
  for (const n of nodes) {
    c.total++;
    c.available += n.available ? 1 : 0;
    c.progressing += isProgressing(n) ? 1 : 0;
    c.outdated += n.phase !== 'Updated' ? 1 : 0;
    c.draining += n.phase === 'Draining' ? 1 : 0;
    c.excluded += n.phase === 'Paused' ? 1 : 0;
    c.degraded += n.assessment === 'Degraded' ? 1 : 0;
  }
  return c;
};

const summaryKeys: Record<string, keyof NodeCounts> = {
  Total: 'total',
  Available: 'available',
  Progressing: 'progressing',
  Outdated: 'outdated',
  Draining: 'draining',
  Excluded: 'excluded',
  Degraded: 'degraded',
};

const summaryOf = (
  summaries: NonNullable<MachineConfigPoolProgressInsight['status']>['summaries'],
): NodeCounts => {
  const c = countNodes([]);
  for (const s of summaries ?? []) {
    const key = summaryKeys[s.type];
    if (key) {
      c[key] = s.count;
    }
  }
  return c;
};

// poolStatus is the STATUS column of the worker pools' table.
export const poolStatus = (c: NodeCounts): string => {
  let s = `${c.available} Available, ${c.progressing} Progressing, ${c.draining} Draining`;
  if (c.excluded > 0) {
    s += `, ${c.excluded} Excluded`;
  }
  if (c.degraded > 0) {
    s += `, ${c.degraded} Degraded`;
  }
  return s;
};

// comparePools puts the default worker pool first, then the others by
// name, as the status command orders them.
export const comparePools = (a: string, b: string): number => {
  if ((a === 'worker') !== (b === 'worker')) {
    return a === 'worker' ? -1 : 1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
};

const compareNodes = (a: NodeView, b: NodeView): number =>
  nodeRank[a.assessment] - nodeRank[b.assessment] ||
  (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export const isNodePool = (r: ResourceRef | undefined): boolean =>
  r?.group === 'hypershift.openshift.io' && r?.resource === 'nodepools';

const phaseCounts = (nodes: NodeView[]) =>
  phaseOrder
    .map((phase) => ({ phase, count: nodes.filter((n) => n.phase === phase).length }))
    .filter((p) => p.count > 0);

type Building = {
  name: string;
  kind: PoolKind;
  assessment?: string;
  completionPercent: number;
  // scope is the pool insight's scopeType, or without one its first
  // node's; scopeKnown says whether either was read.
  scope?: string;
  scopeKnown?: boolean;
  summary?: NodeCounts;
  nodes: NodeView[];
  configurationRollout?: string;
  behind?: string;
  imageBuild?: PoolImageBuild;
};

// pools returns the control plane's pool and the other pools that have
// nodes. A pool known only from its nodes' insights is shown too, with
// counts taken from the nodes.
export const pools = (
  mcps: MachineConfigPoolProgressInsight[],
  npis: NodeProgressInsight[],
  progress: Record<string, ProgressLine[]>,
): { controlPlane?: PoolView; workers: PoolView[] } => {
  const byName = new Map<string, Building>();
  const pool = (name: string): Building => {
    let p = byName.get(name);
    if (!p) {
      p = { name, kind: 'MachineConfigPool', completionPercent: 0, nodes: [] };
      byName.set(name, p);
    }
    return p;
  };
  for (const mcp of mcps) {
    const s = mcp.status;
    if (!s) {
      continue;
    }
    const p = pool(s.name || mcp.metadata?.name || '');
    p.assessment = s.assessment;
    p.completionPercent = s.completionPercent ?? 0;
    p.scope = s.scopeType;
    p.scopeKnown = true;
    if (isNodePool(s.resource)) {
      p.kind = 'NodePool';
    }
    const updating = findCondition(s.conditions, 'Updating');
    if (updating?.status === 'False' && updating.reason === 'RollingOutConfiguration') {
      p.configurationRollout = updating.message;
    }
    if (s.assessment === 'Behind') {
      p.behind = updating?.message || 'none of its nodes is updating';
    }
    p.imageBuild = s.imageBuild;
    if (s.summaries?.length) {
      p.summary = summaryOf(s.summaries);
    }
  }
  for (const npi of npis) {
    const s = npi.status;
    if (!s) {
      continue;
    }
    const p = pool(s.poolResource?.name ?? '');
    p.nodes.push(nodeOf(s));
    if (!p.scopeKnown) {
      p.scope = s.scopeType;
      p.scopeKnown = true;
    }
    if (isNodePool(s.poolResource)) {
      p.kind = 'NodePool';
    }
  }
  let controlPlane: PoolView | undefined;
  const workers: PoolView[] = [];
  for (const name of [...byName.keys()].sort(comparePools)) {
    const b = byName.get(name)!;
    b.nodes.sort(compareNodes);
    const summary = b.summary ?? countNodes(b.nodes);
    const view: PoolView = {
      name,
      kind: b.kind,
      assessment: b.assessment,
      completionPercent: b.completionPercent,
      completion: `${b.completionPercent}% (${summary.total - summary.outdated}/${summary.total})`,
      status: poolStatus(summary),
      summary,
      nodes: b.nodes,
      phases: phaseCounts(b.nodes),
      informers: progress[name] ?? [],
      configurationRollout: b.configurationRollout,
      behind: b.behind,
      imageBuild: b.imageBuild,
    };
    if (b.scope === 'ControlPlane' && !controlPlane) {
      controlPlane = view;
    } else if (summary.total > 0 || b.nodes.length > 0) {
      workers.push(view);
    } else if (b.summary) {
      // A pool whose insight counts no node is Empty, as status lists it
      // after oc (pkg/statusview/nodes.go pools).
      workers.push({ ...view, assessment: 'Empty', completion: '', status: `${summary.total} Total` });
    }
  }
  return { controlPlane, workers };
};

// completed says whether the pool has nothing left to update: as its
// insight says, or, without one, when every node is updated. A NodePool
// Behind the control plane has no update the cluster can see.
export const poolCompleted = (p: PoolView): boolean =>
  p.assessment
    ? p.assessment === 'Completed' || p.assessment === 'Behind' || p.assessment === 'Empty'
    : countNodes(p.nodes).outdated === 0;

// behindLine says that a NodePool runs behind the control plane, in the
// words status prints (pkg/statusview/nodes.go, behindLine).
export const behindLine = (p: PoolView): string =>
  `${p.kind} ${p.name} is behind the control plane: ${(p.behind ?? '').replace(/\n$/, '')}`;

// imageBuildLine says where an image-mode pool's OS image build stands
// while the pool has nodes to update, in the words status prints after the
// worker pools' table and under the "Control Plane Nodes" heading
// (pkg/statusview/nodes.go, imageBuildLine): none for a pool without a
// build or one completed. Its nodes take the update only once the image is
// built, so a pool that waits on its build is not left to read as Pending
// with no reason.
export const imageBuildLine = (p: PoolView, now: Date): string | undefined => {
  const ib = p.imageBuild;
  // A built image is news only while the nodes take it: before the update
  // reaches the pool, it is the image its nodes run.
  if (!ib || poolCompleted(p) || (ib.state === 'Succeeded' && p.assessment !== 'Progressing')) {
    return undefined;
  }
  const when: string[] = [];
  if (ib.since) {
    // How long ago as status's SINCE columns say it: truncated to the
    // second, "now" for a since not before now.
    when.push(`since ${rfc3339(ib.since)} (${since(ib.since, now)})`);
  }
  if (ib.estimatedToComplete) {
    when.push(`about ${shortDuration(parseDuration(ib.estimatedToComplete))} left by its past builds`);
  }
  let head = `${p.kind} ${p.name}: OS image build ${ib.state ?? ''}`;
  if (when.length > 0) {
    head += ` ${when.join(', ')}`;
  }
  return ib.message ? `${head}: ${ib.message.replace(/\n$/, '')}` : head;
};
