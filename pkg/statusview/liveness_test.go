package statusview

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/leaderelection/resourcelock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

var livenessNow = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

const holder = "update-insights-operator-7d9f8b6c5-x2k4q_3f1e2d4c-5b6a-4789-9c0d-1e2f3a4b5c6d"

// leaseRenewed is the operator's Lease as client-go's leader election
// writes it (resourcelock.LeaderElectionRecordToLeaseSpec): held by holder
// for library-go's default 137s, last renewed ago before livenessNow.
func leaseRenewed(ago time.Duration) *coordinationv1.Lease {
	renewed := metav1.NewTime(livenessNow.Add(-ago))
	return &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Namespace: names.OwnNamespace, Name: names.OwnLease},
		Spec: resourcelock.LeaderElectionRecordToLeaseSpec(&resourcelock.LeaderElectionRecord{
			HolderIdentity: holder, LeaseDurationSeconds: 137, AcquireTime: metav1.NewTime(livenessNow.Add(-3 * time.Hour)), RenewTime: renewed, LeaderTransitions: 2,
		}),
	}
}

// leaseReleased is the Lease as client-go's leader election leaves it when
// the leader stops (leaderelection.go release): no holder, a duration of
// one second, renewed and acquired at the release.
func leaseReleased(ago time.Duration) *coordinationv1.Lease {
	released := metav1.NewTime(livenessNow.Add(-ago))
	return &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Namespace: names.OwnNamespace, Name: names.OwnLease},
		Spec: resourcelock.LeaderElectionRecordToLeaseSpec(&resourcelock.LeaderElectionRecord{
			LeaseDurationSeconds: 1, AcquireTime: released, RenewTime: released, LeaderTransitions: 2,
		}),
	}
}

func completedCluster() []*insightsv1alpha1.ClusterVersionProgressInsight {
	return []*insightsv1alpha1.ClusterVersionProgressInsight{{ObjectMeta: metav1.ObjectMeta{Name: "version"},
		Status: insightsv1alpha1.ClusterVersionProgressInsightStatus{Assessment: insightsv1alpha1.ClusterVersionAssessmentCompleted}}}
}

