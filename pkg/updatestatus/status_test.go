package updatestatus

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

var now = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func clusterVersion(desired string, state configv1.UpdateState, historyVersion string) *configv1.ClusterVersion {
	return &configv1.ClusterVersion{
		ObjectMeta: metav1.ObjectMeta{Name: "version"},
		Status: configv1.ClusterVersionStatus{
			Desired: configv1.Release{Version: desired, Image: "quay.io/release:" + desired},
			History: []configv1.UpdateHistory{{Version: historyVersion, Image: "quay.io/release:" + historyVersion, State: state}},
		},
	}
}

// pool is a worker pool's insight: total nodes, how many are outdated, and
// its Updating condition's reason (True for Progressing).
func pool(name string, total, outdated int32, updating string) *insightsv1alpha1.MachineConfigPoolProgressInsight {
	status := metav1.ConditionFalse
	if updating == nodes.PoolReasonProgressing {
		status = metav1.ConditionTrue
	}
	return &insightsv1alpha1.MachineConfigPoolProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: insightsv1alpha1.MachineConfigPoolProgressInsightStatus{
			Name: name, ScopeType: insightsv1alpha1.ScopeTypeWorkerPool,
			Conditions: []metav1.Condition{{Type: insightsv1alpha1.MachineConfigPoolProgressInsightUpdating, Status: status, Reason: updating}},
			Summaries: []insightsv1alpha1.NodeSummary{
				{Type: insightsv1alpha1.NodesTotal, Count: total}, {Type: insightsv1alpha1.NodesOutdated, Count: outdated},
			},
		},
	}
}

func insight(uid string, scope insightsv1alpha1.ScopeType, level insightsv1alpha1.UpdateInsightLevel, resources ...insightsv1alpha1.InsightResource) insightsv1alpha1.UpdateInsight {
	return insightsv1alpha1.UpdateInsight{
		UID:    uid,
		Scope:  insightsv1alpha1.UpdateInsightScope{Type: scope, Resources: resources},
		Impact: insightsv1alpha1.UpdateInsightImpact{Level: level, Summary: "insight " + uid},
	}
}

func window(uid string, scope insightsv1alpha1.ScopeType, until time.Time) insightsv1alpha1.UpdateInsight {
	i := insight(uid, scope, insightsv1alpha1.StatusInsightLevel)
	i.Impact.Type, i.Impact.Summary = insightsv1alpha1.AwaitingWindowImpactType, "Managed update to 4.16.1 scheduled"
	i.Remediation.EstimatedFinish = &metav1.Time{Time: until}
	return i
}

func node(name string) insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Kind: "Node", Name: name}
}

// state is a condition's status and reason.
type state struct{ Status, Reason string }

func states(conditions []metav1.Condition) map[string]state {
	out := map[string]state{}
	for _, c := range conditions {
		out[c.Type] = state{string(c.Status), c.Reason}
	}
	return out
}

