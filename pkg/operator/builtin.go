package operator

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// builtinInformer is an UpdateInformer the operator answers itself, under a
// name no UpdateInformer may take. Adding one is a package of its own (its
// controller and its pure logic), a file here that implements this and
// whichever of withInsights and withFindings it has, and a line in
// builtinInformers: the starter derives the rest from the list.
type builtinInformer interface {
	// name names its insights in UpdateStatus and its findings in plans.
	name() string
	// api is what it reads that not every cluster serves, nil when it
	// reads only what every cluster does: until the cluster serves it, the
	// informer says nothing, and its controller is off.
	api() *optionalAPI
}

// withInsights is a built-in informer that keeps its insights in the
// store UpdateStatus is computed from while the cluster updates.
type withInsights interface {
	builtinInformer
	// controllerName names its controller in the operator's conditions.
	controllerName() string
	// controller builds that controller, once the cluster serves api.
	controller(answers *updatestatus.Store) (factory.Controller, error)
}

// withFindings is a built-in informer that has findings for a plan,
// besides the plan controller's own pre-checks.
type withFindings interface {
	builtinInformer
	// planner builds what makes them, once the cluster serves api: it
	// reads informers, by resource, which factory starts.
	planner() (p updateplan.Planner, informers map[string]cache.SharedIndexInformer, factory informerFactory)
	// unchecked is the operator's own finding, in the informer's words,
	// that its findings for an update to target could not be made.
	unchecked(target string, why error, now time.Time) insightsv1alpha1.UpdateInsight
}

// builtinInformers are the operator's own informers, in the order
// UpdateStatus and plans serve them first: updatestatus.BuiltinInformers,
// which a test holds equal to this list, as it does the names the
// UpdateInformer CRD's rule reserves.
func (s *starter) builtinInformers() []builtinInformer {
	return []builtinInformer{ownInformer{}, olmInformer{s}}
}

// startBuiltinInformers runs the controller of each built-in informer that
// keeps insights in answers, once the cluster serves its API. It returns
// whether an informer's controller runs, which, when the cluster serves
// its API at start, is true already on return.
func (s *starter) startBuiltinInformers(ctx context.Context, answers *updatestatus.Store) (running func(informer string) bool) {
	started := map[string]*atomic.Bool{}
	for _, b := range s.builtinInformers() {
		w, ok := b.(withInsights)
		if !ok {
			continue
		}
		run := &atomic.Bool{}
		started[b.name()] = run
		s.whenServedRun(ctx, b.api(), w.controllerName(), func() {
			controller, err := w.controller(answers)
			if err != nil {
				// Its informers stopped: the operator is on its way out.
				klog.ErrorS(err, "Cannot start a built-in informer's controller", "controller", w.controllerName())
				return
			}
			run.Store(true)
			s.run(ctx, controller, 1)
		})
	}
	return func(informer string) bool {
		run, ok := started[informer]
		return ok && run.Load()
	}
}

// whenServedRun calls start once the cluster serves api (at once when api
// is nil), switching controller on then, and off while it is not served.
func (s *starter) whenServedRun(ctx context.Context, api *optionalAPI, controller string, start func()) {
	if api == nil {
		start()
		return
	}
	whenServed(ctx, s.clients.config.Discovery(), *api, s.options.OptionalAPIInterval, controller,
		func(why string, _ bool) { s.tracker.SwitchOff(controller, why) },
		func() {
			s.tracker.SwitchOn(controller)
			start()
		})
}

// builtinPlanners are the built-in informers with findings for a plan, and
// for each what the plan controller asks, read once servePlanners finds
// its API served.
func (s *starter) builtinPlanners() ([]withFindings, []updateplan.BuiltinPlanner) {
	var informers []withFindings
	var planners []updateplan.BuiltinPlanner
	for _, b := range s.builtinInformers() {
		if w, ok := b.(withFindings); ok {
			informers = append(informers, w)
			planners = append(planners, updateplan.BuiltinPlanner{Planner: updateplan.NewOptional[updateplan.Planner](), Unchecked: w.unchecked})
		}
	}
	return informers, planners
}

// servePlanners has the plan controller read each built-in informer's
// planner once the cluster serves its API.
func (s *starter) servePlanners(ctx context.Context, informers []withFindings, planners []updateplan.BuiltinPlanner) {
	for i, b := range informers {
		optional := planners[i].Planner
		serve := func() {
			p, informers, factory := b.planner()
			serveOptional(ctx, optional, p, informers, s.tracker, factory)
		}
		if b.api() == nil {
			serve()
			continue
		}
		whenServed(ctx, s.clients.config.Discovery(), *b.api(), s.options.OptionalAPIInterval, updateplan.Name+" ("+b.name()+")", optional.Off, serve)
	}
}

// ownInformer is the operator's own informer. Its insights while the
// cluster updates are the insight resources its controllers write, which
// the UpdateStatus controller reads itself, and its findings for a plan
// are the plan controller's pre-checks: it reads what every cluster
// serves, and neither keeps insights in the store nor has a planner.
type ownInformer struct{}

func (ownInformer) name() string      { return updatestatus.BuiltinInformer }
func (ownInformer) api() *optionalAPI { return nil }
