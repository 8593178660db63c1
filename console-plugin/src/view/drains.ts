// The pods that hold the drains of a pool's nodes, as `status
// --details=nodes` lists them under the pool's nodes (pkg/statusview
// drains.go writeDrainsHeld): one row per health insight about a pod that
// holds a node's drain, read from its resources as the operator writes
// them (pkg/health/drain.go forDrain and DrainHeld: the node, the pod and
// its budgets).
import type { ResourceRef } from '../model/types';
import type { HealthView } from './health';

export type DrainHeld = {
  node: string;
  // pod is namespace/name.
  pod: string;
  // budgets are namespace/name, or "-" when none.
  budgets: string;
  since: string;
  level: string;
};

const is = (r: ResourceRef, group: string, resource: string) => (r.group ?? '') === group && r.resource === resource;

// drainHeld reads a health insight's resources as forDrain writes them;
// undefined for an insight about anything else.
export const drainHeld = (h: HealthView): DrainHeld | undefined => {
  let node = '';
  let pod = '';
  const budgets: string[] = [];
  for (const r of h.resourceRefs) {
    if (is(r, '', 'nodes')) {
      node = r.name;
    } else if (is(r, '', 'pods')) {
      pod = `${r.namespace ?? ''}/${r.name}`;
    } else if (is(r, 'policy', 'poddisruptionbudgets')) {
      budgets.push(`${r.namespace ?? ''}/${r.name}`);
    }
  }
  if (!node || !pod) {
    return undefined;
  }
  return { node, pod, budgets: budgets.length ? budgets.join(',') : '-', since: h.since, level: h.level };
};

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// drainsHeld are the drains held of the nodes named, by node and pod.
export const drainsHeld = (health: HealthView[], nodes: string[]): DrainHeld[] => {
  const names = new Set(nodes);
  return health
    .map(drainHeld)
    .filter((d): d is DrainHeld => !!d && names.has(d.node))
    .sort((a, b) => compare(a.node, b.node) || compare(a.pod, b.pod));
};
