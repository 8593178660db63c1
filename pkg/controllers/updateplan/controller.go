// Package updateplan fills each UpdatePlan with what might go wrong if the
// cluster updated to its target release: the operator's own pre-checks
// (pkg/precheck) and the findings of every UpdateInformer that handles
// plans, with the administrator's acceptance (pkg/updateplan). It
// re-evaluates a plan when the cluster changes or a fresh evaluation is
// asked, and prunes plans that are done with.
package updateplan

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	apiserverlisters "github.com/openshift/client-go/apiserver/listers/apiserver/v1"
	configinformers "github.com/openshift/client-go/config/informers/externalversions/config/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	machineconfigurationinformers "github.com/openshift/client-go/machineconfiguration/informers/externalversions/machineconfiguration/v1"
	machineconfigurationlisters "github.com/openshift/client-go/machineconfiguration/listers/machineconfiguration/v1"
	operatorlisters "github.com/openshift/client-go/operator/listers/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	coreinformers "k8s.io/client-go/informers/core/v1"
	policyinformers "k8s.io/client-go/informers/policy/v1"
	coreclient "k8s.io/client-go/kubernetes/typed/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	policylisters "k8s.io/client-go/listers/policy/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/typed/insights/v1alpha1"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/text"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

const (
	controllerName = "UpdatePlanController"

	// Name names the controller in the operator's conditions and metrics.
	Name = "UpdatePlans"

	// Coalesce is how long a change of the cluster waits for others before
	// the plans are evaluated again: under churn (thousands of nodes
	// changing) a plan is evaluated a few times a minute, not once per
	// change.
	Coalesce = 2 * time.Second

	// InformerRefresh is how often a plan's informers are asked again
	// while the plan exists, so that a plan is never older than that.
	InformerRefresh = 10 * time.Minute

	// DefaultTTL is how long a plan no one touched is kept.
	DefaultTTL = 30 * 24 * time.Hour

	// Workers evaluate plans in parallel; the informers' answers arrive on
	// their own, so a slow informer holds up no evaluation.
	Workers = 2
)

// Planner makes a built-in informer's findings for an update from current
// to target, as its answer.
type Planner interface {
	Plan(current, target string, now time.Time) (updatestatus.Answer, error)
}

// BuiltinPlanner is a built-in informer other than the operator's own
// pre-checks, as the plan controller asks it: its planner, read once the
// cluster serves the API it needs, and the operator's own finding, in the
// informer's words, that its findings could not be made.
type BuiltinPlanner struct {
	Planner   *Optional[Planner]
	Unchecked func(target string, why error, now time.Time) insightsv1alpha1.UpdateInsight
}

// Asker asks an UpdateInformer what might go wrong if the cluster updated
// to target: its findings, or, with Offline set, why it could not be heard.
type Asker interface {
	AskPlan(ctx context.Context, informer *insightsv1alpha1.UpdateInformer, cv *configv1.ClusterVersion, target string) updatestatus.Answer
}

// Controller keeps the UpdatePlans' status.
type Controller struct {
	plans            insightslisters.UpdatePlanLister
	informers        insightslisters.UpdateInformerLister
	clusterVersions  configlisters.ClusterVersionLister
	clusterOperators configlisters.ClusterOperatorLister
	nodes            corelisters.NodeLister
	pools            machineconfigurationlisters.MachineConfigPoolLister
	// machineOSConfigs and machineOSBuilds are nil where the cluster
	// serves no MachineOSConfigs, or has no MachineConfigPools.
	machineOSConfigs machineconfigurationlisters.MachineOSConfigLister
	machineOSBuilds  machineconfigurationlisters.MachineOSBuildLister
	budgets          policylisters.PodDisruptionBudgetLister
	adminGates       corelisters.ConfigMapNamespaceLister
	adminAcks        corelisters.ConfigMapNamespaceLister
	apiRequestCounts *Optional[apiserverlisters.APIRequestCountLister]
	cloudCredentials *Optional[operatorlisters.CloudCredentialLister]
	builtins         []BuiltinPlanner
	pods             coreclient.PodsGetter
	events           coreclient.EventsGetter
	alerts           *alertsCache
	perNode          *nodes.PerNodeTimes
	asker            Asker
	client           insightsclient.UpdatePlansGetter
	notes            Notes
	topology         hosted.Topology
	ttl              time.Duration
	clock            clock.Clock

	// ctx is the controller's: informers are asked in its goroutines,
	// which end with it.
	ctx   context.Context
	queue workqueue.RateLimitingInterface

	// refusals is told, after each sync of a plan, whether a refusal leaves
	// anything out of it, for the operator's own status.
	refusals RefusalReporter

	mu     sync.Mutex
	rounds map[string]*round
}

