// Package olmoperators makes OLM's operators a source of insights, under
// the informer name operator-lifecycle-manager: while the cluster updates,
// the health of their CSVs in UpdateStatus (this controller), and for an
// UpdatePlan the findings the plan controller asks Read for.
package olmoperators

import (
	"context"
	"fmt"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	configinformers "github.com/openshift/client-go/config/informers/externalversions/config/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/queue"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/olm"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

const (
	controllerName = "OLMOperatorsController"
	// Name names the controller in the operator's conditions and metrics.
	Name = "OLMOperators"
)

// Controller puts the health of OLM's operators during an update in the
// store the UpdateStatus is written from.
type Controller struct {
	listers         Listers
	clusterVersions configlisters.ClusterVersionLister
	answers         *updatestatus.Store
	clock           clock.PassiveClock
}

// New returns the controller, registered with the informers it reads.
func New(informers Informers, clusterVersions configinformers.ClusterVersionInformer, answers *updatestatus.Store,
	tracker *tracker.Tracker, recorder events.Recorder, clock clock.PassiveClock) (factory.Controller, error) {
	listers, olmInformers := informers.Listers()
	c := &Controller{listers: listers, clusterVersions: clusterVersions.Lister(), answers: answers, clock: clock}
	syncCtx := factory.NewSyncContext(controllerName, recorder)
	if _, err := clusterVersions.Informer().AddEventHandler(updateStartHandler(func() { syncCtx.Queue().Add(factory.DefaultQueueKey) })); err != nil {
		return nil, err
	}
	tracker.WaitsFor(Name, map[string]cache.InformerSynced{
		"clusterserviceversions": olmInformers[0].HasSynced,
		"subscriptions":          olmInformers[1].HasSynced,
		"clusterversions":        clusterVersions.Informer().HasSynced,
	})
	return factory.New().
		WithSyncContext(syncCtx).
		WithSync(tracker.Sync(Name, c.sync)).
		// InstallPlans name no CSV's health: their informer serves plans.
		WithInformers(olmInformers[0], olmInformers[1]).
		WithBareInformers(clusterVersions.Informer()).
		ToController(controllerName, recorder), nil
}

func (c *Controller) sync(_ context.Context, syncCtx factory.SyncContext) error {
	cv, err := c.clusterVersions.Get(names.ClusterVersion)
	if apierrors.IsNotFound(err) {
		cv, err = nil, nil
	}
	if err != nil {
		return err
	}
	started := updateStarted(cv)
	if started.IsZero() {
		c.answers.Delete(olm.Informer)
		return nil
	}
	cluster, err := c.listers.cluster(false)
	if err != nil {
		return err
	}
	insights, recheck := olm.Health(olm.HealthInput{Cluster: cluster, UpdateStarted: started, Now: c.clock.Now()})
	if recheck > 0 {
		// A CSV out of Succeeded for less than olm.Settle is reported
		// once it has been for that long, if nothing else changes first.
		syncCtx.Queue().AddAfter(factory.DefaultQueueKey, recheck)
	}
	if len(insights) == 0 {
		c.answers.Delete(olm.Informer)
		return nil
	}
	klog.V(4).InfoS("OLM's operators during the update", "insights", len(insights))
	c.answers.Set(updatestatus.Answer{Informer: olm.Informer, Insights: insights})
	return nil
}

// updateStartHandler calls enqueue when the ClusterVersion appears, goes or
// says that an update started or ended: the sync reads nothing else of it,
// and its every other change, such as each manifest the cluster-version
// operator applies, would list every CSV again for nothing.
func updateStartHandler(enqueue func()) cache.ResourceEventHandler {
	// Unix seconds: the API's times have no finer precision.
	return queue.WhenChanged(func(cv *configv1.ClusterVersion) int64 { return updateStarted(cv).Unix() }, enqueue)
}

// updateStarted is when the update in progress started, zero when none is:
// the newest history entry, once the cluster-version operator added the
// one of the desired release.
func updateStarted(cv *configv1.ClusterVersion) time.Time {
	if cv == nil || !updatestatus.Pending(cv) || len(cv.Status.History) == 0 {
		return time.Time{}
	}
	h := cv.Status.History[0]
	if h.State != configv1.PartialUpdate || (cv.Status.Desired.Version != "" && h.Version != cv.Status.Desired.Version) {
		return time.Time{}
	}
	return h.StartedTime.Time
}

// cluster reads OLM's objects from the caches; the InstallPlans only when
// asked for.
func (l Listers) cluster(installPlans bool) (olm.Cluster, error) {
	var c olm.Cluster
	var err error
	if c.CSVs, err = l.CSVs.List(labels.Everything()); err != nil {
		return c, err
	}
	if c.Subscriptions, err = l.Subscriptions.List(labels.Everything()); err != nil {
		return c, err
	}
	if installPlans {
		c.InstallPlans, err = l.InstallPlans.List(labels.Everything())
	}
	return c, err
}

// Plan returns the findings of OLM's operators for an update from current
// to target, as the answer of the informer operator-lifecycle-manager.
func (l Listers) Plan(current, target string, now time.Time) (updatestatus.Answer, error) {
	cluster, err := l.cluster(true)
	if err != nil {
		return updatestatus.Answer{}, fmt.Errorf("reading OLM's objects: %w", err)
	}
	return updatestatus.Answer{Informer: olm.Informer, Insights: olm.Plan(olm.PlanInput{Cluster: cluster, Current: current, Target: target, Now: now})}, nil
}
