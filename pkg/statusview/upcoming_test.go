package statusview

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// managedHealthCheck is a managed cluster whose Managed Upgrade Operator
// started the update at its window and is held at its pre-update health
// check, with the managed-upgrade informer's insights as pkg/managedupgrade
// makes them, at 2026-11-22T10:00:00Z.
const managedHealthCheck = "../../test/testdata/docs/managed-health-check.yaml"

var managedNow = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// An update an informer holds is said in the header, with the release (in
// the informer's words) and the informer, not "The cluster is not
// updating."
func TestUpcomingUpdateIsTheHeader(t *testing.T) {
	in, err := ReadInsights(managedHealthCheck)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Build(in, managedNow)
	if err != nil {
		t.Fatal(err)
	}
	want := &Upcoming{State: UpcomingStarting, Informer: "managed-upgrade",
		Summary: "Managed update to 4.16.5: ClusterHealthyBeforeUpgrade (step 4 of 17), running for 30m"}
	if diff := cmp.Diff(want, s.Upcoming); diff != "" {
		t.Errorf("upcoming (-want +got):\n%s", diff)
	}
	var text bytes.Buffer
	if err := WriteText(&text, s, Details{}); err != nil {
		t.Fatal(err)
	}
	wantText := "An update is starting, as managed-upgrade reports: Managed update to 4.16.5: ClusterHealthyBeforeUpgrade (step 4 of 17), running for 30m. The control plane has not begun to update.\n" +
		"\n" +
		"= Update Health =\n" +
		"SINCE    LEVEL     IMPACT           MESSAGE\n" +
		"29m48s   Warning   Update Stalled   Managed update step ClusterHealthyBeforeUpgrade: critical alert(s) firing: KubePersistentVolumeErrors (managed-upgrade)\n" +
		"\n" +
		"Run with --details=health for additional description and links to related online documentation\n"
	if diff := cmp.Diff(wantText, text.String()); diff != "" {
		t.Errorf("text (-want +got):\n%s", diff)
	}
}

func TestUpcoming(t *testing.T) {
	at := func(d time.Duration) *metav1.Time { return &metav1.Time{Time: managedNow.Add(d)} }
	awaiting := func(summary string, finish *metav1.Time) Progress {
		return Progress{Informer: "managed-upgrade", UID: "u", Summary: summary, EstimatedFinish: finish, AwaitingWindow: true}
	}
	for _, tc := range []struct {
		name      string
		progress  []Progress
		want      *Upcoming
		wantFirst string
	}{{
		name:     "a window ahead: scheduled",
		progress: []Progress{awaiting("Managed update to 4.16.5 scheduled for 2026-11-22T14:00:00Z, in 4h", at(4*time.Hour))},
		want: &Upcoming{State: UpcomingScheduled, Informer: "managed-upgrade", Summary: "Managed update to 4.16.5 scheduled for 2026-11-22T14:00:00Z, in 4h",
			WindowOpensAt: at(4 * time.Hour)},
		wantFirst: "An update is scheduled, as managed-upgrade reports: Managed update to 4.16.5 scheduled for 2026-11-22T14:00:00Z, in 4h (window opens at 2026-11-22T14:00:00Z).",
	}, {
		name:      "a window passed: starting",
		progress:  []Progress{awaiting("Release 4.16.5 held", at(-time.Minute))},
		want:      &Upcoming{State: UpcomingStarting, Informer: "managed-upgrade", Summary: "Release 4.16.5 held"},
		wantFirst: "An update is starting, as managed-upgrade reports: Release 4.16.5 held. The control plane has not begun to update.",
	}, {
		name: "from a stale answer: said so",
		progress: []Progress{{Informer: "managed-upgrade", Summary: "Managed update to 4.16.5 scheduled for 2026-11-22T14:00:00Z, in 4h",
			EstimatedFinish: at(4 * time.Hour), AwaitingWindow: true, Stale: true}},
		want: &Upcoming{State: UpcomingScheduled, Informer: "managed-upgrade", Summary: "Managed update to 4.16.5 scheduled for 2026-11-22T14:00:00Z, in 4h",
			WindowOpensAt: at(4 * time.Hour), Stale: true},
		wantFirst: "An update is scheduled, as managed-upgrade reports: Managed update to 4.16.5 scheduled for 2026-11-22T14:00:00Z, in 4h (window opens at 2026-11-22T14:00:00Z, stale: the informer's last call failed).",
	}, {
		// The managed-upgrade informer's insight of an update due, which
		// the Managed Upgrade Operator starts at its next reconcile.
		name:      "an update due: starting",
		progress:  []Progress{{Informer: "managed-upgrade", Summary: "Managed update to 4.16.5 is due since 2026-11-22T09:58:00Z", AwaitingWindow: true}},
		want:      &Upcoming{State: UpcomingStarting, Informer: "managed-upgrade", Summary: "Managed update to 4.16.5 is due since 2026-11-22T09:58:00Z"},
		wantFirst: "An update is starting, as managed-upgrade reports: Managed update to 4.16.5 is due since 2026-11-22T09:58:00Z. The control plane has not begun to update.",
	}, {
		name:      "progress that holds nothing: not updating",
		progress:  []Progress{{Informer: "an-informer", Summary: "The mirror registry holds the images of 4.16.5"}},
		wantFirst: "The cluster is not updating.",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			cv := completedCluster()
			s, err := Build(&Insights{ClusterVersions: cv, UpdateStatus: updateStatusWith(tc.progress)}, managedNow)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, s.Upcoming); diff != "" {
				t.Errorf("upcoming (-want +got):\n%s", diff)
			}
			var text bytes.Buffer
			if err := WriteText(&text, s, Details{}); err != nil {
				t.Fatal(err)
			}
			if first, _, _ := strings.Cut(text.String(), "\n"); first != tc.wantFirst {
				t.Errorf("first line %q, want %q", first, tc.wantFirst)
			}
		})
	}
	t.Run("while updating: none", func(t *testing.T) {
		s, err := Build(&Insights{ClusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{updating()},
			UpdateStatus: updateStatusWith([]Progress{{Informer: "managed-upgrade", Summary: "held", AwaitingWindow: true}})}, managedNow)
		if err != nil {
			t.Fatal(err)
		}
		if s.Upcoming != nil {
			t.Errorf("upcoming %+v while the control plane updates", s.Upcoming)
		}
	})
}

// updateStatusWith is an UpdateStatus holding progress as the informers'
// status-level insights on the control plane.
func updateStatusWith(progress []Progress) *insightsv1alpha1.UpdateStatus {
	u := &insightsv1alpha1.UpdateStatus{ObjectMeta: metav1.ObjectMeta{Name: insightsv1alpha1.UpdateStatusName}}
	for _, p := range progress {
		i := insightsv1alpha1.UpdateInsight{UID: "u", Scope: insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane},
			Impact:      insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.StatusInsightLevel, Summary: p.Summary},
			Remediation: insightsv1alpha1.UpdateInsightRemediation{EstimatedFinish: p.EstimatedFinish}}
		if p.AwaitingWindow {
			i.Impact.Type = insightsv1alpha1.AwaitingWindowImpactType
		}
		u.Status.ControlPlane.Informers = append(u.Status.ControlPlane.Informers,
			insightsv1alpha1.InformerInsights{Name: p.Informer, Stale: p.Stale, Insights: []insightsv1alpha1.UpdateInsight{i}})
	}
	return u
}