// RefusalReporter learns whether the API server refuses what a controller
// writes; tracker.Tracker is one.
type RefusalReporter interface {
	Refused(controller, what string, err error)
}

// RetryRefused is how long a plan the API server refused, whose inputs did
// not change since, waits before it is written again, and the findings left
// out for a refusal before they are tried again: the refusal may be a rule
// of the API server that changed meanwhile.
const RetryRefused = 5 * time.Minute

// Config is what the controller reads and writes through, besides its
// informers.
type Config struct {
	Pods coreclient.PodsGetter
	// Events records why a plan is pruned.
	Events coreclient.EventsGetter
	// APIRequestCounts and CloudCredentials are read once the cluster
	// serves them.
	APIRequestCounts *Optional[apiserverlisters.APIRequestCountLister]
	CloudCredentials *Optional[operatorlisters.CloudCredentialLister]
	// Builtins make the findings of the built-in informers other than the
	// operator's own pre-checks (OLM's operators), each once the cluster
	// serves the API it needs.
	Builtins []BuiltinPlanner
	// Alerts reads the firing alerts; nil when the operator reads none.
	Alerts  alerts.Source
	PerNode *nodes.PerNodeTimes
	Asker   Asker
	Client  insightsclient.UpdatePlansGetter
	TTL     time.Duration
	// Notes keeps what each plan left out of an informer's answer, or
	// shortened, for the informer's Online condition.
	Notes Notes
	// Topology is how the control plane runs. On a hosted one there are
	// no MachineConfigPools: New takes no pools informer, and the worker
	// pools are the nodes' NodePools.
	Topology hosted.Topology
}

// ImageMode are the informers of image-mode pools' builds, which the
// pre-checks read: the MachineOSConfigs and MachineOSBuilds.
type ImageMode struct {
	Configs machineconfigurationinformers.MachineOSConfigInformer
	Builds  machineconfigurationinformers.MachineOSBuildInformer
}

// Notes keeps, by plan, what the plan as last written left out of each
// informer's answer or shortened; nil notes forget the plan.
type Notes interface {
	SetPlanNotes(plan string, notes map[string]string)
}

