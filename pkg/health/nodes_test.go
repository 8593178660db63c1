package health

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// assessedNode is what the node assessment gives ForNode.
type assessedNode struct {
	Status insightsv1alpha1.NodeProgressInsightStatus
	NodeState
}

func (n *assessedNode) forNode(now time.Time) ([]Insight, time.Time) {
	return ForNode(&n.Status, &n.NodeState, now)
}

func nodeAssessment(updating bool, degradedReason string, unavailable *Unavailability) *assessedNode {
	return &assessedNode{
		Status: insightsv1alpha1.NodeProgressInsightStatus{
			Name:      "worker-1",
			ScopeType: insightsv1alpha1.ScopeTypeWorkerPool,
			Conditions: []metav1.Condition{
				{Type: insightsv1alpha1.NodeProgressInsightDegraded, Status: metav1.ConditionTrue, LastTransitionTime: metav1.NewTime(now.Add(-time.Hour))},
				{Type: insightsv1alpha1.NodeProgressInsightAvailable, Status: metav1.ConditionFalse, LastTransitionTime: metav1.NewTime(now.Add(-2 * time.Minute))},
			},
		},
		NodeState: NodeState{Updating: updating, DegradedReason: degradedReason, Unavailable: unavailable},
	}
}

func notReady(ago time.Duration) *Unavailability {
	c := &corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionFalse, Reason: "KubeletNotReady", Message: "kubelet is still setting up stuff"}
	return &Unavailability{Reason: insightsv1alpha1.NodeNotReady, Message: "Not ready", Condition: c, Since: now.Add(-ago)}
}

func diskPressure(ago time.Duration) *Unavailability {
	c := &corev1.NodeCondition{Type: corev1.NodeDiskPressure, Status: corev1.ConditionTrue, Reason: "KubeletHasDiskPressure", Message: "kubelet has disk pressure"}
	return &Unavailability{Reason: insightsv1alpha1.NodeDiskPressure, Message: "Disk pressure", Condition: c, Since: now.Add(-ago)}
}

type healthRow struct {
	Problem, Level, Type, Summary string
	Since                         time.Time
}

func rows(insights []Insight) []healthRow {
	var out []healthRow
	for _, i := range insights {
		out = append(out, healthRow{Problem: i.Problem, Level: string(i.Status.Impact.Level), Type: string(i.Status.Impact.Type), Summary: i.Status.Impact.Summary, Since: i.Status.StartedAt.Time})
	}
	return out
}

