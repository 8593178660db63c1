// Package updateinformers calls the external UpdateInformers as the
// protocol's contract says (pkg/informer/protocol/contract.md): discovery
// when an informer appears or changes and at a heartbeat, and the status
// insights of those that handle status every interval. It puts their answers in the store
// the UpdateStatus controller aggregates, and says in each UpdateInformer's
// status whether it is online.
package updateinformers

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	configinformers "github.com/openshift/client-go/config/informers/externalversions/config/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"golang.org/x/time/rate"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/queue"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/typed/insights/v1alpha1"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/metrics"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

const (
	controllerName = "UpdateInformersController"

	// Name names the controller in the operator's conditions and metrics.
	Name = "UpdateInformers"

	// DefaultInterval is how often an informer is asked for its status
	// insights, as the protocol's default.
	DefaultInterval = 30 * time.Second

	// HeartbeatInterval is how often an informer is discovered again, so
	// that a change of its handlers is seen and the Online condition of
	// one without a status handler stays true to life, at the cost of a
	// request every ten minutes.
	HeartbeatInterval = 10 * time.Minute

	// MaxRequestsInFlight bounds the requests to informers in flight at
	// once, status, discovery and plans together: each informer is called
	// from a goroutine of its own, and informers that answer slowly hold
	// at most this many connections between them.
	MaxRequestsInFlight = 16

	userAgent = "update-insights-operator"
)

// Controller calls the UpdateInformers and keeps their answers in the store.
type Controller struct {
	informers       insightslisters.UpdateInformerLister
	clusterVersions configlisters.ClusterVersionLister
	kube            kubernetes.Interface
	caSources       caSources
	client          insightsclient.UpdateInformersGetter
	answers         *updatestatus.Store
	interval        time.Duration
	limit           *client.Limit
	clock           clock.Clock
	// early is the bucket of calls sooner than scheduled that all
	// informers share (see pace).
	early *rate.Limiter

	mu     sync.Mutex
	states map[string]*state
}

// New returns the controller, registered with the informers it reads. The
// informers must not have started yet. Services, EndpointSlices and the
// Secrets and ConfigMaps of injected CAs are read from the API server when
// an informer is called (see clientConfig and injectCA); the Service of each
// informer and its EndpointSlices are watched as well, to call it as soon
// as they change (see watchService). limit bounds the requests in flight,
// shared with the PlanAsker.
func New(
	informers insightinformers.UpdateInformerInformer,
	clusterVersions configinformers.ClusterVersionInformer,
	kube kubernetes.Interface,
	caSources caSources,
	client insightsclient.UpdateInformersGetter,
	answers *updatestatus.Store,
	interval time.Duration,
	limit *client.Limit,
	tracker *tracker.Tracker,
	recorder events.Recorder,
	clock clock.Clock,
) (factory.Controller, error) {
	c := &Controller{
		informers:       informers.Lister(),
		clusterVersions: clusterVersions.Lister(),
		kube:            kube,
		caSources:       caSources,
		client:          client,
		answers:         answers,
		interval:        interval,
		limit:           limit,
		clock:           clock,
		early:           newSharedEarly(),
		states:          map[string]*state{},
	}
	calls := newDispatcher(tracker.Sync(Name, c.sync))
	tracker.WaitsFor(Name, map[string]cache.InformerSynced{
		"updateinformers": informers.Informer().HasSynced,
		"clusterversions": clusterVersions.Informer().HasSynced,
	})
	own := func(obj runtime.Object) []string {
		o, err := meta.Accessor(obj)
		if err != nil {
			return nil
		}
		return []string{o.GetName()}
	}
	syncCtx := factory.NewSyncContext(controllerName, recorder)
	// What UpdateStatus leaves out of an answer is said in the informer's
	// Online condition.
	answers.OnNote(func(name string) { syncCtx.Queue().Add(name) })
	if _, err := clusterVersions.Informer().AddEventHandler(pendingReleaseHandler(func() {
		for _, name := range c.names() {
			syncCtx.Queue().Add(name)
		}
	})); err != nil {
		return nil, err
	}
	controller := factory.New().
		WithSyncContext(syncCtx).
		WithSync(calls.dispatch).
		WithInformersQueueKeysFunc(own, informers.Informer()).
		WithBareInformers(clusterVersions.Informer()).
		ToController(controllerName, recorder)
	return &dispatchingController{Controller: controller, calls: calls}, nil
}

