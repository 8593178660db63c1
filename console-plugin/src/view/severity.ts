// How serious what the tab shows is, as PatternFly's status variants say it
// (Label status, Progress variant, Alert variant): danger for what stalls
// the update (a Degraded node or pool, a Stalled control plane, an Error or
// Critical health insight), warning for what slows it or needs a look (an
// Unavailable node, a Warning health insight), success once done, info for
// what is on its way. Pending, Outdated, Excluded and Unknown have none: they
// are neither good nor bad news.
import { isStalled } from './format';
import type { HealthView } from './health';
import type { NodeAssessment, PoolView } from './pools';
import type { StatusView } from './status';

export type Severity = 'danger' | 'warning' | 'success' | 'info';

// levelSeverity is a health insight level's.
export const levelSeverity = (level: string): Severity =>
  level === 'Critical' || level === 'Error' ? 'danger' : level === 'Warning' ? 'warning' : 'info';

const worst = (all: (Severity | undefined)[]): Severity | undefined =>
  (['danger', 'warning'] as Severity[]).find((s) => all.includes(s));

// nodeSeverity is a node's, by its assessment.
const nodeSeverities: Partial<Record<NodeAssessment, Severity>> = {
  Degraded: 'danger',
  Unavailable: 'warning',
  Progressing: 'info',
  Completed: 'success',
};

export const nodeSeverity = (a: NodeAssessment): Severity | undefined => nodeSeverities[a];

// poolSeverity is a pool's label: its assessment's, or the worst of its
// nodes' while it is still on its way.
export const poolSeverity = (p: PoolView): Severity | undefined => {
  switch (p.assessment) {
    case 'Degraded':
      return 'danger';
    case 'Completed':
      return 'success';
  }
  const nodes = worst(p.nodes.map((n) => nodeSeverity(n.assessment)));
  if (nodes) {
    return nodes;
  }
  return p.assessment === 'Progressing' ? 'info' : undefined;
};

// progressVariant is a progress bar's: PatternFly's Progress has danger,
// warning and success variants, and is blue without one.
export const progressVariant = (s: Severity | undefined): 'danger' | 'warning' | 'success' | undefined =>
  s === 'info' ? undefined : s;

// controlPlaneSeverity is the control plane's: danger when Stalled (or
// Degraded, as earlier versions wrote it), else the worst health insight
// about the control plane, else a warning while it is slow (past its
// estimate).
export const controlPlaneSeverity = (view: Pick<StatusView, 'controlPlane'>, health: HealthView[]): Severity | undefined => {
  const assessment = view.controlPlane.assessment;
  if (isStalled(assessment)) {
    return 'danger';
  }
  if (assessment === 'Completed') {
    return 'success';
  }
  return (
    worst(health.filter((h) => h.scope === 'ControlPlane').map((h) => levelSeverity(h.level))) ??
    (assessment === 'ProgressingSlow' ? 'warning' : undefined)
  );
};

// hostedSeverity is a hosted cluster's control plane's or a NodePool's, by
// its assessment: danger for an update that fails, stalls, is degraded or
// that HyperShift will not start (Blocked), success once completed; else
// its worst problem's, else info while it progresses. Unknown has none.
const hostedDanger = ['Failing', 'Stalled', 'Blocked', 'Degraded'];

export const hostedSeverity = (assessment: string | undefined, problems: { level: string }[] = []): Severity | undefined => {
  if (assessment && hostedDanger.includes(assessment)) {
    return 'danger';
  }
  if (assessment === 'Completed') {
    return 'success';
  }
  return worst(problems.map((p) => levelSeverity(p.level))) ?? (assessment === 'Progressing' ? 'info' : undefined);
};

// plural says n things: "1 node", "2 nodes".
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
