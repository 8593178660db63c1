package operator

import (
	"context"

	"github.com/openshift/library-go/pkg/controller/factory"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/updateinformers"
	updatestatuscontroller "github.com/update-insights/update-insights-operator/pkg/controllers/updatestatus"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions"
	informerclient "github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// updateStatusController returns the controller of UpdateStatus/cluster,
// computed from the insights and from the informers' answers in answers.
func (s *starter) updateStatusController(answers *updatestatus.Store) (factory.Controller, error) {
	return updatestatuscontroller.New(
		s.factories.config.Config().V1().ClusterVersions(),
		s.factories.insights.Insights().V1alpha1(),
		s.clients.insights.InsightsV1alpha1(),
		answers,
		s.tracker,
		s.controllerContext.EventRecorder,
		s.controllerContext.Clock,
	)
}

// updateInformersController returns the controller that asks the
// UpdateInformers for their insights, within requests, and puts their
// answers in answers.
func (s *starter) updateInformersController(answers *updatestatus.Store, requests *informerclient.Limit) (factory.Controller, error) {
	return updateinformers.New(
		s.factories.insights.Insights().V1alpha1().UpdateInformers(),
		s.factories.config.Config().V1().ClusterVersions(),
		// The Services and EndpointSlices of Service-backed informers are
		// read when an informer is called, and each informer's own are
		// watched, rather than cached: they may be in any namespace, and a
		// cache would hold every one of the cluster for a handful of
		// informers.
		s.clients.kube,
		s.clients.kube.CoreV1(),
		s.clients.insights.InsightsV1alpha1(),
		answers,
		s.options.InformerInterval,
		requests,
		s.tracker,
		s.controllerContext.EventRecorder,
		s.controllerContext.Clock,
	)
}

// startUpdateStatus runs UpdateStatus' controller once answers is seeded.
// A restart must not empty UpdateStatus of the external informers'
// insights before they are asked again: the store starts with what the
// UpdateStatus holds, and the controller that writes it starts after.
// Meanwhile the other controllers run, and the tracker reports caches
// that do not sync. So with the built-in informers whose controller
// running says runs: until that controller's first sync.
func (s *starter) startUpdateStatus(ctx context.Context, controller factory.Controller, answers *updatestatus.Store, running func(informer string) bool) {
	go func() {
		if seedAnswers(ctx, s.factories.insights, answers, running) {
			s.run(ctx, controller, 1)
		}
	}()
}

// seedAnswers seeds the store from the UpdateStatus once the caches of
// UpdateStatuses and UpdateInformers have synced, with the built-in
// informers whose controller running says runs; false when ctx ended
// first.
func seedAnswers(ctx context.Context, insightInformers insightinformers.SharedInformerFactory, answers *updatestatus.Store, running func(informer string) bool) bool {
	statuses := insightInformers.Insights().V1alpha1().UpdateStatuses()
	informers := insightInformers.Insights().V1alpha1().UpdateInformers()
	insightInformers.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), statuses.Informer().HasSynced, informers.Informer().HasSynced) {
		return false
	}
	status, err := statuses.Lister().Get(insightsv1alpha1.UpdateStatusName)
	if err != nil {
		// None yet: nothing to keep.
		return true
	}
	for _, informer := range updatestatus.BuiltinInformers {
		if running(informer) {
			answers.SeedBuiltin(status, informer)
		}
	}
	all, err := informers.Lister().List(labels.Everything())
	if err != nil {
		return true
	}
	updateinformers.Seed(answers, status, all)
	return true
}
