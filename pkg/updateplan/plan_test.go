package updateplan

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

var now = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func finding(uid string, level insightsv1alpha1.UpdateInsightLevel, resources ...insightsv1alpha1.InsightResource) insightsv1alpha1.UpdateInsight {
	scope := insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane, Resources: resources}
	if len(resources) > 0 && resources[0].Kind == "Node" {
		scope.Type = insightsv1alpha1.ScopeTypeWorkerPool
	}
	return insightsv1alpha1.UpdateInsight{UID: uid, Scope: scope, Impact: insightsv1alpha1.UpdateInsightImpact{Level: level, Summary: "finding " + uid}}
}

func plan(accepted ...insightsv1alpha1.AcceptedInsight) *insightsv1alpha1.UpdatePlan {
	return &insightsv1alpha1.UpdatePlan{
		ObjectMeta: metav1.ObjectMeta{Name: "4.17.2"},
		Spec:       insightsv1alpha1.UpdatePlanSpec{TargetRelease: "4.17.2", AcceptedInsights: accepted},
	}
}

func accept(informer, identity string, accepted bool) insightsv1alpha1.AcceptedInsight {
	return insightsv1alpha1.AcceptedInsight{UpdateInformer: informer, UID: identity, Accepted: accepted}
}

// state is a condition's status, reason and message.
type state struct{ Status, Reason, Message string }

func conditions(s insightsv1alpha1.UpdatePlanStatus) map[string]state {
	out := map[string]state{}
	for _, c := range s.Conditions {
		out[c.Type] = state{string(c.Status), c.Reason, c.Message}
	}
	return out
}

// placed is where a finding was placed, its identity and acceptance.
type placed struct {
	Where, Informer, Identity string
	Accepted, Stale           bool
}

func placedOf(s insightsv1alpha1.UpdatePlanStatus) []placed {
	var out []placed
	add := func(where string, informers []insightsv1alpha1.InformerPlanInsights) {
		for _, i := range informers {
			for _, f := range i.Insights {
				out = append(out, placed{where, i.Name, f.Identity, f.Accepted, i.Stale})
			}
		}
	}
	add("control plane", s.ControlPlane.Informers)
	for _, p := range s.WorkerPools {
		add(p.Resource.Name, p.Informers)
	}
	return out
}