// New returns the controller, registered with the informers it reads. The
// informers must not have started yet. pools is nil on a hosted control
// plane, which has no MachineConfigPools, and imageMode where the cluster
// serves no MachineOSConfigs or has no pools: then no pool is image-mode,
// and the pre-checks are those of a cluster without them. adminGates and
// adminAcks are those of ConfigMaps in openshift-config-managed and
// openshift-config; the controller reads admin-gates and admin-acks of
// them.
func New(
	ctx context.Context,
	plans insightinformers.UpdatePlanInformer,
	updateInformers insightinformers.UpdateInformerInformer,
	clusterVersions configinformers.ClusterVersionInformer,
	clusterOperators configinformers.ClusterOperatorInformer,
	nodeInformer coreinformers.NodeInformer,
	pools machineconfigurationinformers.MachineConfigPoolInformer,
	imageMode *ImageMode,
	budgets policyinformers.PodDisruptionBudgetInformer,
	adminGates, adminAcks coreinformers.ConfigMapInformer,
	config Config,
	tracker *tracker.Tracker,
	recorder events.Recorder,
	clock clock.Clock,
) (factory.Controller, error) {
	syncCtx := factory.NewSyncContext(controllerName, recorder)
	c := &Controller{
		plans:            plans.Lister(),
		informers:        updateInformers.Lister(),
		clusterVersions:  clusterVersions.Lister(),
		clusterOperators: clusterOperators.Lister(),
		nodes:            nodeInformer.Lister(),
		budgets:          budgets.Lister(),
		adminGates:       adminGates.Lister().ConfigMaps(names.ConfigManagedNamespace),
		adminAcks:        adminAcks.Lister().ConfigMaps(names.ConfigNamespace),
		apiRequestCounts: config.APIRequestCounts,
		cloudCredentials: config.CloudCredentials,
		builtins:         config.Builtins,
		pods:             config.Pods,
		events:           config.Events,
		alerts:           newAlertsCache(config.Alerts, clock),
		perNode:          config.PerNode,
		asker:            config.Asker,
		client:           config.Client,
		notes:            config.Notes,
		topology:         config.Topology,
		ttl:              config.TTL,
		clock:            clock,
		ctx:              ctx,
		queue:            syncCtx.Queue(),
		refusals:         tracker,
		rounds:           map[string]*round{},
	}
	if c.ttl <= 0 {
		return nil, fmt.Errorf("a plan's time to live must be positive, not %s", c.ttl)
	}
	// A plan itself changing is evaluated at once; the cluster or the
	// informers changing, a moment later, with every other change of that
	// moment.
	if _, err := plans.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.enqueue(obj, 0) },
		UpdateFunc: func(_, obj any) { c.enqueue(obj, 0) },
		DeleteFunc: func(obj any) { c.enqueue(obj, 0) },
	}); err != nil {
		return nil, err
	}
	cluster := map[string]cache.SharedIndexInformer{
		"updateinformers":      updateInformers.Informer(),
		"clusterversions":      clusterVersions.Informer(),
		"clusteroperators":     clusterOperators.Informer(),
		"nodes":                nodeInformer.Informer(),
		"poddisruptionbudgets": budgets.Informer(),
		"configmaps/" + names.ConfigManagedNamespace: adminGates.Informer(),
		"configmaps/" + names.ConfigNamespace:        adminAcks.Informer(),
	}
	if pools != nil {
		c.pools = pools.Lister()
		cluster["machineconfigpools"] = pools.Informer()
		if imageMode != nil {
			c.machineOSConfigs, c.machineOSBuilds = imageMode.Configs.Lister(), imageMode.Builds.Lister()
			cluster["machineosconfigs"] = imageMode.Configs.Informer()
			cluster["machineosbuilds"] = imageMode.Builds.Informer()
		}
	}
	synced := map[string]cache.InformerSynced{"updateplans": plans.Informer().HasSynced}
	all := []factory.Informer{plans.Informer()}
	later := func() { c.enqueueAll(Coalesce) }
	c.apiRequestCounts.bind(later)
	c.cloudCredentials.bind(later)
	for _, b := range c.builtins {
		b.Planner.bind(later)
	}
	for resource, informer := range cluster {
		synced[resource] = informer.HasSynced
		all = append(all, informer)
		if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc: func(any) { later() }, UpdateFunc: func(any, any) { later() }, DeleteFunc: func(any) { later() },
		}); err != nil {
			return nil, err
		}
	}
	tracker.WaitsFor(Name, synced)
	return factory.New().
		WithSyncContext(syncCtx).
		WithSync(tracker.Sync(Name, c.sync)).
		WithBareInformers(all...).
		ToController(controllerName, recorder), nil
}

func (c *Controller) enqueue(obj any, after time.Duration) {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	c.queue.AddAfter(key, after)
}

func (c *Controller) enqueueAll(after time.Duration) {
	plans, err := c.plans.List(labels.Everything())
	if err != nil {
		return
	}
	for _, p := range plans {
		c.queue.AddAfter(p.Name, after)
	}
}