func TestForNode(t *testing.T) {
	testCases := []struct {
		name     string
		node     *assessedNode
		want     []healthRow
		wantNext time.Time
		// wantDescriptions, when set, are the insights' descriptions.
		wantDescriptions []string
		// undated, when set, says which insights no object dates.
		undated []bool
	}{
		{
			// The daemon's state annotation has no time: undated, as in oc,
			// not since the operator saw it.
			name:    "degraded: an error that stalls the update, undated",
			node:    nodeAssessment(true, "failed to drain node: worker-1 after 1 hour", nil),
			want:    []healthRow{{Problem: NodeDegraded, Level: "Error", Type: "Update Stalled", Summary: "Node worker-1 is degraded"}},
			undated: []bool{true},
		},
		{
			name:     "not ready for less than five minutes: not yet, but soon",
			node:     nodeAssessment(false, "", notReady(4*time.Minute)),
			wantNext: now.Add(time.Minute),
		},
		{
			name: "not ready for more than five minutes: slows the update",
			node: nodeAssessment(false, "", notReady(22*time.Minute)),
			want: []healthRow{{Problem: NodeUnavailable, Level: "Warning", Type: "Update Speed", Summary: "Node worker-1 is not ready", Since: now.Add(-22 * time.Minute)}},
		},
		{
			name: "not ready while updating: the update's own reboot",
			node: nodeAssessment(true, "", notReady(22*time.Minute)),
		},
		{
			name: "disk pressure for over a minute",
			node: nodeAssessment(false, "", &Unavailability{Reason: insightsv1alpha1.NodeDiskPressure, Since: now.Add(-90 * time.Second)}),
			want: []healthRow{{Problem: NodeUnavailable, Level: "Warning", Type: "Update Speed", Summary: "Node worker-1 is under disk pressure", Since: now.Add(-90 * time.Second)}},
		},
		{
			// Its grace counts from when the insight saw it; its start is
			// not the operator's to invent.
			name:    "network unavailable, since unknown: reported after its grace from when the insight saw it, undated",
			node:    nodeAssessment(false, "", &Unavailability{Reason: insightsv1alpha1.NodeNetworkUnavailable}),
			want:    []healthRow{{Problem: NodeUnavailable, Level: "Warning", Type: "Update Speed", Summary: "Node worker-1 network is unavailable"}},
			undated: []bool{true},
		},
		{
			name: "under disk pressure and not ready: both named, since the earlier",
			node: nodeAssessment(false, "", Unavailable(*diskPressure(90 * time.Second), *notReady(10 * time.Minute))),
			want: []healthRow{{Problem: NodeUnavailable, Level: "Warning", Type: "Update Speed",
				Summary: "Node worker-1 is under disk pressure | Node worker-1 is not ready", Since: now.Add(-10 * time.Minute)}},
			wantDescriptions: []string{`Node has a DiskPressure=True condition with reason "KubeletHasDiskPressure" and message "kubelet has disk pressure" | ` +
				`Node has a Ready=False condition with reason "KubeletNotReady" and message "kubelet is still setting up stuff". ` +
				"An unavailable node slows the update of its pool: the pool updates only so many unavailable nodes at a time."},
		},
		{
			name: "one cause past its grace is enough: reported with the cordon",
			node: nodeAssessment(false, "", Unavailable(*notReady(30 * time.Second), *diskPressure(2 * time.Minute),
				Unavailability{Reason: insightsv1alpha1.NodeUnschedulable, Message: "Node is marked unschedulable"})),
			want: []healthRow{{Problem: NodeUnavailable, Level: "Warning", Type: "Update Speed",
				Summary: "Node worker-1 is not ready | Node worker-1 is under disk pressure | Node is marked unschedulable", Since: now.Add(-2 * time.Minute)}},
		},
		{
			name:     "no cause past its grace yet: woken when the first is",
			node:     nodeAssessment(false, "", Unavailable(*notReady(2 * time.Minute), *diskPressure(30 * time.Second))),
			wantNext: now.Add(30 * time.Second),
		},
		{
			name: "cordoned by an administrator: not a problem by itself",
			node: nodeAssessment(false, "", &Unavailability{Reason: insightsv1alpha1.NodeUnschedulable}),
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			insights, next := tc.node.forNode(now)
			if diff := cmp.Diff(tc.want, rows(insights)); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
			if !next.Equal(tc.wantNext) {
				t.Errorf("next change at %v, want %v", next, tc.wantNext)
			}
			if tc.undated != nil {
				var undated []bool
				for _, i := range insights {
					undated = append(undated, i.Undated)
				}
				if diff := cmp.Diff(tc.undated, undated); diff != "" {
					t.Errorf("undated (-want +got):\n%s", diff)
				}
			}
			if tc.wantDescriptions != nil {
				var descriptions []string
				for _, i := range insights {
					descriptions = append(descriptions, i.Status.Impact.Description)
				}
				if diff := cmp.Diff(tc.wantDescriptions, descriptions); diff != "" {
					t.Errorf("descriptions (-want +got):\n%s", diff)
				}
			}
			for _, i := range insights {
				if i.Status.Scope.Resources[0] != (insightsv1alpha1.ResourceRef{Resource: "nodes", Name: "worker-1"}) || i.Status.Remediation.Reference == "" || i.Status.Impact.Description == "" {
					t.Errorf("incomplete insight: %+v", i.Status)
				}
			}
		})
	}
}

func TestNodeInsightNamesAreStable(t *testing.T) {
	degraded, _ := nodeAssessment(true, "one reason", nil).forNode(now)
	worse, _ := nodeAssessment(true, "another reason", nil).forNode(now.Add(time.Hour))
	if degraded[0].Name != worse[0].Name {
		t.Errorf("a node's degradation changed name with its reason: %s, %s", degraded[0].Name, worse[0].Name)
	}
}

func TestForPool(t *testing.T) {
	pool := func(assessment insightsv1alpha1.PoolAssessment) *insightsv1alpha1.MachineConfigPoolProgressInsightStatus {
		return &insightsv1alpha1.MachineConfigPoolProgressInsightStatus{
			Name: "worker", ScopeType: insightsv1alpha1.ScopeTypeWorkerPool, Assessment: assessment,
			Conditions: []metav1.Condition{{Type: insightsv1alpha1.MachineConfigPoolProgressInsightUpdating, LastTransitionTime: metav1.NewTime(now.Add(-time.Minute))}},
		}
	}
	// A pool's spec.paused has no time: undated, as in oc.
	want := []healthRow{{Problem: PausedPoolOutdated, Level: "Warning", Type: "Update Stalled", Summary: "Outdated nodes in a paused pool 'worker' will not be updated"}}
	excluded := ForPool(pool(insightsv1alpha1.PoolExcluded))
	if diff := cmp.Diff(want, rows(excluded)); diff != "" {
		t.Errorf("excluded pool (-want +got):\n%s", diff)
	}
	if !excluded[0].Undated {
		t.Errorf("the paused pool's insight is dated, want it undated")
	}
	for _, a := range []insightsv1alpha1.PoolAssessment{insightsv1alpha1.PoolCompleted, insightsv1alpha1.PoolProgressing, insightsv1alpha1.PoolDegraded, insightsv1alpha1.PoolBehind} {
		if got := ForPool(pool(a)); len(got) != 0 {
			t.Errorf("%s pool: %+v, want no insight", a, rows(got))
		}
	}
}