func TestConditions(t *testing.T) {
	updating := clusterVersion("4.16.1", configv1.PartialUpdate, "4.16.1")
	done := clusterVersion("4.16.1", configv1.CompletedUpdate, "4.16.1")
	desiredOnly := clusterVersion("4.16.1", configv1.CompletedUpdate, "4.16.0")
	tests := []struct {
		name             string
		cv               *configv1.ClusterVersion
		pools            []*insightsv1alpha1.MachineConfigPoolProgressInsight
		answers          []Answer
		wantControlPlane map[string]state
		wantPools        map[string]map[string]state
	}{
		{
			name:             "no ClusterVersion",
			wantControlPlane: map[string]state{"UpdatePending": {"Unknown", "NoClusterVersion"}, "UpdateActive": {"Unknown", "NoClusterVersion"}},
		},
		{
			name:             "the update completed, and the pool has all its nodes updated",
			cv:               done,
			pools:            []*insightsv1alpha1.MachineConfigPoolProgressInsight{pool("worker", 3, 0, nodes.PoolReasonCompleted)},
			wantControlPlane: map[string]state{"UpdatePending": {"False", "ReleaseReconciled"}, "UpdateActive": {"False", "Completed"}},
			wantPools:        map[string]map[string]state{"worker": {"UpdatePending": {"False", "NodesReconciled"}, "UpdateActive": {"False", "Completed"}}},
		},
		{
			name:             "a new release is desired, not yet in the history",
			cv:               desiredOnly,
			wantControlPlane: map[string]state{"UpdatePending": {"True", "ReleaseNotReconciled"}, "UpdateActive": {"True", "Updating"}},
		},
		{
			name: "the control plane updates: pools wait for it, a paused one says so",
			cv:   updating,
			pools: []*insightsv1alpha1.MachineConfigPoolProgressInsight{
				pool("worker", 3, 0, nodes.PoolReasonCompleted), pool("infra", 2, 2, nodes.PoolReasonPaused), pool("edge", 2, 2, nodes.PoolReasonPending), pool("gpu", 4, 3, nodes.PoolReasonProgressing),
			},
			wantControlPlane: map[string]state{"UpdatePending": {"True", "ReleaseNotReconciled"}, "UpdateActive": {"True", "Updating"}},
			wantPools: map[string]map[string]state{
				"worker": {"UpdatePending": {"False", "NodesReconciled"}, "UpdateActive": {"False", "AwaitingControlPlane"}},
				"infra":  {"UpdatePending": {"True", "NodesNotReconciled"}, "UpdateActive": {"False", "Paused"}},
				"edge":   {"UpdatePending": {"True", "NodesNotReconciled"}, "UpdateActive": {"False", "AwaitingControlPlane"}},
				"gpu":    {"UpdatePending": {"True", "NodesNotReconciled"}, "UpdateActive": {"True", "WorkersUpdating"}},
			},
		},
		{
			name:             "a schedule holds the control plane, and so its pools",
			cv:               updating,
			pools:            []*insightsv1alpha1.MachineConfigPoolProgressInsight{pool("worker", 3, 2, nodes.PoolReasonProgressing)},
			answers:          []Answer{{Informer: "managed-upgrade", Insights: []insightsv1alpha1.UpdateInsight{window("w", insightsv1alpha1.ScopeTypeControlPlane, now.Add(time.Hour))}}},
			wantControlPlane: map[string]state{"UpdatePending": {"True", "ReleaseNotReconciled"}, "UpdateActive": {"False", "AwaitingWindow"}},
			wantPools:        map[string]map[string]state{"worker": {"UpdatePending": {"True", "NodesNotReconciled"}, "UpdateActive": {"False", "AwaitingWindow"}}},
		},
		{
			name:             "an update scheduled before the ClusterVersion has it: pending, awaiting its window",
			cv:               done,
			pools:            []*insightsv1alpha1.MachineConfigPoolProgressInsight{pool("worker", 3, 0, nodes.PoolReasonCompleted)},
			answers:          []Answer{{Informer: "managed-upgrade", Insights: []insightsv1alpha1.UpdateInsight{window("w", insightsv1alpha1.ScopeTypeControlPlane, now.Add(time.Hour))}}},
			wantControlPlane: map[string]state{"UpdatePending": {"True", "UpdateScheduled"}, "UpdateActive": {"False", "AwaitingWindow"}},
			wantPools:        map[string]map[string]state{"worker": {"UpdatePending": {"False", "NodesReconciled"}, "UpdateActive": {"False", "AwaitingControlPlane"}}},
		},
		{
			name:  "a schedule holds one pool only",
			cv:    done,
			pools: []*insightsv1alpha1.MachineConfigPoolProgressInsight{pool("worker", 3, 2, nodes.PoolReasonProgressing), pool("infra", 2, 2, nodes.PoolReasonPending)},
			answers: []Answer{{Informer: "managed-upgrade", Insights: []insightsv1alpha1.UpdateInsight{
				func() insightsv1alpha1.UpdateInsight {
					i := window("w", insightsv1alpha1.ScopeTypeWorkerPool, now.Add(time.Hour))
					i.Scope.WorkerPool = []insightsv1alpha1.InsightResource{{Group: "machineconfiguration.openshift.io", Kind: "MachineConfigPool", Name: "infra"}}
					return i
				}(),
			}}},
			wantControlPlane: map[string]state{"UpdatePending": {"False", "ReleaseReconciled"}, "UpdateActive": {"False", "Completed"}},
			wantPools: map[string]map[string]state{
				"worker": {"UpdatePending": {"True", "NodesNotReconciled"}, "UpdateActive": {"True", "WorkersUpdating"}},
				"infra":  {"UpdatePending": {"True", "NodesNotReconciled"}, "UpdateActive": {"False", "AwaitingWindow"}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compute(Input{ClusterVersion: tt.cv, Pools: tt.pools, Answers: tt.answers, Now: now})
			if diff := cmp.Diff(tt.wantControlPlane, states(got.ControlPlane.Conditions)); diff != "" {
				t.Errorf("control plane conditions (-want +got):\n%s", diff)
			}
			gotPools := map[string]map[string]state{}
			for _, p := range got.WorkerPools {
				gotPools[p.Resource.Name] = states(p.Conditions)
			}
			if len(tt.wantPools) == 0 {
				tt.wantPools = map[string]map[string]state{}
			}
			if diff := cmp.Diff(tt.wantPools, gotPools); diff != "" {
				t.Errorf("pool conditions (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAwaitingWindowSaysUntilWhen(t *testing.T) {
	got := Compute(Input{
		ClusterVersion: clusterVersion("4.16.1", configv1.PartialUpdate, "4.16.1"),
		Answers:        []Answer{{Informer: "managed-upgrade", Insights: []insightsv1alpha1.UpdateInsight{window("w", insightsv1alpha1.ScopeTypeControlPlane, now.Add(time.Hour))}}},
		Now:            now,
	})
	active := meta.FindStatusCondition(got.ControlPlane.Conditions, insightsv1alpha1.UpdateActive)
	if want := "Managed update to 4.16.1 scheduled (until 2026-11-22T11:00:00Z)"; active == nil || active.Message != want {
		t.Errorf("UpdateActive %+v, want the message %q", active, want)
	}
}

// Conditions keep their transition time while their status holds.
func TestConditionsKeepTheirTransitionTimes(t *testing.T) {
	in := Input{ClusterVersion: clusterVersion("4.16.1", configv1.PartialUpdate, "4.16.1"), Now: now}
	first := Compute(in)
	in.Previous, in.Now = &first, now.Add(time.Hour)
	again := Compute(in)
	for _, c := range again.ControlPlane.Conditions {
		if !c.LastTransitionTime.Time.Equal(now) {
			t.Errorf("%s moved to %s though its status held", c.Type, c.LastTransitionTime)
		}
	}
	in.ClusterVersion, in.Previous, in.Now = clusterVersion("4.16.1", configv1.CompletedUpdate, "4.16.1"), &again, now.Add(2*time.Hour)
	done := Compute(in)
	for _, c := range done.ControlPlane.Conditions {
		if !c.LastTransitionTime.Time.Equal(now.Add(2 * time.Hour)) {
			t.Errorf("%s kept %s though its status changed", c.Type, c.LastTransitionTime)
		}
	}
}

func TestInsightsArePlacedByTheirScope(t *testing.T) {
	mcp := func(name string) insightsv1alpha1.InsightResource {
		return insightsv1alpha1.InsightResource{Group: "machineconfiguration.openshift.io", Kind: "MachineConfigPool", Name: name}
	}
	byPool := insight("by-pool", insightsv1alpha1.ScopeTypeWorkerPool, insightsv1alpha1.WarningInsightLevel)
	byPool.Scope.WorkerPool = []insightsv1alpha1.InsightResource{mcp("infra")}
	got := Compute(Input{
		ClusterVersion: clusterVersion("4.16.1", configv1.PartialUpdate, "4.16.1"),
		Pools:          []*insightsv1alpha1.MachineConfigPoolProgressInsight{pool("worker", 2, 2, nodes.PoolReasonPending), pool("infra", 1, 1, nodes.PoolReasonPending)},
		NodePools:      map[string]string{"worker-0": "worker", "infra-0": "infra"},
		Answers: []Answer{
			{Informer: "mco", Insights: []insightsv1alpha1.UpdateInsight{
				insight("cp", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.ErrorInsightLevel),
				insight("by-node", insightsv1alpha1.ScopeTypeWorkerPool, insightsv1alpha1.StatusInsightLevel, node("worker-0")),
				byPool,
				insight("nowhere", insightsv1alpha1.ScopeTypeWorkerPool, insightsv1alpha1.WarningInsightLevel, node("gone-0")),
			}},
			{Informer: "quiet", Stale: true},
		},
		Now: now,
	})
	where := map[string][]string{}
	add := func(section string, informers []insightsv1alpha1.InformerInsights) {
		for _, i := range informers {
			entry := i.Name
			if i.Stale {
				entry += " (stale)"
			}
			for _, insight := range i.Insights {
				entry += " " + insight.UID
			}
			where[section] = append(where[section], entry)
		}
	}
	add("control plane", got.ControlPlane.Informers)
	for _, p := range got.WorkerPools {
		add(p.Resource.Name, p.Informers)
	}
	want := map[string][]string{
		"control plane": {"mco cp", "quiet (stale)"},
		"worker":        {"mco by-node"},
		"infra":         {"mco by-pool"},
	}
	if diff := cmp.Diff(want, where); diff != "" {
		t.Errorf("placement (-want +got):\n%s", diff)
	}
	complete := meta.FindStatusCondition(got.Conditions, ConditionInsightsComplete)
	if complete == nil || complete.Status != metav1.ConditionFalse || complete.Message != "mco: 1 worker pool insights name no known pool" {
		t.Errorf("InsightsComplete %+v, want False counting the unplaced insight", complete)
	}
}

// What is cut is the least serious, and it is counted, never silently.
func TestInsightsAreBounded(t *testing.T) {
	var insights []insightsv1alpha1.UpdateInsight
	for i := range MaxControlPlaneInsights + 2 {
		insights = append(insights, insight(fmt.Sprintf("status-%03d", i), insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.StatusInsightLevel))
	}
	long := insight("long", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.CriticalInsightLevel)
	long.Impact.Summary = "first line\nsecond " + strings.Repeat("s", 300)
	long.Impact.Description = strings.Repeat("d", 5000)
	insights = append(insights, long)

	got := Compute(Input{ClusterVersion: clusterVersion("4.16.1", configv1.PartialUpdate, "4.16.1"), Answers: []Answer{{Informer: "chatty", Insights: insights}}, Now: now})
	kept := got.ControlPlane.Informers[0].Insights
	if len(kept) != MaxControlPlaneInsights {
		t.Fatalf("kept %d insights, want %d", len(kept), MaxControlPlaneInsights)
	}
	if kept[0].UID != "long" {
		t.Errorf("the first insight kept is %s, want the critical one", kept[0].UID)
	}
	if s := kept[0].Impact.Summary; utf8.RuneCountInString(s) != maxSummaryLength || strings.Contains(s, "\n") || utf8.RuneCountInString(kept[0].Impact.Description) != maxDescriptionLength {
		t.Errorf("the critical insight's strings are not cut to their bounds: summary %d characters, description %d", utf8.RuneCountInString(s), utf8.RuneCountInString(kept[0].Impact.Description))
	}
	complete := meta.FindStatusCondition(got.Conditions, ConditionInsightsComplete)
	if want := "chatty: 3 of 131 control plane insights cut (at most 128 are kept, the most serious)\n" +
		"chatty: 1 summary cut to 256 characters, 1 description cut to 4096 characters"; complete == nil || complete.Message != want {
		t.Errorf("InsightsComplete %+v, want the message %q", complete, want)
	}
}

// An informer that cannot be heard is an insight of the aggregator's, and its
// last good insights stay, marked stale.
func TestOfflineInformersAreReported(t *testing.T) {
	got := Compute(Input{
		ClusterVersion: clusterVersion("4.16.1", configv1.PartialUpdate, "4.16.1"),
		Answers: []Answer{
			{Informer: BuiltinInformer, Insights: []insightsv1alpha1.UpdateInsight{insight("own", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.StatusInsightLevel)}},
			{Informer: "mco", Stale: true, Offline: "Unreachable", Problem: "dial tcp 10.0.0.7:8443: connection refused",
				Insights: []insightsv1alpha1.UpdateInsight{insight("old", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.WarningInsightLevel)}},
			{Informer: "never-heard", Offline: "DiscoveryFailed", Problem: "404 Not Found"},
		},
		Now: now,
	})
	var summaries []string
	for _, i := range got.ControlPlane.Informers {
		for _, insight := range i.Insights {
			summaries = append(summaries, fmt.Sprintf("%s (stale %t): %s %s", i.Name, i.Stale, insight.Impact.Level, insight.Impact.Summary))
		}
	}
	want := []string{
		"mco (stale true): warning insight old",
		"update-insights-operator (stale false): warning Update informer mco is offline (Unreachable): its insights are from its last good answer",
		"update-insights-operator (stale false): warning Update informer never-heard is offline (DiscoveryFailed)",
		"update-insights-operator (stale false): status insight own",
	}
	if diff := cmp.Diff(want, summaries); diff != "" {
		t.Errorf("control plane insights (-want +got):\n%s", diff)
	}
}

// The aggregator's own conditions say whether UpdateStatus holds everything
// the informers said, and whether every informer was heard.
func TestAggregatorConditions(t *testing.T) {
	type condition struct{ Status, Reason, Message string }
	tests := []struct {
		name    string
		answers []Answer
		want    map[string]condition
	}{
		{
			name:    "every informer answered with insights the API accepts",
			answers: []Answer{{Informer: "mco", Insights: []insightsv1alpha1.UpdateInsight{insight("a", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.WarningInsightLevel)}}},
			want: map[string]condition{
				ConditionInsightsComplete:  {"True", "AllInsightsKept", "Every informer's insights are kept."},
				ConditionInformersAnswered: {"True", "AllAnswered", "Every informer answered its last call."},
			},
		},
		{
			name: "insights left out of an answer are counted",
			answers: []Answer{{Informer: "mco", Problem: `1 insights left out, which the API would refuse: insight "x": the reference is not a URL`,
				Insights: []insightsv1alpha1.UpdateInsight{insight("a", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.WarningInsightLevel)}}},
			want: map[string]condition{
				ConditionInsightsComplete:  {"False", "InsightsCut", `mco: 1 insights left out, which the API would refuse: insight "x": the reference is not a URL`},
				ConditionInformersAnswered: {"True", "AllAnswered", "Every informer answered its last call."},
			},
		},
		{
			name: "informers not heard are named, with why",
			answers: []Answer{
				{Informer: "zeta", Offline: "Waiting", Problem: "answered Wait 7 times in a row"},
				{Informer: "mco", Stale: true, Offline: "Unreachable", Problem: "connection refused",
					Insights: []insightsv1alpha1.UpdateInsight{insight("a", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.WarningInsightLevel)}},
				{Informer: "alpha"},
			},
			want: map[string]condition{
				ConditionInsightsComplete:  {"True", "AllInsightsKept", "Every informer's insights are kept."},
				ConditionInformersAnswered: {"False", "InformersOffline", "Not heard at their last call, their insights missing or old: mco (Unreachable), zeta (Waiting)."},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compute(Input{ClusterVersion: clusterVersion("4.16.1", configv1.PartialUpdate, "4.16.1"), Answers: tt.answers, Now: now})
			conditions := map[string]condition{}
			for _, c := range got.Conditions {
				conditions[c.Type] = condition{string(c.Status), c.Reason, c.Message}
			}
			if diff := cmp.Diff(tt.want, conditions); diff != "" {
				t.Errorf("conditions (-want +got):\n%s", diff)
			}
		})
	}
}

// The operator's uids carry names of up to 253 characters after their
// prefix: each stays within the API's 256, and distinct.
func TestUIDsAreBounded(t *testing.T) {
	longName := func(last string) string { return strings.Repeat("n", 252) + last }
	node := func(name string) *insightsv1alpha1.NodeProgressInsight {
		n := &insightsv1alpha1.NodeProgressInsight{}
		n.Status.Name = name
		n.Status.ScopeType = insightsv1alpha1.ScopeTypeControlPlane
		n.Status.Conditions = []metav1.Condition{{Type: insightsv1alpha1.NodeProgressInsightUpdating, Status: metav1.ConditionTrue, Reason: insightsv1alpha1.NodeDraining}}
		return n
	}
	healthInsight := func(name string) *insightsv1alpha1.UpdateHealthInsight {
		h := &insightsv1alpha1.UpdateHealthInsight{ObjectMeta: metav1.ObjectMeta{Name: name}}
		h.Status.Scope.Type = insightsv1alpha1.ScopeTypeControlPlane
		h.Status.Impact.Level = insightsv1alpha1.WarningImpactLevel
		return h
	}
	builtin := Builtin(Insights{
		Nodes:  []*insightsv1alpha1.NodeProgressInsight{node(longName("a")), node(longName("b"))},
		Health: []*insightsv1alpha1.UpdateHealthInsight{healthInsight(longName("a")), healthInsight(longName("b"))},
	})
	got := Compute(Input{
		ClusterVersion: clusterVersion("4.16.1", configv1.PartialUpdate, "4.16.1"),
		Answers: []Answer{
			{Informer: BuiltinInformer, Insights: builtin},
			{Informer: longName("a"), Offline: "Unreachable"},
			{Informer: longName("b"), Offline: "Unreachable"},
		},
		Now: now,
	})
	seen := map[string]bool{}
	for _, i := range got.ControlPlane.Informers {
		for _, insight := range i.Insights {
			if len(insight.UID) > MaxUIDLength {
				t.Errorf("uid of %d bytes, over %d: %q", len(insight.UID), MaxUIDLength, insight.UID)
			}
			if seen[insight.UID] {
				t.Errorf("two insights share the uid %q", insight.UID)
			}
			seen[insight.UID] = true
		}
	}
	if len(seen) != 6 {
		t.Errorf("%d insights, want 6: two nodes, two health insights, two offline informers", len(seen))
	}
}