func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	name := syncCtx.QueueKey()
	plan, err := c.plans.Get(name)
	if apierrors.IsNotFound(err) {
		c.forget(name)
		return nil
	}
	if err != nil {
		return err
	}
	now := c.clock.Now()
	cluster, err := c.cluster()
	if err != nil {
		return err
	}
	if why := pruneReason(plan, cluster.clusterVersion, now, c.ttl); why != "" {
		return c.prune(ctx, plan, why, now)
	}

	r := c.round(plan, now)
	expected, err := c.planInformers()
	if err != nil {
		return err
	}
	c.ask(plan, r, expected, cluster.clusterVersion)

	in, ready, err := c.checksInput(ctx, plan.Spec.TargetRelease, cluster, now)
	if err != nil {
		return err
	}
	if !ready {
		// Every plan is evaluated again once what is missing is read.
		return nil
	}
	builtins, unchecked, ready := c.builtinAnswers(cluster.clusterVersion, plan.Spec.TargetRelease, now)
	if !ready {
		return nil
	}
	in.BuiltinsUnchecked = unchecked
	answers := append(append(r.answers(), builtinAnswer(in)), builtins...)
	if !r.refusedSince.IsZero() && now.Sub(r.refusedSince) >= RetryRefused {
		r.refused, r.held, r.refusedSince = updatestatus.Refusals{}, nil, time.Time{}
	}
	pools, nodePools := c.workerPools(cluster)
	var notes map[string]string
	var given []updatestatus.Answer
	compute := func(now time.Time) insightsv1alpha1.UpdatePlanStatus {
		given = r.keepAccepted(r.refused.Apply(answers))
		evaluated := updateplan.Evaluate(updateplan.Input{
			Plan:        plan,
			Answers:     given,
			Expected:    informerNames(expected),
			Pools:       pools,
			NodePools:   nodePools,
			Topology:    c.topology,
			EvaluatedAt: r.started,
			Observed:    r.request,
			Now:         now,
		})
		notes = evaluated.Notes
		for informer, note := range r.refused.Notes() {
			notes[informer] = note
		}
		return evaluated.Status
	}
	// The next round, or the end of the plan's life, whichever is first.
	next := r.started.Add(InformerRefresh).Sub(now)
	if left := untouchedSince(plan).Add(lifetime(plan, c.ttl)).Sub(now); left < next {
		next = left
	}
	c.queue.AddAfter(name, next)
	// The plan held is computed again as of when it was refused: the same
	// means that its inputs did not change, and writing it again is
	// refused again until the API server's rule changes.
	if h := r.held; h != nil && equality.Semantic.DeepEqual(h.status, compute(h.at)) {
		c.reportRefusals(name, r, now)
		return nil
	}
	r.held = nil
	desired := compute(now)
	err = c.writeStatus(ctx, plan, desired)
	for attempt := 0; err != nil; attempt++ {
		refused := refuse(r.refused, err, &desired, answers)
		if len(refused) == 0 && updatestatus.ObjectRefused(err) {
			refused = r.dropKept()
			if len(refused) == 0 {
				c.hold(syncCtx, name, r, desired, err, now)
				return nil
			}
		}
		if len(refused) == 0 {
			break
		}
		klog.ErrorS(err, "The API server refused the UpdatePlan's status for informers' findings: writing it without them", "name", name, "informers", refused)
		syncCtx.Recorder().Warningf("FindingsRefused", "The API server refused the findings of %v in UpdatePlan %s: it is written without them: %s", refused, name, text.Truncate(err.Error(), maxEventMessage))
		if attempt == maxRefusals {
			break
		}
		desired = compute(now)
		err = c.writeStatus(ctx, plan, desired)
	}
	if err == nil {
		r.wrote(given)
		c.setNotes(name, notes)
		c.reportRefusals(name, r, now)
	}
	return err
}

// hold keeps a plan the API server refused with no informer's findings
// left to leave out: the sync succeeds, so that the queue does not retry
// the same object forever, and it is written again when its inputs change,
// or after RetryRefused.
func (c *Controller) hold(syncCtx factory.SyncContext, name string, r *round, desired insightsv1alpha1.UpdatePlanStatus, err error, now time.Time) {
	r.held = &heldPlan{status: desired, at: now, err: err}
	klog.ErrorS(err, "The API server refuses the UpdatePlan's status even without the findings of any informer: it is written again when its inputs change", "name", name, "retry", RetryRefused)
	syncCtx.Recorder().Warningf("UpdatePlanRefused", "The API server refuses the status of UpdatePlan %s even without the findings of any informer: it is written again when its inputs change, or in %s: %s", name, RetryRefused, text.Truncate(err.Error(), maxEventMessage))
	c.reportRefusals(name, r, now)
}