// pendingReleaseHandler calls enqueue when the ClusterVersion appears, goes
// or changes the update pending: an update starting, changing or ending
// changes what every informer is asked, which a sync reads of it. Its every
// other change, such as each manifest the cluster-version operator applies,
// would have every sync read a Service-backed informer's Service and
// endpoints from the API server for nothing.
func pendingReleaseHandler(enqueue func()) cache.ResourceEventHandler {
	return queue.WhenChanged(pendingRelease, enqueue)
}

// dispatchingController runs as its factory controller does, and returns
// once the syncs it dispatched have ended too.
type dispatchingController struct {
	factory.Controller
	calls *dispatcher
}

// Run runs the controller until ctx ends. The workers only dispatch the
// informers' syncs, so one is enough.
func (c *dispatchingController) Run(ctx context.Context, workers int) {
	c.Controller.Run(ctx, workers)
	c.calls.wait()
}

// names are the names of all informers.
func (c *Controller) names() []string {
	all, err := c.informers.List(labels.Everything())
	if err != nil {
		return nil
	}
	var out []string
	for _, i := range all {
		out = append(out, i.Name)
	}
	return out
}

// state is what the controller knows of one informer between syncs. Only
// the sync of that informer's key uses it, and the dispatcher never runs two
// of those at once.
type state struct {
	uid types.UID
	// pace spaces its calls.
	pace *pace
	// watch watches its Service and EndpointSlices, if it names a Service.
	watch *serviceWatch

	config client.Config
	client *client.Client
	// triedGeneration is the informer's generation when it was last
	// called.
	triedGeneration int64

	// discovered is the last discovery's answer, for the informer's
	// generation discoveredGeneration.
	discovered           *discoveryResult
	discoveredGeneration int64
	discoveryErr         error

	// updateFor is the release of the pending update the informer was last
	// asked about, empty when no update was pending; asked says it was
	// asked since the controller started.
	updateFor                 string
	asked                     bool
	nextStatus, nextHeartbeat time.Time

	// good are the insights of the last good answer, with those kept as
	// unresolved.
	good       []insightsv1alpha1.UpdateInsight
	unresolved unresolved
	// callErr is the last call's error, nil after a success; skipped says
	// what the last good answer had that the API would refuse.
	callErr error
	skipped string
	// succeeded says whether a call succeeded since the controller started.
	succeeded bool
}

func (c *Controller) state(name string, uid types.UID) *state {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.states[name]
	if s != nil && s.uid == uid {
		return s
	}
	fresh := &state{uid: uid, unresolved: unresolved{}, pace: newPace(c.interval)}
	if s != nil {
		s.close()
	} else {
		// The informer's insights seeded from the UpdateStatus before a
		// restart are its last good ones until it answers.
		for _, a := range c.answers.Answers() {
			if a.Informer == name {
				fresh.good = a.Insights
				fresh.unresolved.remember(name, a.Insights)
			}
		}
	}
	c.states[name] = fresh
	return fresh
}

func (c *Controller) forget(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.states[name]; s != nil {
		s.close()
	}
	delete(c.states, name)
}

func (s *state) close() {
	if s.client != nil {
		s.client.Close()
	}
	s.stopWatch()
}

func (s *state) stopWatch() {
	if s.watch != nil {
		s.watch.stop()
		s.watch = nil
	}
}

// clientFor returns a client of config, reusing the last one (and its
// connections) while the config stays the same.
func (s *state) clientFor(config client.Config) (*client.Client, error) {
	if s.client != nil && sameConfig(s.config, config) {
		return s.client, nil
	}
	s.close()
	s.client = nil
	cl, err := client.New(config)
	if err != nil {
		return nil, &unreachableError{err}
	}
	s.config, s.client = config, cl
	return cl, nil
}

func sameConfig(a, b client.Config) bool {
	return a.URL == b.URL && a.ServerName == b.ServerName && a.DialAddress == b.DialAddress && bytes.Equal(a.CABundle, b.CABundle)
}

