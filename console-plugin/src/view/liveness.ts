// Whether the operator that writes the insights runs, as its leader Lease
// tells, in the words `status` warns with (pkg/statusview/liveness.go): the
// insights are written only when they change, so their age says nothing of
// it; the Lease, which a running operator renews every few seconds, does.
import { between, Second } from './duration';
import { rfc3339, roughDuration } from './format';

// Lease is the fields of a coordination.k8s.io/v1 Lease the view reads.
export type Lease = {
  spec?: { holderIdentity?: string; renewTime?: string; leaseDurationSeconds?: number };
};

export const LeaseNamespace = 'openshift-update-insights';
export const LeaseName = 'update-insights-operator-lock';
const lease = `${LeaseNamespace}/${LeaseName}`;
const operator = 'update-insights';

// clockSkew is how far the page's clock may run ahead of the operator's
// before a Lease reads expired: library-go's 30 s (status's ClockSkew).
const clockSkew = 30 * Second;

// releasedGrace is how long a released Lease may stay untaken while a
// standby may yet take it (status's ReleasedGrace, 132 s).
const releasedGrace = 132 * Second;

// LeaseReading is what watching the Lease gave: the Lease, or that there is
// none (found false), or why it could not be read.
export type LeaseReading = { lease?: Lease; found: boolean; error?: string };

// livenessWarning is the warning status prints first when the operator is
// not known to run; undefined while it runs, or before the Lease is read.
export const livenessWarning = (r: LeaseReading | undefined, now: Date): string | undefined => {
  if (!r) {
    return undefined;
  }
  if (r.error) {
    return `Could not tell whether the ${operator} operator is running, so what follows may be stale: reading its leader Lease ${lease}: ${r.error}.`;
  }
  if (!r.found || !r.lease) {
    return `What follows may be stale: the ${operator} operator is not running, as it always holds its leader Lease ${lease} and there is none (it never ran in this cluster, or was removed).`;
  }
  const spec = r.lease.spec ?? {};
  if (!spec.renewTime || spec.leaseDurationSeconds === undefined) {
    return `Could not tell whether the ${operator} operator is running, so what follows may be stale: its leader Lease ${lease} has no renewTime or leaseDurationSeconds, which leader election always writes.`;
  }
  const renewed = new Date(spec.renewTime);
  const age = between(renewed, now);
  const ago = `${rfc3339(renewed)} (${roughDuration(age)} ago)`;
  if (!spec.holderIdentity) {
    // client-go releases a Lease by writing no holder and a renewTime of
    // the release (leaderelection.go release).
    return age <= releasedGrace + clockSkew
      ? undefined
      : `What follows may be stale since ${ago}: the ${operator} operator released its leader Lease ${lease} then, as it does when it stops, and no instance has taken it since, so none is running.`;
  }
  const duration = spec.leaseDurationSeconds * Second;
  return age <= duration + clockSkew
    ? undefined
    : `What follows may be stale since ${ago}: the ${operator} operator last renewed its leader Lease ${lease} then, and a running operator renews it within ${roughDuration(duration)}, so it is stopped or hung.`;
};