func TestCompute(t *testing.T) {
	node := insightsv1alpha1.InsightResource{Kind: "Node", Name: "worker-0"}
	builtin := updatestatus.Answer{Informer: updatestatus.BuiltinInformer, Insights: []insightsv1alpha1.UpdateInsight{
		finding("duration", insightsv1alpha1.StatusInsightLevel),
		finding("risk/OVNHang", insightsv1alpha1.ErrorInsightLevel, insightsv1alpha1.InsightResource{Group: "config.openshift.io", Kind: "ClusterVersion", Name: "version"}),
		finding("node/worker-0/unschedulable", insightsv1alpha1.WarningInsightLevel, node),
	}}
	mco := updatestatus.Answer{Informer: "mco", Insights: []insightsv1alpha1.UpdateInsight{finding("drain", insightsv1alpha1.WarningInsightLevel, node)}}
	const (
		riskID = "update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/risk/OVNHang"
		nodeID = "update-insights-operator/WorkerPool/Node/worker-0/node/worker-0/unschedulable"
		mcoID  = "mco/WorkerPool/Node/worker-0/drain"
		// unansweredID is the operator's finding about mco, which did not
		// answer.
		unansweredID = "update-insights-operator/ControlPlane/UpdateInformer.openshift.muller.dev/mco/informer/mco"
	)
	tests := []struct {
		name       string
		plan       *insightsv1alpha1.UpdatePlan
		answers    []updatestatus.Answer
		expected   []string
		want       []placed
		conditions map[string]state
	}{
		{
			name:     "nothing accepted yet, an informer yet to answer",
			plan:     plan(),
			answers:  []updatestatus.Answer{builtin},
			expected: []string{"mco"},
			want: []placed{
				{"control plane", updatestatus.BuiltinInformer, "update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/risk/OVNHang", false, false},
				{"control plane", updatestatus.BuiltinInformer, "update-insights-operator/ControlPlane//duration", false, false},
				{"worker", updatestatus.BuiltinInformer, nodeID, false, false},
			},
			conditions: map[string]state{
				ConditionAnswered: {"False", ReasonWaitingForInformers, "Waiting for the findings of mco."},
				ConditionAccepted: {"False", ReasonNotAccepted, "2 of 2 findings are not accepted: " + riskID + ", " + nodeID + "."},
			},
		},
		{
			name: "every finding accepted, by the right informer",
			plan: plan(accept(updatestatus.BuiltinInformer, riskID, true), accept(updatestatus.BuiltinInformer, nodeID, true), accept("mco", mcoID, true),
				accept("other", mcoID, true)),
			answers:  []updatestatus.Answer{builtin, mco},
			expected: []string{"mco"},
			want: []placed{
				{"control plane", updatestatus.BuiltinInformer, riskID, true, false},
				{"control plane", updatestatus.BuiltinInformer, "update-insights-operator/ControlPlane//duration", false, false},
				{"worker", "mco", mcoID, true, false},
				{"worker", updatestatus.BuiltinInformer, nodeID, true, false},
			},
			conditions: map[string]state{
				ConditionAnswered: {"True", ReasonAllAnswered, "The operator's pre-checks and every informer that handles plans (1) answered."},
				ConditionAccepted: {"True", ReasonAllAccepted, "All 3 findings are accepted."},
			},
		},
		{
			name:     "an acceptance withdrawn, an informer offline with its last findings",
			plan:     plan(accept(updatestatus.BuiltinInformer, riskID, false), accept(updatestatus.BuiltinInformer, nodeID, true), accept("mco", mcoID, true)),
			answers:  []updatestatus.Answer{builtin, {Informer: "mco", Stale: true, Offline: "Unreachable", Insights: mco.Insights}},
			expected: []string{"mco"},
			want: []placed{
				{"control plane", updatestatus.BuiltinInformer, riskID, false, false},
				{"control plane", updatestatus.BuiltinInformer, unansweredID, false, false},
				{"control plane", updatestatus.BuiltinInformer, "update-insights-operator/ControlPlane//duration", false, false},
				{"worker", "mco", mcoID, true, true},
				{"worker", updatestatus.BuiltinInformer, nodeID, true, false},
			},
			conditions: map[string]state{
				ConditionAnswered: {"False", ReasonInformersOffline, "Could not be heard, so their findings are missing or old: mco (Unreachable)."},
				ConditionAccepted: {"False", ReasonNotAccepted, "2 of 4 findings are not accepted: " + riskID + ", " + unansweredID + "."},
			},
		},
		{
			name:     "an informer offline, not heard since the plan was made, and accepted so",
			plan:     plan(accept(updatestatus.BuiltinInformer, riskID, true), accept(updatestatus.BuiltinInformer, nodeID, true), accept(updatestatus.BuiltinInformer, unansweredID, true)),
			answers:  []updatestatus.Answer{builtin, {Informer: "mco", Offline: "Unreachable"}},
			expected: []string{"mco"},
			want: []placed{
				{"control plane", updatestatus.BuiltinInformer, riskID, true, false},
				{"control plane", updatestatus.BuiltinInformer, unansweredID, true, false},
				{"control plane", updatestatus.BuiltinInformer, "update-insights-operator/ControlPlane//duration", false, false},
				{"worker", updatestatus.BuiltinInformer, nodeID, true, false},
			},
			conditions: map[string]state{
				ConditionAnswered: {"False", ReasonInformersOffline, "Could not be heard, so their findings are missing or old: mco (Unreachable)."},
				ConditionAccepted: {"True", ReasonAllAccepted, "All 3 findings are accepted."},
			},
		},
		{
			name:    "the one finding, not accepted",
			plan:    plan(),
			answers: []updatestatus.Answer{{Informer: updatestatus.BuiltinInformer, Insights: builtin.Insights[:2]}},
			want: []placed{
				{"control plane", updatestatus.BuiltinInformer, riskID, false, false},
				{"control plane", updatestatus.BuiltinInformer, "update-insights-operator/ControlPlane//duration", false, false},
			},
			conditions: map[string]state{
				ConditionAnswered: {"True", ReasonAllAnswered, "The operator's pre-checks and every informer that handles plans (0) answered."},
				ConditionAccepted: {"False", ReasonNotAccepted, "1 finding is not accepted: " + riskID + "."},
			},
		},
		{
			name:    "the one finding, accepted",
			plan:    plan(accept(updatestatus.BuiltinInformer, riskID, true)),
			answers: []updatestatus.Answer{{Informer: updatestatus.BuiltinInformer, Insights: builtin.Insights[:2]}},
			want: []placed{
				{"control plane", updatestatus.BuiltinInformer, riskID, true, false},
				{"control plane", updatestatus.BuiltinInformer, "update-insights-operator/ControlPlane//duration", false, false},
			},
			conditions: map[string]state{
				ConditionAnswered: {"True", ReasonAllAnswered, "The operator's pre-checks and every informer that handles plans (0) answered."},
				ConditionAccepted: {"True", ReasonAllAccepted, "The 1 finding is accepted."},
			},
		},
		{
			name:    "only status-level findings",
			plan:    plan(),
			answers: []updatestatus.Answer{{Informer: updatestatus.BuiltinInformer, Insights: builtin.Insights[:1]}},
			want:    []placed{{"control plane", updatestatus.BuiltinInformer, "update-insights-operator/ControlPlane//duration", false, false}},
			conditions: map[string]state{
				ConditionAnswered: {"True", ReasonAllAnswered, "The operator's pre-checks and every informer that handles plans (0) answered."},
				ConditionAccepted: {"True", ReasonNothingToAccept, "No finding needs accepting."},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compute(Input{Plan: tt.plan, Answers: tt.answers, Expected: tt.expected, Pools: []string{"worker"},
				NodePools: map[string]string{"worker-0": "worker"}, EvaluatedAt: now, Observed: "r1", Now: now})
			if diff := cmp.Diff(tt.want, placedOf(got)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.conditions, conditions(got)); diff != "" {
				t.Errorf("conditions (-want +got):\n%s", diff)
			}
			if got.ObservedEvaluationRequest != "r1" || got.EvaluatedAt == nil || !got.EvaluatedAt.Time.Equal(now) {
				t.Errorf("observed %q evaluated at %v, want r1 at %v", got.ObservedEvaluationRequest, got.EvaluatedAt, now)
			}
		})
	}
}