func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	name := syncCtx.QueueKey()
	informer, err := c.informers.Get(name)
	if apierrors.IsNotFound(err) {
		c.forget(name)
		c.answers.Delete(name)
		return nil
	}
	if err != nil {
		return err
	}
	s := c.state(name, informer.UID)
	if informer.Spec.Enabled != nil && !*informer.Spec.Enabled {
		c.forget(name)
		c.answers.Delete(name)
		return c.writeStatus(ctx, informer, disabledStatus(informer, c.clock.Now()))
	}
	c.watchServiceOf(ctx, syncCtx, informer, s)

	cv, err := c.clusterVersions.Get(names.ClusterVersion)
	if apierrors.IsNotFound(err) {
		cv, err = nil, nil
	}
	if err != nil {
		return err
	}
	var next time.Time
	informer, err = c.injectCA(ctx, informer)
	if err == nil {
		next, err = c.call(ctx, informer, s, cv)
	}
	var u *unreachableError
	if errors.As(err, &u) {
		c.failed(name, s, err)
		// A change of its Service, its endpoints or the informer queues
		// it sooner.
		next, err = s.pace.retry(c.clock.Now()), nil
	}
	if err != nil {
		return err
	}
	if _, ok, _ := caSourceOf(informer); ok {
		// The CA's source is not watched: it is read at each sync.
		next = earliest(next, c.clock.Now().Add(c.interval))
	}
	s.pace.scheduled = next
	c.publish(name, s)
	syncCtx.Queue().AddAfter(name, next.Sub(c.clock.Now()))
	return c.writeStatus(ctx, informer, desiredStatus(informer, s, c.notes(name), c.clock.Now()))
}

// notes says what UpdateStatus and each UpdatePlan left out of the
// informer's answer or shortened, a sentence each.
func (c *Controller) notes(name string) string {
	var out []string
	if note := c.answers.Note(name); note != "" {
		out = append(out, "UpdateStatus: "+note+".")
	}
	if note := c.answers.PlanNotes(name); note != "" {
		out = append(out, note)
	}
	return strings.Join(out, " ")
}

// watchServiceOf watches the Service the informer names, and its
// EndpointSlices, queueing the informer when they change; it stops
// watching one the informer no longer names.
func (c *Controller) watchServiceOf(ctx context.Context, syncCtx factory.SyncContext, informer *insightsv1alpha1.UpdateInformer, s *state) {
	ref := informer.Spec.ClientConfig.Service
	if ref == nil || informer.Spec.ClientConfig.URL != nil {
		s.stopWatch()
		return
	}
	if s.watch.watches(ref.Namespace, ref.Name) {
		return
	}
	s.stopWatch()
	name, queue := informer.Name, syncCtx.Queue()
	s.watch = watchService(ctx, c.kube, ref.Namespace, ref.Name, func() { queue.Add(name) })
}