// reportRefusals tells the operator's status what a refusal keeps out of
// the plan now: all of it, some informers' findings, or nothing. The
// report stays while the refusal does, however each sync ends, and all is
// tried again once RetryRefused has passed.
func (c *Controller) reportRefusals(name string, r *round, now time.Time) {
	err := r.refused.Err("UpdatePlan " + name)
	if r.held != nil {
		err = fmt.Errorf("the API server refuses UpdatePlan %s even without the findings of any informer: %w", name, r.held.err)
	}
	switch {
	case err == nil:
		r.refusedSince = time.Time{}
	case r.refusedSince.IsZero():
		r.refusedSince = now
	}
	if err != nil {
		c.queue.AddAfter(name, r.refusedSince.Add(RetryRefused).Sub(now))
	}
	if c.refusals != nil {
		c.refusals.Refused(Name, name, err)
	}
}

// setNotes records what the plan left out of each informer's answer.
func (c *Controller) setNotes(plan string, notes map[string]string) {
	if c.notes != nil {
		c.notes.SetPlanNotes(plan, notes)
	}
}

// maxRefusals bounds the writes of one sync that the API server refuses
// for an informer's findings: each leaves out the informers it names, or
// the largest. The next sync goes on from there, after the queue's
// backoff.
const maxRefusals = 3

// maxEventMessage bounds the API server's words in an Event.
const maxEventMessage = 512

// refuse records, when the API server refused desired, the answers to
// leave out of the plan, and returns their informers: those whose findings
// hold the fields it names as invalid, or else, for a refusal it places in
// no informer's entry (the plan too large for etcd, a rule of the whole),
// the largest contributor, as UpdateStatus' controller does. None when the
// write failed for another reason (a conflict, an API server away), which
// writing again mends, or when no informer has findings left to leave out.
func refuse(refusals updatestatus.Refusals, err error, desired *insightsv1alpha1.UpdatePlanStatus, answers []updatestatus.Answer) []string {
	if !updatestatus.ObjectRefused(err) {
		return nil
	}
	var status apierrors.APIStatus
	errors.As(err, &status)
	message := status.Status().Message
	names := updatestatus.RefusedInformers(insightwrite.InvalidFields(err), updateplan.InformerAt(desired))
	if len(names) == 0 {
		largest, size, ok := updateplan.Largest(desired)
		if !ok {
			return nil
		}
		names = []string{largest}
		message = fmt.Sprintf("%s (the API server named no informer: its findings, %d bytes of JSON, were the most of any)", message, size)
	}
	return refusals.Refuse(answers, names, message)
}

// writeStatus writes the plan's status if it changed.
func (c *Controller) writeStatus(ctx context.Context, plan *insightsv1alpha1.UpdatePlan, desired insightsv1alpha1.UpdatePlanStatus) error {
	if equality.Semantic.DeepEqual(plan.Status, desired) {
		return nil
	}
	updated := plan.DeepCopy()
	updated.Status = desired
	if _, err := c.client.UpdatePlans().UpdateStatus(ctx, updated, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("writing the status of UpdatePlan %s: %w", plan.Name, err)
	}
	klog.V(4).InfoS("Updated UpdatePlan status", "name", plan.Name)
	return nil
}

// prune deletes a plan that is done with, if it is still the plan read,
// once it recorded why.
func (c *Controller) prune(ctx context.Context, plan *insightsv1alpha1.UpdatePlan, why string, now time.Time) error {
	if err := c.recordPruning(ctx, plan, why, now); err != nil {
		return err
	}
	err := c.client.UpdatePlans().Delete(ctx, plan.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &plan.UID}})
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		return fmt.Errorf("pruning UpdatePlan %s: %w", plan.Name, err)
	}
	klog.InfoS("Pruned an UpdatePlan", "name", plan.Name, "why", why)
	c.forget(plan.Name)
	return nil
}