func TestLivenessComesFromTheOperatorsLease(t *testing.T) {
	const lease = "openshift-update-insights/update-insights-operator-lock"
	at := func(ago time.Duration) *metav1.Time {
		t := metav1.NewTime(livenessNow.Add(-ago))
		return &t
	}
	duration := func(d time.Duration) *metav1.Duration { return &metav1.Duration{Duration: d} }
	for _, tc := range []struct {
		name    string
		reading *LeaseReading
		want    *Liveness
	}{{
		name:    "renewed seconds ago: running",
		reading: &LeaseReading{Lease: leaseRenewed(20 * time.Second)},
		want:    &Liveness{State: OperatorRunning, Lease: lease, Holder: holder, RenewTime: at(20 * time.Second), LeaseDuration: duration(137 * time.Second)},
	}, {
		name:    "renewed longer ago than the lease allows, within the clock skew allowed: running",
		reading: &LeaseReading{Lease: leaseRenewed(137*time.Second + ClockSkew)},
		want:    &Liveness{State: OperatorRunning, Lease: lease, Holder: holder, RenewTime: at(137*time.Second + ClockSkew), LeaseDuration: duration(137 * time.Second)},
	}, {
		name:    "not renewed for the lease and the clock skew: stopped or hung",
		reading: &LeaseReading{Lease: leaseRenewed(137*time.Second + ClockSkew + time.Second)},
		want: &Liveness{State: OperatorNotRunning, Lease: lease, Holder: holder, RenewTime: at(168 * time.Second), LeaseDuration: duration(137 * time.Second), StaleSince: at(168 * time.Second),
			Message: "What follows may be stale since 2026-11-22T09:57:12Z (2m48s ago): the update-insights operator last renewed its leader Lease " + lease + " then, and a running operator renews it within 2m17s, so it is stopped or hung."},
	}, {
		name:    "released a minute ago, as at a rolling update: a standby may yet take it",
		reading: &LeaseReading{Lease: leaseReleased(time.Minute)},
		want:    &Liveness{State: OperatorRunning, Lease: lease, RenewTime: at(time.Minute), LeaseDuration: duration(time.Second)},
	}, {
		name:    "released and not taken: none runs",
		reading: &LeaseReading{Lease: leaseReleased(20 * time.Minute)},
		want: &Liveness{State: OperatorNotRunning, Lease: lease, RenewTime: at(20 * time.Minute), LeaseDuration: duration(time.Second), StaleSince: at(20 * time.Minute),
			Message: "What follows may be stale since 2026-11-22T09:40:00Z (20m ago): the update-insights operator released its leader Lease " + lease + " then, as it does when it stops, and no instance has taken it since, so none is running."},
	}, {
		name:    "no Lease: never ran, or removed",
		reading: &LeaseReading{},
		want: &Liveness{State: OperatorNoLease, Lease: lease,
			Message: "What follows may be stale: the update-insights operator is not running, as it always holds its leader Lease " + lease + " and there is none (it never ran in this cluster, or was removed)."},
	}, {
		name:    "not allowed to read the Lease: not known",
		reading: &LeaseReading{Err: `leases.coordination.k8s.io "update-insights-operator-lock" is forbidden: User "alice" cannot get resource "leases"`},
		want: &Liveness{State: OperatorUnknown, Lease: lease,
			Message: "Could not tell whether the update-insights operator is running, so what follows may be stale: reading its leader Lease " + lease +
				`: leases.coordination.k8s.io "update-insights-operator-lock" is forbidden: User "alice" cannot get resource "leases".`},
	}, {
		name:    "not read (insights from a file without it): nothing said",
		reading: nil,
		want:    nil,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Build(&Insights{ClusterVersions: completedCluster(), Lease: tc.reading}, livenessNow)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, s.Liveness); diff != "" {
				t.Errorf("liveness (-want +got):\n%s", diff)
			}
			var text bytes.Buffer
			if err := WriteText(&text, s, Details{}); err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(text.String(), "\n")
			wantFirst := "The cluster is not updating."
			if tc.want != nil && tc.want.Message != "" {
				wantFirst = "Warning: " + tc.want.Message
				if diff := cmp.Diff([]string{tc.want.Message}, s.Warnings); diff != "" {
					t.Errorf("warnings (-want +got):\n%s", diff)
				}
			}
			if first != wantFirst {
				t.Errorf("the text starts with %q, want %q:\n%s", first, wantFirst, text.String())
			}
		})
	}
}

// A stale Lease's warning comes before the ClusterOperator's, which the
// operator wrote while it ran.
func TestLivenessWarningComesFirst(t *testing.T) {
	in := &Insights{ClusterVersions: completedCluster(), Lease: &LeaseReading{Lease: leaseRenewed(time.Hour)}, Operator: ownOperator(configv1.OperatorDegraded, configv1.ConditionTrue, "NodeWriteRejected")}
	s, err := Build(in, livenessNow)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) != 2 || !strings.HasPrefix(s.Warnings[0], "What follows may be stale since 2026-11-22T09:00:00Z (1h ago)") {
		t.Errorf("warnings %q: want the Lease's first, then the ClusterOperator's", s.Warnings)
	}
}

// A file may hold the operator's Lease, as `oc get lease -o yaml` saves it,
// and no other.
func TestInsightsOfTakesTheOperatorsLeaseOnly(t *testing.T) {
	in, err := InsightsOf([]runtime.Object{completedCluster()[0], leaseRenewed(time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	if in.Lease == nil || in.Lease.Lease == nil {
		t.Fatalf("the Lease was not taken: %+v", in.Lease)
	}
	other := leaseRenewed(time.Minute)
	other.Name = "kube-controller-manager"
	if _, err := InsightsOf([]runtime.Object{other}); err == nil || !strings.Contains(err.Error(), "not the operator's own") {
		t.Errorf("another Lease: err %v, want it refused", err)
	}
}