// TestPoolRef: a health insight about a pool names what the pool is: a
// NodePool when the pool insight says so, never a MachineConfigPool of the
// same name.
func TestPoolRef(t *testing.T) {
	nodePool := hosted.NodePool("workers-us-east-1a")
	for _, tc := range []struct {
		name     string
		status   insightsv1alpha1.MachineConfigPoolProgressInsightStatus
		want     insightsv1alpha1.ResourceRef
		wantKind string
	}{
		{name: "MachineConfigPool", status: insightsv1alpha1.MachineConfigPoolProgressInsightStatus{Name: "worker"},
			want: insightsv1alpha1.ResourceRef{Group: "machineconfiguration.openshift.io", Resource: "machineconfigpools", Name: "worker"}, wantKind: "MachineConfigPool"},
		{name: "NodePool", status: insightsv1alpha1.MachineConfigPoolProgressInsightStatus{Name: "workers-us-east-1a", Resource: &nodePool},
			want: insightsv1alpha1.ResourceRef{Group: "hypershift.openshift.io", Resource: "nodepools", Name: "workers-us-east-1a"}, wantKind: "NodePool"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := PoolRef(&tc.status)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("PoolRef (-want +got):\n%s", diff)
			}
			if kind, _ := Kind(got.Resource); kind != tc.wantKind || !IsPool(kind) {
				t.Errorf("kind %q (a pool: %t), want %q, a pool", kind, IsPool(kind), tc.wantKind)
			}
		})
	}
	t.Run("an excluded NodePool's insight names it", func(t *testing.T) {
		s := &insightsv1alpha1.MachineConfigPoolProgressInsightStatus{Name: "np", Resource: &nodePool, ScopeType: insightsv1alpha1.ScopeTypeWorkerPool, Assessment: insightsv1alpha1.PoolExcluded}
		insights := ForPool(s)
		if len(insights) != 1 {
			t.Fatalf("%d insights, want 1", len(insights))
		}
		if diff := cmp.Diff([]insightsv1alpha1.ResourceRef{nodePool}, insights[0].Status.Scope.Resources); diff != "" {
			t.Errorf("resources (-want +got):\n%s", diff)
		}
	})
}

// pinnedNode is a node whose Updating condition has reason, with its
// MachineConfigNode's PinnedImageSetsDegraded True.
func pinnedNode(updating bool, reason string, sets ...PinnedImageSet) *assessedNode {
	status := metav1.ConditionFalse
	if updating {
		status = metav1.ConditionTrue
	}
	return &assessedNode{
		Status: insightsv1alpha1.NodeProgressInsightStatus{
			Name:      "worker-1",
			ScopeType: insightsv1alpha1.ScopeTypeWorkerPool,
			Conditions: []metav1.Condition{
				{Type: insightsv1alpha1.NodeProgressInsightUpdating, Status: status, Reason: reason, LastTransitionTime: metav1.NewTime(now.Add(-time.Hour))},
			},
		},
		NodeState: NodeState{Updating: updating, PinnedImageSetsDegraded: &PinnedImageSetsDegraded{
			// The daemon's words (pkg/daemon/pinned_image_set.go, updateStatusError).
			Message: "One or more PinnedImageSet is experiencing an error. See PinnedImageSet list for more details.",
			Since:   now.Add(-3 * time.Minute),
			Sets:    sets,
		}},
	}
}

