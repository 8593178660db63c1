package updateinformers

import (
	"context"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	coreclient "k8s.io/client-go/kubernetes/typed/core/v1"
	discoveryclient "k8s.io/client-go/kubernetes/typed/discovery/v1"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/text"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// PlanAsker asks informers what might go wrong in an update, reaching them
// as the controller does. It holds no connection between calls: a plan's
// informers are asked once per evaluation round, minutes apart.
type PlanAsker struct {
	services       coreclient.ServicesGetter
	endpointSlices discoveryclient.EndpointSlicesGetter
	limit          *client.Limit
	clock          clock.Clock
}

// NewPlanAsker returns an asker that reads Services and EndpointSlices
// through these clients, its requests in flight bounded by limit, which
// it shares with the Controller.
func NewPlanAsker(services coreclient.ServicesGetter, endpointSlices discoveryclient.EndpointSlicesGetter, limit *client.Limit, clock clock.Clock) *PlanAsker {
	return &PlanAsker{services: services, endpointSlices: endpointSlices, limit: limit, clock: clock}
}

// AskPlan asks the informer for its findings about an update of the
// cluster to target, within the budget its discovery announced for plans.
// The CA bundle is the informer's own, which the controller keeps injected.
func (a *PlanAsker) AskPlan(ctx context.Context, informer *insightsv1alpha1.UpdateInformer, cv *configv1.ClusterVersion, target string) updatestatus.Answer {
	start := a.clock.Now()
	answer, err := a.ask(ctx, informer, cv, target)
	observe(informer.Name, "plan", a.clock.Since(start), err)
	if err != nil {
		if body := client.AnsweredBody(err); body != "" {
			klog.V(4).InfoS("An update informer's error answer to a plan", "informer", informer.Name, "body", body)
		}
		return updatestatus.Answer{Informer: informer.Name, Offline: reasonOf(err), Problem: text.Truncate(err.Error(), maxMessageLength)}
	}
	return answer
}

func (a *PlanAsker) ask(ctx context.Context, informer *insightsv1alpha1.UpdateInformer, cv *configv1.ClusterVersion, target string) (updatestatus.Answer, error) {
	config, err := clientConfig(ctx, informer, a.services, a.endpointSlices)
	if err != nil {
		return updatestatus.Answer{}, err
	}
	config.Clock, config.UserAgent, config.Limit = a.clock, userAgent, a.limit
	cl, err := client.New(config)
	if err != nil {
		return updatestatus.Answer{}, &unreachableError{err}
	}
	defer cl.Close()
	req := &protocol.UpdatePlanInsightsRequest{Spec: request(cv).Spec}
	req.Spec.TargetControlPlaneVersion = target
	resp, err := cl.PlanInsights(ctx, req, planTimeout(informer))
	if err != nil {
		return updatestatus.Answer{}, err
	}
	found := convert(informer.Name, resp.Spec.Insights)
	if problem := found.problem(); problem != "" {
		klog.InfoS("An informer reported plan findings the API would refuse; they are left out of the plan, which cannot be accepted while they are", "informer", informer.Name, "problem", problem)
	}
	return updatestatus.Answer{Informer: informer.Name, Insights: found.insights, Problem: found.problem()}, nil
}

// planTimeout is the budget the informer's discovery announced for plans,
// or the protocol's default.
func planTimeout(informer *insightsv1alpha1.UpdateInformer) time.Duration {
	for _, h := range informer.Status.Handlers {
		if h.Name == insightsv1alpha1.PlanHandler && h.TimeoutSeconds > 0 {
			return time.Duration(h.TimeoutSeconds) * time.Second
		}
	}
	return protocol.DefaultTimeoutSeconds * time.Second
}
