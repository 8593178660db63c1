package integration

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

const (
	// planReadySamples is how many evaluations are timed, each asked by a
	// new spec.evaluationRequest of the plan.
	planReadySamples = 10

	// planReadySlowDelay is how long the slow informer takes to answer,
	// well within the budget its discovery announces
	// (planReadySlowBudget).
	planReadySlowDelay  = 3 * time.Second
	planReadySlowBudget = 10 * time.Second

	// planReadyIdle separates one evaluation from the next once the plan
	// was ready, so that each meets an operator with nothing pending.
	planReadyIdle = time.Second

	// planReadyTimeout bounds every wait.
	planReadyTimeout = 30 * time.Second
)

// planReadyFast are the informers that answer at once; planReadySlow
// answers after planReadySlowDelay.
var (
	planReadyFast = []string{"fast-a", "fast-b"}
	planReadySlow = "slow"
)

// BenchmarkUpdatePlanReady measures how long an UpdatePlan takes to answer
// an evaluation, as `pre-checks` sees it through a watch of the plan, with
// three informers that handle plans (real HTTPS servers on loopback,
// registered by URL): two that answer at once and one that answers after
// planReadySlowDelay, within its budget. Each sample starts just before
// the merge patch of a new spec.evaluationRequest (what `pre-checks` writes
// to a plan that exists) and ends when the watch delivers:
//
//   - own-*: the operator's own findings answering that request, the plan
//     Answered=False/WaitingForInformers (the informers are asked in
//     goroutines of their own, so the operator's pre-checks do not wait
//     for them);
//   - fast-*: besides those, the findings of both fast informers, while
//     the slow one is still thinking (it holds up only itself);
//   - ready-*: observedEvaluationRequest is the request and Answered=True,
//     every informer heard: what `pre-checks` waits for. Its floor is the
//     slow informer's planReadySlowDelay.
//
// The operator runs as a process of its own, as in a cluster, against a
// ClusterVersion offered the plan's target as a conditional update. The
// plan's creation, just after the operator started, is evaluated first and
// only logged: the operator may still be starting. The
// benchmark's clients have no client-side rate limit.
//
//	KUBEBUILDER_ASSETS=$(hack/install-testbin.sh) go test ./test/integration/ -run '^$' -bench UpdatePlanReady -benchtime 1x
//
// The samples are taken once per call of the benchmark function, whatever
// b.N, so use -benchtime 1x.
func BenchmarkUpdatePlanReady(b *testing.B) {
	cfg := rest.CopyConfig(testEnv.Config)
	cfg.QPS = -1
	plans := insightsclient.NewForConfigOrDie(cfg).InsightsV1alpha1().UpdatePlans()

	createClusterVersion(b, nil, plannedStatus())
	calls := map[string]*atomic.Int32{}
	for _, name := range planReadyFast {
		calls[name] = startPlanInformer(b, name, planReadySlowBudget, 0, "finding")
	}
	calls[planReadySlow] = startPlanInformer(b, planReadySlow, planReadySlowBudget, planReadySlowDelay, "finding")
	startOperator(b)
	waitFor(b, planReadyTimeout, "the three informers discovered as handling plans", func(ctx context.Context) (*insightsv1alpha1.UpdateInformerList, error) {
		return insightsClient.InsightsV1alpha1().UpdateInformers().List(ctx, metav1.ListOptions{})
	}, func(l *insightsv1alpha1.UpdateInformerList) bool {
		handling := 0
		for _, i := range l.Items {
			if slices.ContainsFunc(i.Status.Handlers, func(h insightsv1alpha1.InformerHandler) bool { return h.Name == insightsv1alpha1.PlanHandler }) {
				handling++
			}
		}
		return handling == len(calls)
	})
	discovered := time.Now()

	w, err := plans.Watch(context.Background(), metav1.ListOptions{
		FieldSelector: fields.OneTermEqualSelector("metadata.name", planTarget).String(),
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(w.Stop)

	// The plan is created, and its first evaluation awaited, before the
	// samples: the operator has just started, and its UpdatePlan
	// controller may still be syncing its caches (informers are discovered
	// by another controller, which may start first), which is start-up,
	// not evaluation. It is logged, not counted.
	start := time.Now()
	plan := updatePlan(planTarget, planTarget)
	plan.Spec.EvaluationRequest = "created"
	if _, err := createAndDelete(b, plans.Create, plans.Delete, plan); err != nil {
		b.Fatal(err)
	}
	created := awaitPlanReady(b, w, plan.Spec.EvaluationRequest)
	b.Logf("the plan created %s after the informers were discovered, not counted: own findings %s, fast informers' %s, ready %s",
		start.Sub(discovered).Round(time.Millisecond), created.own.Sub(start).Round(time.Millisecond),
		created.fast.Sub(start).Round(time.Millisecond), created.ready.Sub(start).Round(time.Millisecond))
	time.Sleep(planReadyIdle)

	var own, fast, ready []time.Duration
	for n := range planReadySamples {
		request := fmt.Sprintf("sample-%02d", n)
		patch := fmt.Sprintf(`{"spec":{"evaluationRequest":%q}}`, request)
		start := time.Now()
		if _, err := plans.Patch(context.Background(), planTarget, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
			b.Fatal(err)
		}
		s := awaitPlanReady(b, w, request)
		own = append(own, s.own.Sub(start))
		fast = append(fast, s.fast.Sub(start))
		ready = append(ready, s.ready.Sub(start))
		time.Sleep(planReadyIdle)
	}
	for name, c := range calls {
		if got := c.Load(); got != planReadySamples+1 {
			b.Errorf("informer %s was asked %d times, want once per evaluation (%d)", name, got, planReadySamples+1)
		}
	}
	b.ReportMetric(planReadySlowDelay.Seconds(), "slow-informer-s")
	reportLatencies(b, "own", own)
	reportLatencies(b, "fast", fast)
	reportLatencies(b, "ready", ready)
}

// planReadyTimes are when the watch delivered each stage of one
// evaluation.
type planReadyTimes struct {
	own, fast, ready time.Time
}

// awaitPlanReady follows the plan's watch until it answers request with
// every informer heard, and returns when each stage was first seen. A
// stage skipped (two written at once) counts as seen with the next.
func awaitPlanReady(b *testing.B, w watch.Interface, request string) planReadyTimes {
	b.Helper()
	var s planReadyTimes
	deadline := time.After(planReadyTimeout)
	for {
		select {
		case e, open := <-w.ResultChan():
			at := time.Now()
			if !open {
				b.Fatalf("the UpdatePlan watch closed while waiting for request %s", request)
			}
			p, isPlan := e.Object.(*insightsv1alpha1.UpdatePlan)
			if !isPlan || e.Type == watch.Deleted || p.Status.ObservedEvaluationRequest != request {
				continue
			}
			answered := meta.FindStatusCondition(p.Status.Conditions, updateplan.ConditionAnswered)
			if answered == nil {
				continue
			}
			informers := planInformersAnswered(p)
			if s.own.IsZero() && informers[updatestatus.BuiltinInformer] {
				s.own = at
				if answered.Reason != updateplan.ReasonWaitingForInformers {
					b.Fatalf("the plan's first answer to %s is Answered=%s/%s, want WaitingForInformers: %s", request, answered.Status, answered.Reason, answered.Message)
				}
			}
			if s.fast.IsZero() && !s.own.IsZero() && informers[planReadyFast[0]] && informers[planReadyFast[1]] {
				s.fast = at
			}
			if answered.Status == metav1.ConditionTrue {
				if !informers[planReadySlow] || s.fast.IsZero() {
					b.Fatalf("the plan answers %s as Answered without every informer's findings: %+v", request, informers)
				}
				s.ready = at
				return s
			}
		case <-deadline:
			b.Fatalf("the plan did not answer request %s within %s", request, planReadyTimeout)
		}
	}
}

// planInformersAnswered are the informers whose findings the plan holds.
func planInformersAnswered(p *insightsv1alpha1.UpdatePlan) map[string]bool {
	out := map[string]bool{}
	add := func(informers []insightsv1alpha1.InformerPlanInsights) {
		for _, i := range informers {
			if len(i.Insights) > 0 && !i.Stale {
				out[i.Name] = true
			}
		}
	}
	add(p.Status.ControlPlane.Informers)
	for _, pool := range p.Status.WorkerPools {
		add(pool.Informers)
	}
	return out
}
