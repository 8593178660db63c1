// Package updateevents records Kubernetes Events on the ClusterVersion
// insight when an update starts or completes and when the first health
// insight at Error level or worse appears, so that `oc get events` and event
// exporters tell the story of an update without anyone watching insights.
package updateevents

import (
	"context"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

const (
	controllerName = "UpdateEventsController"

	// Name names the controller in the operator's conditions and metrics.
	Name = "UpdateEvents"
)

// Controller compares the insights with what it saw at its previous sync and
// records an Event for each change worth telling.
type Controller struct {
	clusterVersions insightslisters.ClusterVersionProgressInsightLister
	health          insightslisters.UpdateHealthInsightLister
	recorder        record.EventRecorder

	// seen is what the previous sync observed of each ClusterVersion insight,
	// by name; an insight that is gone is not in it. Every informer event
	// queues the same key, and the queue never hands one key to two workers
	// at once, so syncs never overlap and seen needs no lock.
	seen map[string]observation
}

// New returns the controller, registered with the informers it reads.
// recorder writes the Events; libgoRecorder is only what the controller
// factory reports the controller's own failures to.
func New(
	clusterVersionInsights insightinformers.ClusterVersionProgressInsightInformer,
	healthInsights insightinformers.UpdateHealthInsightInformer,
	recorder record.EventRecorder,
	tracker *tracker.Tracker,
	libgoRecorder events.Recorder,
) factory.Controller {
	c := &Controller{
		clusterVersions: clusterVersionInsights.Lister(),
		health:          healthInsights.Lister(),
		recorder:        recorder,
	}
	tracker.WaitsFor(Name, map[string]cache.InformerSynced{
		"clusterversionprogressinsights": clusterVersionInsights.Informer().HasSynced,
		"updatehealthinsights":           healthInsights.Informer().HasSynced,
	})
	return factory.New().
		WithSync(tracker.Sync(Name, c.sync)).
		WithInformers(clusterVersionInsights.Informer()).
		// The node controller alone may keep thousands of lesser health
		// insights churning; only changes at Error level or worse matter.
		WithFilteredEventsInformers(failingObject, healthInsights.Informer()).
		ToController(controllerName, libgoRecorder)
}

// failingObject says whether an informer's object is a health insight at
// Error level or worse. Given an update, the filter passes it when the old or
// the new object does, so an insight falling below Error still queues a sync.
func failingObject(obj any) bool {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	insight, ok := obj.(*insightsv1alpha1.UpdateHealthInsight)
	return ok && isFailing(insight)
}

// sync compares every ClusterVersion insight with what the previous sync saw
// of it. An insight seen for the first time, which includes every insight at
// the first sync after start, is only remembered: what it says was announced,
// if at all, by the operator instance that was running when it happened, and
// repeating that at every restart or change of leader would be noise. The
// price is that whatever happens while no instance is running, or between
// start and the first sync, is never announced.
func (c *Controller) sync(_ context.Context, _ factory.SyncContext) error {
	insights, err := c.clusterVersions.List(labels.Everything())
	if err != nil {
		return err
	}
	health, err := c.health.List(labels.Everything())
	if err != nil {
		return err
	}
	failing := failingInsights(health)

	seen := make(map[string]observation, len(insights))
	for _, insight := range insights {
		// An insight is created empty and its status written next; taking
		// the empty one as what was seen would announce the status, once
		// written, as news. Assessment is always set once written.
		if insight.Status.Assessment == "" {
			continue
		}
		before, known := c.seen[insight.Name]
		events, after := compare(before, &insight.Status, failing)
		if known {
			for _, e := range events {
				c.recorder.Event(insight, e.eventType, e.reason, e.message)
			}
		} else {
			klog.V(2).InfoS("Following a ClusterVersion insight for update events", "name", insight.Name, "assessment", insight.Status.Assessment)
		}
		seen[insight.Name] = after
	}
	c.seen = seen
	return nil
}