func TestForNodePinnedImageSets(t *testing.T) {
	release := PinnedImageSet{Name: "release-4-16", Error: "requeue: prefetching images incomplete after timeout: 2m0s"}
	testCases := []struct {
		name            string
		node            *assessedNode
		want            []healthRow
		wantDescription string
	}{
		{
			name: "updating: a warning that slows the update, since the daemon's report, naming the set and the commands",
			node: pinnedNode(true, insightsv1alpha1.NodeUpdating, release),
			want: []healthRow{{Problem: NodePinnedImageSetsDegraded, Level: "Warning", Type: "Update Speed",
				Summary: "Node worker-1 cannot pin the images of PinnedImageSet release-4-16", Since: now.Add(-3 * time.Minute)}},
			wantDescription: `The machine-config daemon reports PinnedImageSetsDegraded on MachineConfigNode worker-1, last at 2024-08-02T09:57:00Z: ` +
				`"One or more PinnedImageSet is experiencing an error. See PinnedImageSet list for more details.". ` +
				`PinnedImageSet release-4-16: "requeue: prefetching images incomplete after timeout: 2m0s". ` +
				"The images the node has not pinned are not kept on it: the update pulls them when it needs them, which takes longer, " +
				"and fails where the node cannot reach their registry. The machine-config operator does not yet degrade the pool for this " +
				"(the condition is also set for images that only take long to fetch), and the daemon keeps retrying. " +
				"See which images fail and why: oc describe machineconfignode worker-1 and oc describe pinnedimageset release-4-16.",
		},
		{
			name: "outdated, waiting its turn: the pool has it to update",
			node: pinnedNode(false, insightsv1alpha1.NodePending, release, PinnedImageSet{Name: "edge-apps"}),
			want: []healthRow{{Problem: NodePinnedImageSetsDegraded, Level: "Warning", Type: "Update Speed",
				Summary: "Node worker-1 cannot pin the images of PinnedImageSets release-4-16, edge-apps", Since: now.Add(-3 * time.Minute)}},
		},
		{
			name: "no set named: the commands still say where to look",
			node: pinnedNode(true, insightsv1alpha1.NodeDraining),
			want: []healthRow{{Problem: NodePinnedImageSetsDegraded, Level: "Warning", Type: "Update Speed",
				Summary: "Node worker-1 cannot pin the images of its PinnedImageSets", Since: now.Add(-3 * time.Minute)}},
		},
		{
			name: "updated: no update of this node to slow",
			node: pinnedNode(false, insightsv1alpha1.NodeCompleted, release),
		},
		{
			name: "no target to compare with: no update",
			node: pinnedNode(false, insightsv1alpha1.NodeCannotDetermine, release),
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			insights, next := tc.node.forNode(now)
			if diff := cmp.Diff(tc.want, rows(insights)); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
			if !next.IsZero() {
				t.Errorf("next change at %v, want none", next)
			}
			for _, i := range insights {
				if i.Status.Scope.Resources[0] != (insightsv1alpha1.ResourceRef{Resource: "nodes", Name: "worker-1"}) || i.Status.Remediation.Reference == "" ||
					i.Undated || len(i.Status.Impact.Summary) > maxSummaryLength {
					t.Errorf("incomplete insight: %+v", i.Status)
				}
				if tc.wantDescription != "" {
					if diff := cmp.Diff(tc.wantDescription, i.Status.Impact.Description); diff != "" {
						t.Errorf("description (-want +got):\n%s", diff)
					}
				}
			}
		})
	}
	t.Run("a report of many sets stays within the summary", func(t *testing.T) {
		var sets []PinnedImageSet
		for range 40 {
			sets = append(sets, PinnedImageSet{Name: "a-rather-long-pinned-image-set-name"})
		}
		insights, _ := pinnedNode(true, insightsv1alpha1.NodeUpdating, sets...).forNode(now)
		if len(insights) != 1 || len(insights[0].Status.Impact.Summary) > maxSummaryLength {
			t.Errorf("insights %+v, want one with a summary of at most %d bytes", rows(insights), maxSummaryLength)
		}
	})
	t.Run("the insight keeps its name as the sets change", func(t *testing.T) {
		one, _ := pinnedNode(true, insightsv1alpha1.NodeUpdating, release).forNode(now)
		two, _ := pinnedNode(true, insightsv1alpha1.NodeUpdating, release, PinnedImageSet{Name: "edge-apps"}).forNode(now)
		if one[0].Name != two[0].Name {
			t.Errorf("names %s and %s, want one", one[0].Name, two[0].Name)
		}
	})
}

// A node degraded on its MachineConfigNode says where its whole reason is.
func TestNodeDegradedOnItsMachineConfigNode(t *testing.T) {
	n := nodeAssessment(true, strings.Repeat("x", maxDescriptionLength+1), nil)
	n.DegradedOnMachineConfigNode = true
	insights, _ := n.forNode(now)
	if len(insights) != 1 || !strings.HasSuffix(insights[0].Status.Impact.Description, "the whole text is in MachineConfigNode/worker-1 status.conditions[NodeDegraded])") {
		t.Errorf("insights %+v, want the degraded node's, saying where its reason is", rows(insights))
	}
}
