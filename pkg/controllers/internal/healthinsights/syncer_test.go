package healthinsights

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
	"github.com/update-insights/update-insights-operator/pkg/health"
)

var now = time.Date(2024, 8, 2, 9, 0, 0, 0, time.UTC)

func owner(name string) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: "openshift.muller.dev/v1alpha1", Kind: "ClusterVersionProgressInsight", Name: name, UID: "uid-" + "name"}
}

func existing(name, manager string, ownerName string, status insightsv1alpha1.UpdateHealthInsightStatus) *insightsv1alpha1.UpdateHealthInsight {
	return &insightsv1alpha1.UpdateHealthInsight{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{ManagerLabel: manager}, OwnerReferences: []metav1.OwnerReference{owner(ownerName)}},
		Status:     status,
	}
}

func status(summary string, startedAt time.Time) insightsv1alpha1.UpdateHealthInsightStatus {
	return insightsv1alpha1.UpdateHealthInsightStatus{
		StartedAt:   metav1.NewTime(startedAt),
		Scope:       insightsv1alpha1.InsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane},
		Impact:      insightsv1alpha1.InsightImpact{Level: insightsv1alpha1.WarningImpactLevel, Type: insightsv1alpha1.NoneImpactType, Summary: summary},
		Remediation: insightsv1alpha1.InsightRemediation{Reference: "https://example.com"},
	}
}

func TestSync(t *testing.T) {
	earlier := now.Add(-time.Hour)
	testCases := []struct {
		name     string
		existing []runtime.Object
		desired  []health.Insight
		want     map[string]insightsv1alpha1.UpdateHealthInsightStatus
		writes   int
	}{
		{
			name:    "a new insight is created with its start, or now when it has none",
			desired: []health.Insight{{Name: "a", Status: status("A", earlier)}, {Name: "b", Status: status("B", time.Time{})}},
			want:    map[string]insightsv1alpha1.UpdateHealthInsightStatus{"a": status("A", earlier), "b": status("B", now)},
			writes:  4,
		},
		{
			name:     "an unchanged insight with no known start keeps the one it has and is not written",
			existing: []runtime.Object{existing("b", "mine", "version", status("B", earlier))},
			desired:  []health.Insight{{Name: "b", Status: status("B", time.Time{})}},
			want:     map[string]insightsv1alpha1.UpdateHealthInsightStatus{"b": status("B", earlier)},
		},
		{
			name:     "a changed insight is updated",
			existing: []runtime.Object{existing("b", "mine", "version", status("B", earlier))},
			desired:  []health.Insight{{Name: "b", Status: status("B, worse", time.Time{})}},
			want:     map[string]insightsv1alpha1.UpdateHealthInsightStatus{"b": status("B, worse", earlier)},
			writes:   1,
		},
		{
			name:    "an undated insight is created without a start",
			desired: []health.Insight{{Name: "u", Status: status("U", time.Time{}), Undated: true}},
			want:    map[string]insightsv1alpha1.UpdateHealthInsightStatus{"u": status("U", time.Time{})},
			writes:  2,
		},
		{
			name:     "an insight that became undated loses the start it was first reported with",
			existing: []runtime.Object{existing("u", "mine", "version", status("U", earlier))},
			desired:  []health.Insight{{Name: "u", Status: status("U", time.Time{}), Undated: true}},
			want:     map[string]insightsv1alpha1.UpdateHealthInsightStatus{"u": status("U", time.Time{})},
			writes:   1,
		},
		{
			name:     "an insight whose first status write failed gets a start",
			existing: []runtime.Object{existing("b", "mine", "version", insightsv1alpha1.UpdateHealthInsightStatus{})},
			desired:  []health.Insight{{Name: "b", Status: status("B", time.Time{})}},
			want:     map[string]insightsv1alpha1.UpdateHealthInsightStatus{"b": status("B", now)},
			writes:   1,
		},
		{
			name: "an insight no longer desired is deleted; another manager's and another owner's are left alone",
			existing: []runtime.Object{
				existing("gone", "mine", "version", status("Gone", earlier)),
				existing("theirs", "other-manager", "version", status("Theirs", earlier)),
				existing("other-owner", "mine", "other", status("Other", earlier)),
			},
			want: map[string]insightsv1alpha1.UpdateHealthInsightStatus{
				"theirs":      status("Theirs", earlier),
				"other-owner": status("Other", earlier),
			},
			writes: 1,
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			client := fake.NewSimpleClientset(tc.existing...)
			indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, Indexers())
			for _, o := range tc.existing {
				if err := indexer.Add(o); err != nil {
					t.Fatal(err)
				}
			}
			s := NewSyncer("mine", client.InsightsV1alpha1(), indexer, clocktesting.NewFakePassiveClock(now))
			if err := s.Sync(context.Background(), owner("version"), tc.desired); err != nil {
				t.Fatal(err)
			}

			writes := 0
			for _, a := range client.Actions() {
				if a.GetVerb() != "list" && a.GetVerb() != "watch" {
					writes++
				}
			}
			if writes != tc.writes {
				t.Errorf("%d writes, want %d: %v", writes, tc.writes, client.Actions())
			}
			list, err := client.InsightsV1alpha1().UpdateHealthInsights().List(context.Background(), metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]insightsv1alpha1.UpdateHealthInsightStatus{}
			for _, i := range list.Items {
				got[i.Name] = i.Status
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSyncMovesInsightsToARecreatedOwner(t *testing.T) {
	stale := existing("b", "mine", "version", status("B", now))
	stale.OwnerReferences[0].UID = "uid-of-the-deleted-owner"
	client := fake.NewSimpleClientset(stale)
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, Indexers())
	if err := indexer.Add(stale); err != nil {
		t.Fatal(err)
	}
	s := NewSyncer("mine", client.InsightsV1alpha1(), indexer, clocktesting.NewFakePassiveClock(now))
	if err := s.Sync(context.Background(), owner("version"), []health.Insight{{Name: "b", Status: status("B", now)}}); err != nil {
		t.Fatal(err)
	}
	if n := len(client.Actions()); n != 1 {
		t.Errorf("%d actions, want the one update of the owner: %v", n, client.Actions())
	}
	got, err := client.InsightsV1alpha1().UpdateHealthInsights().Get(context.Background(), "b", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]metav1.OwnerReference{owner("version")}, got.OwnerReferences); diff != "" {
		t.Errorf("owner references (-want +got):\n%s", diff)
	}
}
