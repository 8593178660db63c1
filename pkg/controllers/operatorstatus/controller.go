// Package operatorstatus maintains the operator's own ClusterOperator, through
// which the cluster-version operator, `oc get clusteroperators` and
// must-gather see how the operator itself is doing. The tracker collects the
// problems of every controller's syncs (problem.go); Consolidate decides the
// conditions from them without a client or a clock of its own
// (consolidate.go), so that its rules are tested alone.
package operatorstatus

import (
	"context"
	"fmt"
	"slices"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	configv1client "github.com/openshift/client-go/config/clientset/versioned/typed/config/v1"
	configinformers "github.com/openshift/client-go/config/informers/externalversions/config/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

const (
	// ControllerName names this controller in metrics and in the problems it
	// may itself have.
	ControllerName = "OperatorStatus"

	// startingRecheck is how often the status is looked at while caches are
	// syncing: nothing else tells this controller when they have.
	startingRecheck = time.Second
)

// payloadAnnotations are those of the ClusterOperator's manifest: a
// ClusterOperator this controller recreates is the one the payload has.
var payloadAnnotations = map[string]string{
	"include.release.openshift.io/self-managed-high-availability": "true",
	"include.release.openshift.io/single-node-developer":          "true",
	"include.release.openshift.io/ibm-cloud-managed":              "true",
}

// Options are what the controller reports and how patient it is.
type Options struct {
	// Version is the version the operator runs, reported once it runs.
	Version string
	// Namespace is the operator's namespace, a related object.
	Namespace string
	// GracePeriod is how long a problem lasts before it degrades the operator.
	GracePeriod time.Duration
	// Topology is how the cluster's control plane runs, which Available's
	// message names when it is hosted.
	Topology hosted.Topology
}

// Controller writes the ClusterOperator's conditions, versions and related
// objects. It owns nothing else of it: metadata and spec are the
// cluster-version operator's, and conditions and versions of other types or
// names are left as they are.
type Controller struct {
	operators configlisters.ClusterOperatorLister
	// clusterVersions tells whether the cluster has the Console capability,
	// which decides whether the ConsolePlugin is a related object.
	clusterVersions       configlisters.ClusterVersionLister
	clusterVersionsSynced cache.InformerSynced
	client                configv1client.ClusterOperatorsGetter
	tracker               *tracker.Tracker
	options               Options
	clock                 clock.PassiveClock

	// inherited says whether the tracker has been given the failures the
	// ClusterOperator reported before this process started. Only the one
	// worker of this controller reads and sets it.
	inherited bool
}

// New returns the controller, registered with the ClusterOperator and
// ClusterVersion informers, and queued by the tracker whenever a problem
// appears or goes.
func New(
	operators configinformers.ClusterOperatorInformer,
	clusterVersions configinformers.ClusterVersionInformer,
	client configv1client.ClusterOperatorsGetter,
	tracker *tracker.Tracker,
	options Options,
	recorder events.Recorder,
	clock clock.PassiveClock,
) (factory.Controller, error) {
	c := &Controller{
		operators:             operators.Lister(),
		clusterVersions:       clusterVersions.Lister(),
		clusterVersionsSynced: clusterVersions.Informer().HasSynced,
		client:                client,
		tracker:               tracker,
		options:               options,
		clock:                 clock,
	}
	syncCtx := factory.NewSyncContext(ControllerName, recorder)
	tracker.OnChange(func() { syncCtx.Queue().Add(names.OwnClusterOperator) })
	// Not waited for, unlike the ClusterOperators: the status must be
	// written while other caches sync, to say they do.
	if _, err := clusterVersions.Informer().AddEventHandler(consoleCapabilityHandler(func() { syncCtx.Queue().Add(names.OwnClusterOperator) })); err != nil {
		return nil, err
	}
	return factory.New().
		WithSyncContext(syncCtx).
		WithSync(tracker.Sync(ControllerName, c.sync)).
		WithFilteredEventsInformersQueueKeysFunc(
			func(runtime.Object) []string { return []string{names.OwnClusterOperator} },
			factory.NamesFilter(names.OwnClusterOperator),
			operators.Informer()).
		WithPostStartHooks(func(_ context.Context, syncCtx factory.SyncContext) error {
			// The ClusterOperator may not exist yet, and then no event
			// would ever queue it.
			syncCtx.Queue().Add(names.OwnClusterOperator)
			return nil
		}).
		ToController(ControllerName, recorder), nil
}

func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	current, err := c.operators.Get(names.OwnClusterOperator)
	if apierrors.IsNotFound(err) {
		current, err = c.create(ctx)
	}
	if err != nil {
		return err
	}
	if !c.inherited {
		// Read once per process, before this process writes over it.
		c.tracker.Inherit(Inherited(current.Status.Conditions))
		c.inherited = true
	}

	reported, _ := controlplane.OperatorVersion(current)
	status := Consolidate(Input{
		Problems: c.tracker.Problems(),
		Off:      c.tracker.Off(),
		Modes:    c.tracker.Modes(),
		Version:  c.options.Version,
		Reported: reported,
		Now:      c.clock.Now(),
		Grace:    c.options.GracePeriod,
		Topology: c.options.Topology,
	})
	if status.Recheck > 0 {
		syncCtx.Queue().AddAfter(names.OwnClusterOperator, status.Recheck)
	}
	if !status.Running {
		syncCtx.Queue().AddAfter(names.OwnClusterOperator, startingRecheck)
	}

	desired := current.DeepCopy()
	c.apply(&desired.Status, status)
	c.applyRelatedObjects(&desired.Status)
	if equality.Semantic.DeepEqual(current.Status, desired.Status) {
		return nil
	}
	if _, err := c.client.ClusterOperators().UpdateStatus(ctx, desired, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("updating the status of ClusterOperator %s: %w", names.OwnClusterOperator, err)
	}
	klog.V(2).Infof("ClusterOperator %s: %s", names.OwnClusterOperator, v1helpers.GetStatusDiff(current.Status, desired.Status))
	return nil
}

