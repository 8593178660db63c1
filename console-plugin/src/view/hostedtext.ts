// The hosted clusters in the words `status --hosted-clusters` and
// `status --hosted-cluster NAMESPACE/NAME` print them: ported from
// pkg/hostedview/text.go. The fleet's rows hold the command's cells, and a
// cluster's sections its lines, each a term and its value, so that the
// unit tests hold them to the command's goldens
// (test/testdata/golden/hosted) and the browser test to the command.
import type { HostedProblem } from '../model/types';
import { between } from './duration';
import { estimatedFinish, orUnknown, rfc3339, unknown } from './format';
import { Attention, Estimate, Fleet, HostedCluster, NodePool, NodePoolCount, unknownWhy } from './hosted';
import { hostedSeverity, Severity } from './severity';
import { approx, fields, minutes, oneLineCharacters } from './text';

// maxProblemCell is how many characters of a problem the fleet's table
// shows: a whole message would push every row off the screen.
const maxProblemCell = 80;

// FleetRow is a line of `status --hosted-clusters`: its cells, and the whole
// problem its PROBLEM cell cuts.
export type FleetRow = {
  namespace: string;
  name: string;
  attention: Attention;
  fromTo: string;
  controlPlane: string;
  nodePools: string;
  eta: string;
  problem: string;
  wholeProblem?: string;
  severity?: Severity;
};

// Item is a line of a section, "Term:  value", and the lines that continue
// its value beneath it.
export type Item = { term: string; lines: string[] };

// ProblemRow is a row of a section's Problems table; a message's further
// lines continue on rows of their own.
export type ProblemRow = { since: string; level: string; reason: string; lines: string[] };

// Section is the control plane or a NodePool as --hosted-cluster prints it
// (completed, items and problems), with what the page shows beside it: a
// bar of the completion where the command prints one, when the update
// started and its estimated finish.
export type Section = {
  kind: 'Control Plane' | 'NodePool';
  // title is NAMESPACE/NAME, as the section's heading names it.
  title: string;
  assessment?: string;
  severity?: Severity;
  completed?: string;
  items: Item[];
  problems: ProblemRow[];
  percent?: number;
  startedAt?: string;
  estimatedFinish?: string;
};

const item = (term: string, value: string, ...more: string[]): Item => ({ term, lines: [value, ...more] });

// eta is how long until at: "~20m"; "-" without an estimate, and how long
// ago for an estimate that passed, so that a late update is not shown as
// finishing now.
const eta = (at: string | undefined, now: Date): string => {
  if (!at) {
    return '-';
  }
  const left = between(now, new Date(at));
  return left < 0 ? `overdue ${approx(-left)}` : approx(left);
};

// duration is how long an update has run, with the time its estimate
// leaves, as status words it.
const duration = (started: string | undefined, estimated: string | undefined, now: Date): string => {
  const d = started ? minutes(between(new Date(started), now)) : unknown;
  return estimated ? `${d} (Est. Time Remaining: ${eta(estimated, now)})` : d;
};

// ago is how long ago t was, to the minute; "-" when unknown.
const ago = (t: string | undefined, now: Date): string => (t ? minutes(between(new Date(t), now)) : '-');

// under says the control plane's update is under way, so that its
// completion and duration measure it: a completed one is at 100%, and a
// Blocked or Unknown one has not begun.
const under = (c: HostedCluster): boolean =>
  !c.insightMissing && (c.assessment === 'Progressing' || c.assessment === 'Stalled' || c.assessment === 'Failing');

const fromTo = (c: HostedCluster): string => {
  if (c.insightMissing) {
    return unknown;
  }
  const to = orUnknown(c.versions.target.version);
  return c.versions.previous ? `${orUnknown(c.versions.previous.version)} -> ${to}` : to;
};

const targetVersion = (c: HostedCluster): string => {
  const t = orUnknown(c.versions.target.version);
  return c.versions.previous ? `${t} (from ${orUnknown(c.versions.previous.version)})` : t;
};

const controlPlaneCell = (c: HostedCluster): string => {
  if (c.insightMissing) {
    return unknown;
  }
  return under(c) ? `${c.assessment} ${c.completionPercent}%` : orUnknown(c.assessment);
};

const nodePoolsCell = (n: NodePoolCount): string => `${n.updated ?? unknown} of ${n.total}`;

const estimateCell = (e: Estimate, now: Date): string => (e.unknown ? unknown : eta(e.at, now));

// problemText is the whole of what the PROBLEM cell says: the worst
// problem, named by its NodePool's; or why nothing is known.
const problemText = (c: HostedCluster): string => {
  if (!c.problem) {
    return c.insightMissing ? 'No HostedClusterProgressInsight' : unknownWhy(c) || '-';
  }
  return c.problem.nodePool ? `${c.problem.nodePool}: ${c.problem.message}` : c.problem.message;
};

// fleetRows are the lines of `status --hosted-clusters`, in its order.
export const fleetRows = (f: Fleet, now: Date): FleetRow[] =>
  f.clusters.map((c) => {
    const whole = problemText(c);
    const problem = oneLineCharacters(whole, maxProblemCell);
    return {
      namespace: c.namespace,
      name: c.name,
      attention: c.attention,
      fromTo: fields(fromTo(c)),
      controlPlane: controlPlaneCell(c),
      nodePools: nodePoolsCell(c.nodePoolCount),
      eta: estimateCell(c.estimate, now),
      problem,
      wholeProblem: problem === whole ? undefined : whole,
      severity: c.insightMissing ? undefined : hostedSeverity(c.assessment, c.problems),
    };
  });