func earliest(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// call makes the calls that are due, and says when the next one is.
func (c *Controller) call(ctx context.Context, informer *insightsv1alpha1.UpdateInformer, s *state, cv *configv1.ClusterVersion) (time.Time, error) {
	now := c.clock.Now()
	config, err := clientConfig(ctx, informer, c.kube.CoreV1(), c.kube.DiscoveryV1())
	if err != nil {
		return time.Time{}, err
	}
	config.Clock, config.UserAgent, config.Limit = c.clock, userAgent, c.limit
	if s.callErr != nil && !s.pace.due(now) && s.client != nil && sameConfig(s.config, config) && s.triedGeneration == informer.Generation {
		// Asked again before its retry with nothing changed that could
		// make a difference (the watch's echo of its own status, say):
		// the retry stays as scheduled.
		return s.pace.scheduled, nil
	}
	cl, err := s.clientFor(config)
	if err != nil {
		return time.Time{}, err
	}
	s.triedGeneration = informer.Generation

	discovering := s.discovered == nil || s.discoveredGeneration != informer.Generation
	heartbeat := !discovering && !now.Before(s.nextHeartbeat)
	release := pendingRelease(cv)
	releaseChanged := release != s.updateFor && s.asked
	statusDue := !now.Before(s.nextStatus)
	if !discovering && !heartbeat && !releaseChanged && (!statusDue || !s.discovered.status) {
		// Nothing to call.
		if !s.discovered.status {
			return s.nextHeartbeat, nil
		}
		return earliest(s.nextStatus, s.nextHeartbeat), nil
	}
	if !s.pace.due(now) {
		if ok, at := s.pace.mayCallEarly(now, c.early); !ok {
			klog.V(2).InfoS("Calling an update informer later: it was asked sooner than scheduled too often", "informer", informer.Name, "at", at)
			if s.pace.scheduled.IsZero() {
				return at, nil
			}
			return earliest(at, s.pace.scheduled), nil
		}
	}

	if discovering {
		if !c.discover(ctx, informer, s, cl) {
			return s.pace.retry(c.clock.Now()), nil
		}
	}

	if heartbeat {
		c.discover(ctx, informer, s, cl)
	}
	if s.discovered == nil || !s.discovered.status {
		// An informer of plans only has nothing to say in UpdateStatus:
		// it is discovered again at the heartbeat, to keep its Online true.
		s.good, s.unresolved, s.asked = nil, unresolved{}, false
		return s.nextHeartbeat, nil
	}
	// A status handler is asked every interval whether an update is
	// pending or not: it may know of an update before the ClusterVersion
	// does, such as one scheduled for a maintenance window, which
	// UpdateStatus then shows as pending and awaiting its window.
	if releaseChanged {
		// The update started, changed or ended: what the informer said
		// no longer holds, and it is asked about the new one now.
		s.good, s.unresolved = nil, unresolved{}
		s.nextStatus = now
	}
	if !now.Before(s.nextStatus) {
		s.nextStatus = c.clock.Now().Add(c.interval)
		if !c.statusInsights(ctx, informer, s, cl, cv) {
			s.nextStatus = s.pace.retry(c.clock.Now())
		}
		s.updateFor, s.asked = release, true
	}
	return earliest(s.nextStatus, s.nextHeartbeat), nil
}

// discover asks the informer what it handles, and says whether it
// answered. An informer that did not answer is asked again every interval,
// so that it is seen online soon after it is back.
func (c *Controller) discover(ctx context.Context, informer *insightsv1alpha1.UpdateInformer, s *state, cl *client.Client) bool {
	start := c.clock.Now()
	d, err := cl.Discover(ctx)
	observe(informer.Name, "discovery", c.clock.Since(start), err)
	if err != nil {
		s.discoveryErr = err
		c.failed(informer.Name, s, err)
		s.nextHeartbeat = s.pace.retry(c.clock.Now())
		return false
	}
	s.nextHeartbeat = c.clock.Now().Add(HeartbeatInterval)
	s.discovered, s.discoveredGeneration, s.discoveryErr = newDiscoveryResult(d), informer.Generation, nil
	c.succeeded(informer.Name, s)
	return true
}

// statusInsights asks the informer for its status insights, and says
// whether it answered.
func (c *Controller) statusInsights(ctx context.Context, informer *insightsv1alpha1.UpdateInformer, s *state, cl *client.Client, cv *configv1.ClusterVersion) bool {
	start := c.clock.Now()
	resp, err := cl.StatusInsights(ctx, request(cv), s.discovered.statusTimeout)
	observe(informer.Name, "status", c.clock.Since(start), err)
	if err != nil {
		c.failed(informer.Name, s, err)
		return false
	}
	answer := convert(informer.Name, resp.Spec.Insights)
	s.good, s.skipped = s.unresolved.withKept(answer), answer.problem()
	if s.skipped != "" {
		klog.InfoS("An informer reported insights the API would refuse; they are left out", "informer", informer.Name, "problem", s.skipped)
	}
	c.succeeded(informer.Name, s)
	return true
}

// observe records a call in the metrics: Success, or the reason the
// informer is not Online.
func observe(informer, call string, took time.Duration, err error) {
	result := "Success"
	if err != nil {
		result = reasonOf(err)
	}
	metrics.ObserveInformerCall(informer, call, result, took)
}

func (c *Controller) failed(name string, s *state, err error) {
	if s.callErr == nil {
		klog.InfoS("Cannot call an update informer", "informer", name, "reason", reasonOf(err), "err", err)
	}
	if body := client.AnsweredBody(err); body != "" {
		klog.V(4).InfoS("An update informer's error answer", "informer", name, "body", body)
	}
	s.callErr = err
	s.pace.failed()
}

func (c *Controller) succeeded(name string, s *state) {
	if s.callErr != nil {
		klog.InfoS("Calling an update informer again", "informer", name)
	}
	s.callErr, s.succeeded = nil, true
	s.pace.succeeded()
}

// publish puts what the informer last said in the store: its insights while
// it handles status, and whether it is offline. An informer that only
// handles plans has no place in UpdateStatus unless it is offline.
func (c *Controller) publish(name string, s *state) {
	status := s.discovered != nil && s.discovered.status
	if !status && s.callErr == nil {
		c.answers.Delete(name)
		return
	}
	c.answers.Set(answerOf(name, s))
}

// pendingRelease is the release of the update pending, empty if none.
func pendingRelease(cv *configv1.ClusterVersion) string {
	if cv == nil || !updatestatus.Pending(cv) {
		return ""
	}
	desired := cv.Status.Desired
	return desired.Version + "@" + desired.Image
}
