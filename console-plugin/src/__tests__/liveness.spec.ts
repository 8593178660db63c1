import { Lease, livenessWarning } from '../view/liveness';

// The operator's leader Lease as library-go's leader election writes it
// (client-go tools/leaderelection: holderIdentity, renewTime,
// leaseDurationSeconds; a release writes no holder), judged as
// pkg/statusview/liveness_test.go judges it.
const lease = (holder: string | undefined, renewTime: string, leaseDurationSeconds = 137): Lease => ({
  spec: { holderIdentity: holder, renewTime, leaseDurationSeconds },
});

const now = new Date('2024-02-27T16:00:00Z');

describe("whether the operator runs, from its leader Lease", () => {
  test.each([
    ['not read yet: nothing said', undefined, undefined],
    ['renewed within its duration: running', { found: true, lease: lease('pod-a', '2024-02-27T15:58:00Z') }, undefined],
    ['renewed within its duration and the clock skew: running', { found: true, lease: lease('pod-a', '2024-02-27T15:57:40Z') }, undefined],
    [
      'not renewed for longer: stopped or hung',
      { found: true, lease: lease('pod-a', '2024-02-27T15:50:00Z') },
      'What follows may be stale since 2024-02-27T15:50:00Z (10m ago): the update-insights operator last renewed its leader Lease openshift-update-insights/update-insights-operator-lock then, and a running operator renews it within 2m17s, so it is stopped or hung.',
    ],
    ['released a minute ago: a standby may yet take it', { found: true, lease: lease(undefined, '2024-02-27T15:59:00Z', 1) }, undefined],
    [
      'released and untaken: none runs',
      { found: true, lease: lease(undefined, '2024-02-27T15:50:00Z', 1) },
      'What follows may be stale since 2024-02-27T15:50:00Z (10m ago): the update-insights operator released its leader Lease openshift-update-insights/update-insights-operator-lock then, as it does when it stops, and no instance has taken it since, so none is running.',
    ],
    [
      'no Lease: it never ran, or was removed',
      { found: false },
      'What follows may be stale: the update-insights operator is not running, as it always holds its leader Lease openshift-update-insights/update-insights-operator-lock and there is none (it never ran in this cluster, or was removed).',
    ],
    [
      'a user who may not read it is told so',
      { found: false, error: 'leases.coordination.k8s.io "update-insights-operator-lock" is forbidden' },
      'Could not tell whether the update-insights operator is running, so what follows may be stale: reading its leader Lease openshift-update-insights/update-insights-operator-lock: leases.coordination.k8s.io "update-insights-operator-lock" is forbidden.',
    ],
  ])('%s', (_, reading, want) => {
    expect(livenessWarning(reading, now)).toBe(want);
  });
});
