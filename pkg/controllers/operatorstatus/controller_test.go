package operatorstatus

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

const (
	testVersion   = "4.99.0"
	testNamespace = "openshift-update-insights"
	testGrace     = 2 * time.Minute
)

var start = time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)

// harness is the controller with a ClusterOperator cache and a fake client,
// and a tracker on a fake clock whose problems the test makes.
type harness struct {
	*tracker.Tracker
	clock      *clocktesting.FakeClock
	controller *Controller
	client     *configfake.Clientset
	operators  cache.Indexer
	// clusterVersions is the ClusterVersion cache, synced unless a test
	// says otherwise.
	clusterVersions       cache.Indexer
	clusterVersionsSynced bool
}

func newHarness(t *testing.T, existing ...*configv1.ClusterOperator) *harness {
	clock := clocktesting.NewFakeClock(start)
	h := &harness{Tracker: tracker.New(clock, func(string, time.Duration, error) {}), clock: clock,
		operators:       cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		clusterVersions: cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}), clusterVersionsSynced: true}
	var objects []runtime.Object
	for _, co := range existing {
		if err := h.operators.Add(co); err != nil {
			t.Fatal(err)
		}
		objects = append(objects, co)
	}
	h.client = configfake.NewSimpleClientset(objects...)
	h.controller = &Controller{
		operators:             configlisters.NewClusterOperatorLister(h.operators),
		clusterVersions:       configlisters.NewClusterVersionLister(h.clusterVersions),
		clusterVersionsSynced: func() bool { return h.clusterVersionsSynced },
		client:                h.client.ConfigV1(),
		tracker:               h.Tracker,
		options:               Options{Version: testVersion, Namespace: testNamespace, GracePeriod: testGrace},
		clock:                 h.clock,
	}
	return h
}

// run runs a sync of key through the tracker, taking took and ending with
// err, as a controller's sync makes the tracker's problems.
func (h *harness) run(t *testing.T, controller, key string, took time.Duration, err error) {
	t.Helper()
	sync := h.Sync(controller, func(context.Context, factory.SyncContext) error {
		h.clock.Step(took)
		return err
	})
	syncCtx := controllertest.NewSyncContext(key)
	defer syncCtx.Q.ShutDown()
	if got := sync(context.Background(), syncCtx); !errors.Is(got, err) {
		t.Fatalf("the wrapped sync returned %v, want %v", got, err)
	}
}

// sync runs one sync and returns what it queued for later.
func (h *harness) sync(t *testing.T) map[any]time.Duration {
	t.Helper()
	syncCtx := controllertest.NewSyncContext(names.OwnClusterOperator)
	defer syncCtx.Q.ShutDown()
	if err := h.controller.sync(context.Background(), syncCtx); err != nil {
		t.Fatalf("sync: %v", err)
	}
	return syncCtx.Q.AddedAfter
}