// What the plan cannot hold cannot be accepted: the plan says so rather
// than let an update start with findings no one saw.
func TestCutFindingsKeepThePlanFromBeingAccepted(t *testing.T) {
	var many []insightsv1alpha1.UpdateInsight
	var accepted []insightsv1alpha1.AcceptedInsight
	for i := range updatestatus.MaxControlPlaneInsights + 1 {
		f := finding(fmt.Sprintf("f-%03d", i), insightsv1alpha1.WarningInsightLevel)
		many = append(many, f)
		accepted = append(accepted, accept("chatty", Identity("chatty", f), true))
	}
	got := Compute(Input{Plan: plan(accepted...), Answers: []updatestatus.Answer{{Informer: "chatty", Insights: many}}, Expected: []string{"chatty"}, EvaluatedAt: now, Now: now})
	c := meta.FindStatusCondition(got.Conditions, ConditionAccepted)
	want := "The plan could not hold every finding, so not all can be accepted: chatty: 1 of 129 control plane insights cut (at most 128 are kept, the most serious)"
	if c == nil || c.Status != metav1.ConditionFalse || c.Reason != ReasonInsightsCut || c.Message != want {
		t.Errorf("Accepted %+v, want False, %s: %q", c, ReasonInsightsCut, want)
	}
}

// A condition keeps its transition time while its status stays.
func TestConditionsKeepTheirTransitionTimes(t *testing.T) {
	in := Input{Plan: plan(), Answers: []updatestatus.Answer{{Informer: updatestatus.BuiltinInformer}}, Expected: []string{"mco"}, EvaluatedAt: now, Now: now}
	first := Compute(in)
	in.Plan.Status = first
	in.Now = now.Add(time.Hour)
	second := Compute(in)
	if diff := cmp.Diff(first.Conditions, second.Conditions); diff != "" {
		t.Errorf("conditions changed while their status stayed (-first +second):\n%s", diff)
	}
	in.Plan.Status = second
	in.Answers = append(in.Answers, updatestatus.Answer{Informer: "mco"})
	third := Compute(in)
	if c := meta.FindStatusCondition(third.Conditions, ConditionAnswered); c == nil || !c.LastTransitionTime.Time.Equal(in.Now) {
		t.Errorf("Answered %+v, want a transition at %v", c, in.Now)
	}
}

// An administrator accepts a finding by the identity the protocol defines,
// whether the finding came over the wire or from the operator itself.
func TestIdentityIsTheProtocols(t *testing.T) {
	wire := protocol.Insight{UID: "drain", Scope: protocol.Scope{Type: protocol.ScopeWorkerPool, Resources: []protocol.Resource{
		{Kind: "Node", Name: "worker-1"}, {Group: "policy", Kind: "PodDisruptionBudget", Namespace: "app", Name: "db"},
	}}}
	stored := finding("drain", insightsv1alpha1.WarningInsightLevel,
		insightsv1alpha1.InsightResource{Kind: "Node", Name: "worker-1"}, insightsv1alpha1.InsightResource{Group: "policy", Kind: "PodDisruptionBudget", Namespace: "app", Name: "db"})
	if got, want := Identity("mco", stored), protocol.Identity("mco", wire); got != want {
		t.Errorf("Identity %q, want the protocol's %q", got, want)
	}
}

