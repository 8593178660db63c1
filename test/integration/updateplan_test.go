package integration

import (
	"context"
	"fmt"
	"net"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
)

const planTarget = "4.16.1"

// plannedStatus is a cluster that completed its update to fromVersion and
// is offered planTarget as a conditional update whose one risk applies.
func plannedStatus() configv1.ClusterVersionStatus {
	started := metav1.NewTime(time.Now().Add(-48 * time.Hour).Truncate(time.Second))
	completed := metav1.NewTime(started.Add(47 * time.Minute))
	installed := metav1.NewTime(started.Add(-30 * 24 * time.Hour))
	return configv1.ClusterVersionStatus{
		Desired:            configv1.Release{Version: fromVersion, Image: "quay.io/release:" + fromVersion},
		ObservedGeneration: 1,
		VersionHash:        "hash",
		Conditions:         []configv1.ClusterOperatorStatusCondition{{Type: "Failing", Status: configv1.ConditionFalse, LastTransitionTime: started}},
		History: []configv1.UpdateHistory{
			{Version: fromVersion, Image: "quay.io/release:" + fromVersion, State: configv1.CompletedUpdate, StartedTime: started, CompletionTime: &completed},
			{Version: "4.15.0", Image: "quay.io/release:4.15.0", State: configv1.CompletedUpdate, StartedTime: installed, CompletionTime: &installed},
		},
		ConditionalUpdates: []configv1.ConditionalUpdate{{
			Release: configv1.Release{Version: planTarget, Image: "quay.io/release:" + planTarget},
			Risks: []configv1.ConditionalUpdateRisk{{Name: "OVNHang", URL: "https://issues.example/OVNHang", Message: "OVN may hang on nodes with many pods.",
				MatchingRules: []configv1.ClusterCondition{{Type: "Always"}}}},
			Conditions: []metav1.Condition{{Type: "Recommended", Status: metav1.ConditionFalse, Reason: "OVNHang", Message: "OVN may hang.", LastTransitionTime: started}},
		}},
	}
}

// startPlanInformer serves an informer that handles plans, with the timeout
// discovery announces, answering with findings of these uids after delay.
func startPlanInformer(t testing.TB, name string, timeout, delay time.Duration, uids ...string) *atomic.Int32 {
	t.Helper()
	var calls atomic.Int32
	answer := informertest.PlanFunc(func(_ context.Context, req *protocol.UpdatePlanInsightsRequest) (*protocol.UpdatePlanInsightsResponse, error) {
		calls.Add(1)
		time.Sleep(delay)
		resp := &protocol.UpdatePlanInsightsResponse{Status: protocol.ResponseStatus{Response: protocol.ResponseSuccess}}
		for _, uid := range uids {
			resp.Spec.Insights = append(resp.Spec.Insights, protocol.Insight{
				UID:    uid,
				Scope:  protocol.Scope{Type: protocol.ScopeControlPlane},
				Impact: protocol.Impact{Level: protocol.LevelWarning, Type: protocol.ImpactUpdateSpeed, Summary: name + " found " + uid + " for " + req.Spec.TargetControlPlaneVersion},
			})
		}
		return resp, nil
	})
	handler, err := informer.NewHandler(answer, informer.WithTimeout(protocol.HandlerPlan, timeout))
	if err != nil {
		t.Fatal(err)
	}
	ca := informertest.NewCA(t)
	server := informertest.NewTLSServer(t, handler, ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	createInformer(t, &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{
			URL: ptr.To(server.URL), CABundle: ca.PEM,
		}},
	})
	return &calls
}

func getPlan(name string) func(context.Context) (*insightsv1alpha1.UpdatePlan, error) {
	return func(ctx context.Context) (*insightsv1alpha1.UpdatePlan, error) {
		return insightsClient.InsightsV1alpha1().UpdatePlans().Get(ctx, name, metav1.GetOptions{})
	}
}