// written is the ClusterOperator as the sync last wrote its status.
func (h *harness) written(t *testing.T) *configv1.ClusterOperator {
	t.Helper()
	co, err := h.client.ConfigV1().ClusterOperators().Get(context.Background(), names.OwnClusterOperator, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return co
}

func operatorCondition(conditionType configv1.ClusterStatusConditionType, status configv1.ConditionStatus, reason string, at time.Time) configv1.ClusterOperatorStatusCondition {
	return configv1.ClusterOperatorStatusCondition{Type: conditionType, Status: status, Reason: reason, LastTransitionTime: metav1.NewTime(at)}
}

// view is what the tests compare of a ClusterOperator: conditions without
// messages (the consolidation's tests check those), versions and related
// objects.
type view struct {
	Conditions     []configv1.ClusterOperatorStatusCondition
	Versions       []configv1.OperandVersion
	RelatedObjects []configv1.ObjectReference
}

func viewOf(co *configv1.ClusterOperator) view {
	v := view{Versions: co.Status.Versions, RelatedObjects: co.Status.RelatedObjects}
	for _, c := range co.Status.Conditions {
		c.Message = ""
		v.Conditions = append(v.Conditions, c)
	}
	return v
}

var healthy = func(at time.Time) []configv1.ClusterOperatorStatusCondition {
	return []configv1.ClusterOperatorStatusCondition{
		operatorCondition(configv1.OperatorAvailable, configv1.ConditionTrue, "AsExpected", at),
		operatorCondition(configv1.OperatorProgressing, configv1.ConditionFalse, "AsExpected", at),
		operatorCondition(configv1.OperatorDegraded, configv1.ConditionFalse, "AsExpected", at),
		operatorCondition(configv1.OperatorUpgradeable, configv1.ConditionTrue, "AsExpected", at),
	}
}

func TestSyncCreatesAMissingClusterOperator(t *testing.T) {
	h := newHarness(t)
	h.sync(t)

	if diff := cmp.Diff([]string{"create clusteroperators update-insights", "update clusteroperators/status update-insights"}, controllertest.Writes(h.client.Actions())); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	co := h.written(t)
	if diff := cmp.Diff(payloadAnnotations, co.Annotations); diff != "" {
		t.Errorf("annotations (-want +got):\n%s", diff)
	}
	want := view{
		Conditions:     healthy(start),
		Versions:       []configv1.OperandVersion{{Name: names.OperatorVersion, Version: testVersion}},
		RelatedObjects: RelatedObjects(testNamespace, false),
	}
	if diff := cmp.Diff(want, viewOf(co)); diff != "" {
		t.Errorf("status (-want +got):\n%s", diff)
	}
}

// The ClusterOperator as the cluster-version operator creates it from the
// manifest, with a condition and a version someone else added since.
func precreated() *configv1.ClusterOperator {
	return &configv1.ClusterOperator{
		ObjectMeta: metav1.ObjectMeta{Name: names.OwnClusterOperator, Labels: map[string]string{"owned-by": "cvo"}},
		Status: configv1.ClusterOperatorStatus{
			Conditions: []configv1.ClusterOperatorStatusCondition{
				operatorCondition("EvaluationConditionsDetected", configv1.ConditionFalse, "NoData", start.Add(-time.Hour)),
			},
			Versions:       []configv1.OperandVersion{{Name: "update-insights-api", Version: "1"}},
			RelatedObjects: RelatedObjects(testNamespace, false)[:1],
		},
	}
}

func TestSyncLeavesWhatIsNotItsOwn(t *testing.T) {
	h := newHarness(t, precreated())
	h.sync(t)

	if diff := cmp.Diff([]string{"update clusteroperators/status update-insights"}, controllertest.Writes(h.client.Actions())); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	co := h.written(t)
	if diff := cmp.Diff(map[string]string{"owned-by": "cvo"}, co.Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	want := view{
		Conditions: append([]configv1.ClusterOperatorStatusCondition{
			operatorCondition("EvaluationConditionsDetected", configv1.ConditionFalse, "NoData", start.Add(-time.Hour)),
		}, healthy(start)...),
		Versions:       []configv1.OperandVersion{{Name: "update-insights-api", Version: "1"}, {Name: names.OperatorVersion, Version: testVersion}},
		RelatedObjects: RelatedObjects(testNamespace, false),
	}
	if diff := cmp.Diff(want, viewOf(co)); diff != "" {
		t.Errorf("status (-want +got):\n%s", diff)
	}
}

func TestSyncWritesOnlyChanges(t *testing.T) {
	h := newHarness(t)
	h.sync(t)
	if err := h.operators.Add(h.written(t)); err != nil {
		t.Fatal(err)
	}
	h.client.ClearActions()
	h.clock.Step(time.Hour)

	h.sync(t)
	if writes := controllertest.Writes(h.client.Actions()); len(writes) != 0 {
		t.Errorf("an unchanged status was written: %v", writes)
	}
}

// A problem within its grace period changes nothing but its controller's own
// condition, and is looked at again when the period ends; then the operator is
// Degraded from that moment, and no longer once the problem is gone.
func TestSyncDegradesAfterTheGracePeriod(t *testing.T) {
	h := newHarness(t)
	h.run(t, "Node", "node/a", 0, invalidWrite())
	h.clock.Step(30 * time.Second)

	if diff := cmp.Diff(map[any]time.Duration{names.OwnClusterOperator: testGrace - 30*time.Second}, h.sync(t)); diff != "" {
		t.Errorf("queued for later (-want +got):\n%s", diff)
	}
	co := h.written(t)
	nodeFailing := operatorCondition("NodeControllerDegraded", configv1.ConditionTrue, "NodeWriteRejected", start)
	want := append(healthy(start.Add(30*time.Second)), nodeFailing)
	if diff := cmp.Diff(want, viewOf(co).Conditions); diff != "" {
		t.Errorf("within the grace period, conditions (-want +got):\n%s", diff)
	}
	h.refresh(t, co)

	h.clock.Step(testGrace - 30*time.Second)
	degradedAt := h.clock.Now()
	h.sync(t)
	co = h.written(t)
	want[2] = operatorCondition(configv1.OperatorDegraded, configv1.ConditionTrue, "NodeWriteRejected", degradedAt)
	if diff := cmp.Diff(want, viewOf(co).Conditions); diff != "" {
		t.Errorf("after the grace period, conditions (-want +got):\n%s", diff)
	}
	h.refresh(t, co)

	h.clock.Step(time.Minute)
	h.run(t, "Node", "node/a", 0, nil)
	h.sync(t)
	want = want[:4]
	want[2] = operatorCondition(configv1.OperatorDegraded, configv1.ConditionFalse, "AsExpected", h.clock.Now())
	if diff := cmp.Diff(want, viewOf(h.written(t)).Conditions); diff != "" {
		t.Errorf("once the write succeeded, conditions (-want +got):\n%s", diff)
	}
}

// A fresh install is Progressing while caches sync, and claims its version
// only once they have; it looks again every second, as nothing else tells it
// they have synced. Caches syncing never make it not Upgradeable.
func TestSyncClaimsTheVersionOnlyOnceRunning(t *testing.T) {
	synced := false
	h := newHarness(t)
	h.WaitsFor("Node", map[string]cache.InformerSynced{"nodes": func() bool { return synced }})

	queued := h.sync(t)
	if queued[names.OwnClusterOperator] != startingRecheck {
		t.Errorf("queued for later %v, want %s", queued, startingRecheck)
	}
	co := h.written(t)
	if len(co.Status.Versions) != 0 {
		t.Errorf("versions = %v before the caches synced, want none", co.Status.Versions)
	}
	want := healthy(start)
	want[1] = operatorCondition(configv1.OperatorProgressing, configv1.ConditionTrue, "Installing", start)
	if diff := cmp.Diff(want, viewOf(co).Conditions); diff != "" {
		t.Errorf("conditions (-want +got):\n%s", diff)
	}
	h.refresh(t, co)

	synced = true
	h.clock.Step(3 * time.Second)
	h.sync(t)
	co = h.written(t)
	if diff := cmp.Diff([]configv1.OperandVersion{{Name: names.OperatorVersion, Version: testVersion}}, co.Status.Versions); diff != "" {
		t.Errorf("versions once running (-want +got):\n%s", diff)
	}
	want[1] = operatorCondition(configv1.OperatorProgressing, configv1.ConditionFalse, "AsExpected", h.clock.Now())
	if diff := cmp.Diff(want, viewOf(co).Conditions); diff != "" {
		t.Errorf("conditions once running (-want +got):\n%s", diff)
	}
}

// runningHealthy is the ClusterOperator as a previous run of this version
// left it: healthy at testVersion since an hour.
func runningHealthy() *configv1.ClusterOperator {
	co := precreated()
	for _, c := range Consolidate(Input{Version: testVersion, Reported: testVersion}).Conditions {
		c.LastTransitionTime = metav1.NewTime(start.Add(-time.Hour))
		co.Status.Conditions = append(co.Status.Conditions, c)
	}
	co.Status.Versions = []configv1.OperandVersion{{Name: names.OperatorVersion, Version: testVersion}}
	co.Status.RelatedObjects = RelatedObjects(testNamespace, false)
	return co
}

// A restart at the version the ClusterOperator reports changes nothing while
// caches sync: caches syncing at a restart are no progress.
func TestSyncRestartingAtTheSameVersionWritesNothing(t *testing.T) {
	h := newHarness(t, runningHealthy())
	h.WaitsFor("Node", map[string]cache.InformerSynced{"nodes": func() bool { return false }})
	h.sync(t)
	if writes := controllertest.Writes(h.client.Actions()); len(writes) != 0 {
		t.Errorf("a restart wrote %v", writes)
	}
}

// A failure the ClusterOperator reported before a restart keeps its start: if
// it recurs, the operator is Degraded as soon as the grace period has passed
// since it began, however recently the process started. Until its controller
// has worked through its queue once, it stays a problem even before it
// recurs, so a crash loop cannot reset it.
func TestSyncInheritsAFailuresStart(t *testing.T) {
	began := start.Add(-90 * time.Second)
	co := runningHealthy()
	co.Status.Conditions = append(co.Status.Conditions, configv1.ClusterOperatorStatusCondition{
		Type: "NodeControllerDegraded", Status: configv1.ConditionTrue, Reason: "NodeSyncFailing",
		Message: "Node controller: syncing has failed", LastTransitionTime: metav1.NewTime(began),
	})
	h := newHarness(t, co)

	h.sync(t)
	nodeFailing := operatorCondition("NodeControllerDegraded", configv1.ConditionTrue, "NodeSyncFailing", began)
	if diff := cmp.Diff(append(healthy(start.Add(-time.Hour)), nodeFailing), viewOf(h.written(t)).Conditions[1:]); diff != "" {
		t.Errorf("before the failure recurs, conditions (-want +got):\n%s", diff)
	}
	h.refresh(t, h.written(t))

	h.clock.Step(time.Minute)
	h.run(t, "Node", "node/a", 0, errors.New("connection refused"))
	h.sync(t)
	want := append(healthy(start.Add(-time.Hour)), nodeFailing)
	want[2] = operatorCondition(configv1.OperatorDegraded, configv1.ConditionTrue, "NodeSyncFailing", h.clock.Now())
	if diff := cmp.Diff(want, viewOf(h.written(t)).Conditions[1:]); diff != "" {
		t.Errorf("once it recurred past the grace period, conditions (-want +got):\n%s", diff)
	}
}

// An inherited failure that does not recur while its controller works
// through its queue is over.
func TestSyncDropsAnInheritedFailureThatDoesNotRecur(t *testing.T) {
	co := runningHealthy()
	co.Status.Conditions[3] = operatorCondition(configv1.OperatorDegraded, configv1.ConditionTrue, "NodeSyncFailing", start.Add(-time.Hour+testGrace))
	co.Status.Conditions = append(co.Status.Conditions, operatorCondition("NodeControllerDegraded", configv1.ConditionTrue, "NodeSyncFailing", start.Add(-time.Hour)))
	h := newHarness(t, co)
	h.sync(t)
	h.refresh(t, h.written(t))

	h.clock.Step(time.Second)
	h.run(t, "Node", "node/a", 0, nil)
	h.sync(t)
	want := healthy(start.Add(-time.Hour))
	want[2] = operatorCondition(configv1.OperatorDegraded, configv1.ConditionFalse, "AsExpected", h.clock.Now())
	if diff := cmp.Diff(want, viewOf(h.written(t)).Conditions[1:]); diff != "" {
		t.Errorf("conditions (-want +got):\n%s", diff)
	}
}

// A controller switched off leaves the operator available, at its version,
// and the message says why.
func TestSyncSaysWhichControllersAreOff(t *testing.T) {
	h := newHarness(t, runningHealthy())
	h.SwitchOff("Node", "the cluster does not serve machineconfigpools")
	h.sync(t)
	co := h.written(t)
	if diff := cmp.Diff(healthy(start.Add(-time.Hour)), viewOf(co).Conditions[1:]); diff != "" {
		t.Errorf("conditions (-want +got):\n%s", diff)
	}
	if got := co.Status.Conditions[1].Message; !strings.Contains(got, "Node controller: off, the cluster does not serve machineconfigpools") {
		t.Errorf("Available's message %q does not say the Node controller is off", got)
	}
}

// A write that loses a race is retried by the tracker's wrapper, like any
// controller's.
func TestSyncRequeuesWhenRaced(t *testing.T) {
	h := newHarness(t, precreated())
	h.client.PrependReactor("update", "clusteroperators", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewConflict(schema.GroupResource{Group: "config.openshift.io", Resource: "clusteroperators"}, names.OwnClusterOperator, errors.New("modified"))
	})
	syncCtx := controllertest.NewSyncContext(names.OwnClusterOperator)
	defer syncCtx.Q.ShutDown()
	if err := h.Sync(ControllerName, h.controller.sync)(context.Background(), syncCtx); err != nil {
		t.Fatalf("sync: %v", err)
	}
	if diff := cmp.Diff(map[any]time.Duration{names.OwnClusterOperator: tracker.RaceDelay}, syncCtx.Q.AddedAfter); diff != "" {
		t.Errorf("queued for later (-want +got):\n%s", diff)
	}
}

func (h *harness) refresh(t *testing.T, co *configv1.ClusterOperator) {
	t.Helper()
	if err := h.operators.Update(co); err != nil {
		t.Fatal(err)
	}
}

func invalidWrite() error {
	return apierrors.NewInvalid(schema.GroupKind{Group: "openshift.muller.dev", Kind: "NodeProgressInsight"}, "a", nil)
}