// create recreates a deleted ClusterOperator as the payload has it; its
// status is written next.
func (c *Controller) create(ctx context.Context) (*configv1.ClusterOperator, error) {
	klog.Infof("ClusterOperator %s does not exist; creating it", names.OwnClusterOperator)
	co := &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{Name: names.OwnClusterOperator, Annotations: payloadAnnotations}}
	created, err := c.client.ClusterOperators().Create(ctx, co, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("creating ClusterOperator %s: %w", names.OwnClusterOperator, err)
	}
	return created, nil
}

// apply sets the consolidated conditions, the controllers' own conditions
// (removing those of controllers that no longer fail), the operator's version
// once it runs, and the related objects.
func (c *Controller) apply(status *configv1.ClusterOperatorStatus, consolidated Consolidated) {
	for _, condition := range consolidated.Conditions {
		v1helpers.SetStatusCondition(&status.Conditions, condition, c.clock)
	}
	status.Conditions = slices.DeleteFunc(status.Conditions, func(condition configv1.ClusterOperatorStatusCondition) bool {
		return IsControllerCondition(condition.Type)
	})
	// A controller condition's transition time is its problem's start, not
	// when this process first saw it.
	status.Conditions = append(status.Conditions, consolidated.ControllerConditions...)
	if consolidated.Running {
		setVersion(&status.Versions, c.options.Version)
	}
}

// applyRelatedObjects sets the related objects, once the ClusterVersion is
// read: until then whether the cluster has the Console capability is not
// known, and what the ClusterOperator lists (from the manifest, or from
// this operator's last run) is kept rather than the ConsolePlugin dropped
// and added back.
func (c *Controller) applyRelatedObjects(status *configv1.ClusterOperatorStatus) {
	if !c.clusterVersionsSynced() && len(status.RelatedObjects) > 0 {
		return
	}
	cv, err := c.clusterVersions.Get(names.ClusterVersion)
	if err != nil {
		cv = nil
	}
	status.RelatedObjects = RelatedObjects(c.options.Namespace, ConsoleCapability(cv))
}

// consoleCapabilityHandler queues the ClusterOperator when the
// ClusterVersion appears with the Console capability or its capability
// changes, not at its every status change during an update.
func consoleCapabilityHandler(enqueue func()) cache.ResourceEventHandler {
	console := func(obj interface{}) bool {
		cv, ok := obj.(*configv1.ClusterVersion)
		return ok && cv.Name == names.ClusterVersion && ConsoleCapability(cv)
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if console(obj) {
				enqueue()
			}
		},
		UpdateFunc: func(oldObj, newObj interface{}) {
			if console(oldObj) != console(newObj) {
				enqueue()
			}
		},
	}
}

// setVersion sets the operator's entry of versions, keeping any other.
func setVersion(versions *[]configv1.OperandVersion, version string) {
	for i := range *versions {
		if (*versions)[i].Name == names.OperatorVersion {
			(*versions)[i].Version = version
			return
		}
	}
	*versions = append(*versions, configv1.OperandVersion{Name: names.OperatorVersion, Version: version})
}