// planFindings are the identities of a plan's findings, accepted ones
// marked, sorted.
func planFindings(p *insightsv1alpha1.UpdatePlan) []string {
	var out []string
	if p == nil {
		return nil
	}
	add := func(informers []insightsv1alpha1.InformerPlanInsights) {
		for _, i := range informers {
			for _, f := range i.Insights {
				id := f.Identity
				if f.Accepted {
					id += " (accepted)"
				}
				out = append(out, id)
			}
		}
	}
	add(p.Status.ControlPlane.Informers)
	for _, pool := range p.Status.WorkerPools {
		add(pool.Informers)
	}
	slices.Sort(out)
	return out
}

func planCondition(p *insightsv1alpha1.UpdatePlan, t string) string {
	if p == nil {
		return ""
	}
	if c := meta.FindStatusCondition(p.Status.Conditions, t); c != nil {
		return string(c.Status) + "/" + c.Reason
	}
	return ""
}

// The identities of the findings the plan holds; riskIdentity is the
// pre-checks tests'.
const (
	// The operators these tests start read no alerts (--alerts-url=).
	alertsUncheckedIdentity = "update-insights-operator/ControlPlane/ClusterOperator.config.openshift.io/monitoring/alerts-unchecked"
	durationIdentity        = "update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/duration"
	mcoIdentity             = "mco/ControlPlane//drain"
	// slowUnansweredIdentity is the operator's finding that informer slow
	// did not answer in time.
	slowUnansweredIdentity = "update-insights-operator/ControlPlane/UpdateInformer.openshift.muller.dev/slow/informer/slow"
)