// A finding found again keeps the time it was first found.
func TestFindingsKeepTheirAcquisitionTime(t *testing.T) {
	found := func(at time.Time) updatestatus.Answer {
		f := finding("risk/OVNHang", insightsv1alpha1.ErrorInsightLevel)
		f.AcquisitionTime = &metav1.Time{Time: at}
		return updatestatus.Answer{Informer: updatestatus.BuiltinInformer, Insights: []insightsv1alpha1.UpdateInsight{f}}
	}
	p := plan()
	p.Status = Compute(Input{Plan: p, Answers: []updatestatus.Answer{found(now)}, EvaluatedAt: now, Now: now})
	later := now.Add(10 * time.Minute)
	again := Compute(Input{Plan: p, Answers: []updatestatus.Answer{found(later)}, EvaluatedAt: now, Now: later})
	if got := again.ControlPlane.Informers[0].Insights[0].AcquisitionTime; got == nil || !got.Time.Equal(now) {
		t.Errorf("acquisition time %v, want the first, %v", got, now)
	}
	if diff := cmp.Diff(p.Status, again); diff != "" {
		t.Errorf("the same findings changed the status (-before +after):\n%s", diff)
	}
}

// An informer that did not answer is a finding to accept once the plan
// stops waiting for it, saying what did not run and how to check by hand;
// found again at the next evaluation, it keeps its identity, and so its
// acceptance, and the time it was first found.
func TestAnInformerThatDidNotAnswerIsAFindingToAccept(t *testing.T) {
	in := Input{Plan: plan(), Expected: []string{"mco"}, EvaluatedAt: now, Now: now}
	waiting := Compute(in)
	if got := placedOf(waiting); len(got) != 0 {
		t.Fatalf("while waiting for mco: findings %+v, want none", got)
	}

	in.Answers = []updatestatus.Answer{{Informer: "mco", Offline: "Unreachable", Problem: "dial tcp 10.0.0.1:8443: connect: connection refused"}}
	first := Compute(in)
	f := builtinFinding(t, first)
	want := "Update informer mco did not answer (Unreachable): its checks of the update to 4.17.2 did not run"
	if f.Impact.Summary != want || f.Impact.Level != insightsv1alpha1.WarningInsightLevel || !NeedsAcceptance(f.Impact.Level) {
		t.Errorf("finding %+v, want a warning to accept: %q", f.Impact, want)
	}
	for _, says := range []string{"connection refused", "oc get updateinformer mco -o yaml", "Check by hand"} {
		if !strings.Contains(f.Impact.Description, says) {
			t.Errorf("description does not say %q:\n%s", says, f.Impact.Description)
		}
	}

	in.Plan.Status = first
	in.Plan.Spec.AcceptedInsights = []insightsv1alpha1.AcceptedInsight{accept(updatestatus.BuiltinInformer, f.Identity, true)}
	in.Now = now.Add(10 * time.Minute)
	again := Compute(in)
	g := builtinFinding(t, again)
	if g.Identity != f.Identity || !g.Accepted || !g.AcquisitionTime.Equal(f.AcquisitionTime) {
		t.Errorf("found again: %s accepted %t acquired %v, want %s accepted, acquired %v", g.Identity, g.Accepted, g.AcquisitionTime, f.Identity, f.AcquisitionTime)
	}
	if c := meta.FindStatusCondition(again.Conditions, ConditionAccepted); c == nil || c.Status != metav1.ConditionTrue {
		t.Errorf("Accepted %+v, want True", c)
	}
	if diff := cmp.Diff([]string{"mco"}, UnansweredInformers(&again)); diff != "" {
		t.Errorf("unanswered informers (-want +got):\n%s", diff)
	}
}

// builtinFinding is the one finding of the operator's that a status holds.
func builtinFinding(t *testing.T, status insightsv1alpha1.UpdatePlanStatus) insightsv1alpha1.UpdatePlanInsight {
	t.Helper()
	for _, i := range status.ControlPlane.Informers {
		if i.Name == updatestatus.BuiltinInformer && len(i.Insights) == 1 {
			return i.Insights[0]
		}
	}
	t.Fatalf("no single finding of the operator's: %+v", status.ControlPlane.Informers)
	return insightsv1alpha1.UpdatePlanInsight{}
}