const problemRows = (problems: HostedProblem[] | undefined, now: Date): ProblemRow[] =>
  (problems ?? []).map((p) => ({
    since: ago(p.since, now),
    level: p.level,
    reason: fields(p.reason),
    lines: p.message.split('\n').map(fields),
  }));

const controlPlane = (c: HostedCluster, now: Date): Section => {
  const title = `${c.namespace}/${c.name}`;
  const count = item('NodePools', `${nodePoolsCell(c.nodePoolCount)} updated`);
  if (c.insightMissing) {
    const why = `no HostedClusterProgressInsight ${title} was read: the operator has not reported on this HostedCluster, only on its NodePools`;
    return { kind: 'Control Plane', title, items: [item('Assessment', `${unknown} (${why})`), count], problems: [] };
  }
  const section: Section = {
    kind: 'Control Plane',
    title,
    assessment: c.assessment,
    severity: hostedSeverity(c.assessment, c.problems),
    items: [],
    problems: problemRows(c.problems, now),
  };
  if (c.assessment === 'Completed') {
    const completedAt = c.completedAt ? rfc3339(c.completedAt) : unknown;
    const took = c.completedAt && c.startedAt ? minutes(between(new Date(c.startedAt), new Date(c.completedAt))) : unknown;
    return { ...section, completed: `Update to ${orUnknown(c.versions.target.version)} successfully completed at ${completedAt} (duration: ${took})`, items: [count] };
  }
  const why = unknownWhy(c);
  section.items.push(item('Assessment', why ? `${orUnknown(c.assessment)} (${why})` : orUnknown(c.assessment)), item('Target Version', targetVersion(c)));
  // A Blocked or Unknown update has not begun what completion and
  // duration would measure.
  if (under(c)) {
    section.items.push(item('Completion', `${c.completionPercent}%`), item('Duration', duration(c.startedAt, c.estimatedCompletedAt, now)));
    section.percent = c.completionPercent;
    section.startedAt = c.startedAt;
    section.estimatedFinish = estimatedFinish(c.estimatedCompletedAt, now);
  }
  section.items.push(count);
  return section;
};

// skew words minorsBehind against what HyperShift supports: up to three
// minor releases behind the control plane.
export const skew = (behind: number): string => {
  if (behind === 0) {
    return "at the control plane's minor version";
  }
  if (behind === 1) {
    return '1 minor version behind the control plane';
  }
  if (behind === -1) {
    return '1 minor version ahead of the control plane, which HyperShift does not support';
  }
  if (behind < 0) {
    return `${-behind} minor versions ahead of the control plane, which HyperShift does not support`;
  }
  if (behind > 3) {
    return `${behind} minor versions behind the control plane, more than the 3 HyperShift supports`;
  }
  return `${behind} minor versions behind the control plane`;
};

const poolTarget = (p: NodePool): string => {
  const target = orUnknown(p.versions?.target);
  const current = p.versions?.current;
  if (current && current !== p.versions?.target) {
    return `${target} (from ${current})`;
  }
  // Rolling out with the release unchanged: a new configuration.
  return current && p.startedAt && p.assessment !== 'Completed' ? `${target} (a new configuration)` : target;
};

const machines = (p: NodePool): string => {
  const m = `${p.machines?.updated ?? 0} of ${p.machines?.desired ?? 0} updated`;
  return p.machines?.source ? `${m} (${p.machines.source})` : m;
};

// heldBy names the machine that holds the rollout and Cluster API's words
// for why, each further line of its message (a drain's lists a pod or
// budget a line) under the first.
const heldBy = (h: NonNullable<NodePool['holdingMachine']>, now: Date): Item => {
  const machine = h.node ? `Machine ${h.name} (node ${h.node})` : `Machine ${h.name}`;
  const since = h.since ? ` since ${ago(h.since, now)} ago` : '';
  const message = h.message ? h.message.replace(/\n+$/, '').split('\n') : [];
  return item('Held By', `${machine}: ${h.reason}${since}`, ...message);
};

const nodePool = (p: NodePool, c: HostedCluster, now: Date): Section => {
  const items = [
    item('Upgrade Type', orUnknown(p.upgradeType)),
    item('Assessment', orUnknown(p.assessment)),
    item('Target Version', poolTarget(p)),
    item('Completion', `${p.completionPercent}%`),
    item('Machines', machines(p)),
  ];
  if (p.holdingMachine) {
    items.push(heldBy(p.holdingMachine, now));
  }
  if (p.minorsBehind !== undefined) {
    items.push(item('Skew', skew(p.minorsBehind)));
  }
  const rolling = p.assessment !== 'Completed';
  if (rolling) {
    items.push(item('Duration', duration(p.startedAt, p.estimatedCompletedAt, now)));
  }
  return {
    kind: 'NodePool',
    title: `${c.namespace}/${p.name}`,
    assessment: p.assessment,
    severity: hostedSeverity(p.assessment, p.problems),
    items,
    problems: problemRows(p.problems, now),
    percent: p.completionPercent,
    startedAt: rolling ? p.startedAt : undefined,
    estimatedFinish: rolling ? estimatedFinish(p.estimatedCompletedAt, now) : undefined,
  };
};

// clusterSections are what `status --hosted-cluster` prints of c: its
// control plane, then a section per NodePool, by name.
export const clusterSections = (c: HostedCluster, now: Date): Section[] => [controlPlane(c, now), ...c.nodePools.map((p) => nodePool(p, c, now))];