// A plan holds the operator's own findings and those of every informer
// that handles plans; a slow informer is reported, not waited for forever;
// accepting every finding makes the plan accepted; and the plan goes once
// the cluster reached its target.
func TestUpdatePlansHoldEveryFindingAndTheirAcceptance(t *testing.T) {
	createClusterVersion(t, nil, plannedStatus())
	mcoCalls := startPlanInformer(t, "mco", 10*time.Second, 0, "drain")
	startPlanInformer(t, "slow", time.Second, 3*time.Second, "never-seen")
	startOperator(t, informerInterval)
	waitFor(t, eventually, "both informers discovered as handling plans", func(ctx context.Context) (*insightsv1alpha1.UpdateInformerList, error) {
		return insightsClient.InsightsV1alpha1().UpdateInformers().List(ctx, metav1.ListOptions{})
	}, func(l *insightsv1alpha1.UpdateInformerList) bool {
		handling := 0
		for _, i := range l.Items {
			if len(i.Status.Handlers) > 0 {
				handling++
			}
		}
		return handling == 2
	})

	plans := insightsClient.InsightsV1alpha1().UpdatePlans()
	plan := updatePlan(planTarget, planTarget)
	plan.Spec.EvaluationRequest = "r1"
	if _, err := createAndDelete(t, plans.Create, plans.Delete, plan); err != nil {
		t.Fatal(err)
	}
	waitFor(t, eventually, "the findings, and the slow informer offline", getPlan(planTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		return slices.Equal(planFindings(p), []string{mcoIdentity, alertsUncheckedIdentity, durationIdentity, riskIdentity, slowUnansweredIdentity}) &&
			planCondition(p, updateplan.ConditionAnswered) == "False/"+updateplan.ReasonInformersOffline &&
			planCondition(p, updateplan.ConditionAccepted) == "False/"+updateplan.ReasonNotAccepted &&
			p.Status.ObservedEvaluationRequest == "r1"
	})

	// The administrator accepts the findings, the alert checks that did
	// not run among them; the slow informer is disabled, so that every
	// informer that handles plans has answered.
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		p, err := plans.Get(context.Background(), planTarget, metav1.GetOptions{})
		if err != nil {
			return err
		}
		p.Spec.AcceptedInsights = []insightsv1alpha1.AcceptedInsight{
			{UpdateInformer: "update-insights-operator", UID: riskIdentity, Accepted: true},
			{UpdateInformer: "update-insights-operator", UID: alertsUncheckedIdentity, Accepted: true},
			{UpdateInformer: "mco", UID: mcoIdentity, Accepted: true},
		}
		_, err = plans.Update(context.Background(), p, metav1.UpdateOptions{})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		i, err := insightsClient.InsightsV1alpha1().UpdateInformers().Get(context.Background(), "slow", metav1.GetOptions{})
		if err != nil {
			return err
		}
		i.Spec.Enabled = ptr.To(false)
		_, err = insightsClient.InsightsV1alpha1().UpdateInformers().Update(context.Background(), i, metav1.UpdateOptions{})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, eventually, "every finding accepted, every informer answered", getPlan(planTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		return slices.Equal(planFindings(p), []string{mcoIdentity + " (accepted)", alertsUncheckedIdentity + " (accepted)", durationIdentity, riskIdentity + " (accepted)"}) &&
			planCondition(p, updateplan.ConditionAnswered) == "True/"+updateplan.ReasonAllAnswered &&
			planCondition(p, updateplan.ConditionAccepted) == "True/"+updateplan.ReasonAllAccepted
	})
	if n := mcoCalls.Load(); n != 1 {
		t.Errorf("mco was asked %d times, want once: accepting asks no one again", n)
	}

	// The cluster completes the update to the plan's target after the plan
	// was evaluated: the plan goes, and an Event says why.
	evaluated, err := plans.Get(context.Background(), planTarget, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cv, err := configClient.ConfigV1().ClusterVersions().Get(context.Background(), "version", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	done := metav1.NewTime(time.Now().Truncate(time.Second))
	if !done.After(evaluated.Status.EvaluatedAt.Time) {
		done = metav1.NewTime(evaluated.Status.EvaluatedAt.Add(time.Second))
	}
	cv.Status.Desired = configv1.Release{Version: planTarget, Image: "quay.io/release:" + planTarget}
	cv.Status.History = append([]configv1.UpdateHistory{{Version: planTarget, Image: "quay.io/release:" + planTarget, State: configv1.CompletedUpdate, StartedTime: done, CompletionTime: &done}}, cv.Status.History...)
	if _, err := configClient.ConfigV1().ClusterVersions().UpdateStatus(context.Background(), cv, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, eventually, "the plan pruned", getPlan(planTarget), func(p *insightsv1alpha1.UpdatePlan) bool { return p == nil })
	selector := "involvedObject.kind=UpdatePlan,involvedObject.name=" + planTarget + ",reason=" + updateplan.ReasonPruned
	events, err := kubeClient.CoreV1().Events(metav1.NamespaceDefault).List(context.Background(), metav1.ListOptions{FieldSelector: selector})
	if err != nil {
		t.Fatal(err)
	}
	var messages []string
	for _, e := range events.Items {
		if e.InvolvedObject.UID == evaluated.UID {
			messages = append(messages, e.Message)
		}
	}
	want := []string{fmt.Sprintf("Deleted, as the cluster completed its update to %s at %s, at or past the plan's target, after the plan was evaluated",
		planTarget, done.UTC().Format(time.RFC3339))}
	if diff := cmp.Diff(want, messages); diff != "" {
		t.Errorf("the Events on the pruned plan (-want +got):\n%s", diff)
	}
}

// On a recorded cluster, the operator's plan holds what its pre-checks
// find of that cluster as the API server serves it.
func TestAPlanOfARecordedCluster(t *testing.T) {
	recorded := loadRecorded(t, "4.14.1-paused-worker-pool")
	createRecorded(t, recorded)
	startOperator(t)
	plans := insightsClient.InsightsV1alpha1().UpdatePlans()
	if _, err := createAndDelete(t, plans.Create, plans.Delete, updatePlan("4.15.0", "4.15.0")); err != nil {
		t.Fatal(err)
	}
	want := []string{
		alertsUncheckedIdentity,
		durationIdentity,
		"update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/not-offered",
		"update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/update-in-progress",
		"update-insights-operator/WorkerPool/MachineConfigPool.machineconfiguration.openshift.io/worker/pool/worker/paused",
	}
	waitFor(t, eventually, "the pre-checks' findings", getPlan("4.15.0"), func(p *insightsv1alpha1.UpdatePlan) bool {
		return slices.Equal(planFindings(p), want) && planCondition(p, updateplan.ConditionAnswered) == "True/"+updateplan.ReasonAllAnswered
	})
}
