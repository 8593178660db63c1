package managedupgradeinformer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr/funcr"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	fakediscovery "k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/kubernetes/fake"
	corev1listers "k8s.io/client-go/listers/core/v1"
	policyv1listers "k8s.io/client-go/listers/policy/v1"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/managedupgrade"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
)

const namespace = "muo"

var now = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// fixture is an informer over fake sources.
type fixture struct {
	informer  *Informer
	client    *fake.Clientset
	discovery *fakediscovery.FakeDiscovery
	logged    *[]string
	// upgradeConfigs and nodes are the caches' stores, which a test may
	// change as their informers would.
	upgradeConfigs cache.Store
	nodes          cache.Indexer
	// stop stops the informer's Run, and returns once it has.
	stop func()
}

type setup struct {
	synced, cachesSynced bool
	served               bool
	discoveryErr         error
	upgradeConfigs       []*upgradev1alpha1.UpgradeConfig
	nodes                []*corev1.Node
	budgets              []*policyv1.PodDisruptionBudget
	objects              []runtime.Object
	// configMapErr fails the lists of ConfigMaps; the fixture does not
	// wait for their cache then.
	configMapErr error
}

func newFixture(t *testing.T, s setup) fixture {
	t.Helper()
	client := fake.NewClientset(s.objects...)
	selectPodsByNode(client)
	discovery := &fakediscovery.FakeDiscovery{Fake: &clienttesting.Fake{}}
	if s.served {
		discovery.Resources = []*metav1.APIResourceList{{
			GroupVersion: upgradev1alpha1.SchemeGroupVersion.String(),
			APIResources: []metav1.APIResource{{Name: "upgradeconfigs", Namespaced: true, Kind: "UpgradeConfig"}},
		}}
	}
	if s.configMapErr != nil {
		client.PrependReactor("list", "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) { return true, nil, s.configMapErr })
	}
	if s.discoveryErr != nil {
		discovery.AddReactor("*", "*", func(clienttesting.Action) (bool, runtime.Object, error) { return true, nil, s.discoveryErr })
	}
	store := cache.NewStore(cache.MetaNamespaceKeyFunc)
	for _, c := range s.upgradeConfigs {
		if err := store.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	nodes := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, n := range s.nodes {
		if err := nodes.Add(n); err != nil {
			t.Fatal(err)
		}
	}
	budgets := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, b := range s.budgets {
		if err := budgets.Add(b); err != nil {
			t.Fatal(err)
		}
	}
	logged := &[]string{}
	log := funcr.New(func(_, args string) { *logged = append(*logged, args) }, funcr.Options{})
	f := fixture{
		informer: New(Sources{
			Namespace:            namespace,
			Client:               client,
			Discovery:            discovery,
			UpgradeConfigs:       store,
			UpgradeConfigsSynced: func() bool { return s.synced },
			Nodes:                corev1listers.NewNodeLister(nodes),
			Budgets:              policyv1listers.NewPodDisruptionBudgetLister(budgets),
			CachesSynced:         func() bool { return s.cachesSynced },
			Clock:                clocktesting.NewFakePassiveClock(now),
			Log:                  log,
		}),
		client:         client,
		discovery:      discovery,
		logged:         logged,
		upgradeConfigs: store,
		nodes:          nodes,
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		f.informer.Run(ctx)
	}()
	f.stop = func() {
		cancel()
		<-stopped
	}
	t.Cleanup(f.stop)
	if s.configMapErr == nil {
		waitUntil(t, "the ConfigMap cache synced", f.informer.configMap.Informer.HasSynced)
	}
	return f
}

// selectPodsByNode has the fake clientset select pods by spec.nodeName as
// the API server does: it ignores field selectors.
func selectPodsByNode(client *fake.Clientset) {
	gvr := corev1.SchemeGroupVersion.WithResource("pods")
	selects := func(selector fields.Selector, obj runtime.Object) bool {
		p, ok := obj.(*corev1.Pod)
		return !ok || selector == nil || selector.Matches(fields.Set{"spec.nodeName": p.Spec.NodeName})
	}
	client.PrependReactor("list", "pods", func(a clienttesting.Action) (bool, runtime.Object, error) {
		list := a.(clienttesting.ListAction)
		obj, err := client.Tracker().List(gvr, corev1.SchemeGroupVersion.WithKind("Pod"), list.GetNamespace())
		if err != nil {
			return true, nil, err
		}
		pods := obj.(*corev1.PodList)
		pods.Items = slices.DeleteFunc(pods.Items, func(p corev1.Pod) bool { return !selects(list.GetListRestrictions().Fields, &p) })
		return true, pods, nil
	})
	client.PrependWatchReactor("pods", func(a clienttesting.Action) (bool, watch.Interface, error) {
		w := a.(clienttesting.WatchAction)
		all, err := client.Tracker().Watch(gvr, w.GetNamespace())
		if err != nil {
			return true, nil, err
		}
		return true, watch.Filter(all, func(e watch.Event) (watch.Event, bool) {
			return e, selects(w.GetWatchRestrictions().Fields, e.Object)
		}), nil
	})
}

// waitUntil waits for done, which the informer's caches make true soon.
func waitUntil(t *testing.T, what string, done func() bool) {
	t.Helper()
	if err := wait.PollUntilContextTimeout(context.Background(), 5*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		return done(), nil
	}); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// cachedConfig says whether the ConfigMap cache holds config.
func (f fixture) cachedConfig(config string) func() bool {
	return func() bool {
		obj, _, _ := f.informer.configMap.Informer.GetStore().GetByKey(namespace + "/" + managedupgrade.ConfigMapName)
		cm, ok := obj.(*corev1.ConfigMap)
		return ok && cm.Data[managedupgrade.ConfigMapKey] == config
	}
}

// answer is what the tests compare of an answer: its response, message,
// and each insight's level, impact type, summary and estimated finish.
type answer struct {
	Response protocol.Response
	Message  string
	Insights []string
}

// status asks for the status insights and checks the answer as the server
// completes and checks it before sending it.
func (f fixture) status(t *testing.T) (answer, error) {
	t.Helper()
	return f.statusWithin(t, context.Background())
}

// statusWithin asks for the status insights within ctx, as status does.
func (f fixture) statusWithin(t *testing.T, ctx context.Context) (answer, error) {
	t.Helper()
	resp, err := f.informer.StatusInsights(ctx, &protocol.UpdateInsightsRequest{})
	if err != nil {
		return answer{}, err
	}
	out := *resp
	out.TypeMeta = protocol.TypeMeta{APIVersion: protocol.APIVersion, Kind: protocol.KindUpdateInsightsResponse}
	if out.Status.Response == "" {
		// As the server completes it: empty means Success.
		out.Status.Response = protocol.ResponseSuccess
	}
	return summarize(t, out.Spec, out.Status, out.Validate()), nil
}

func (f fixture) plan(t *testing.T, target string) (answer, error) {
	t.Helper()
	req := &protocol.UpdatePlanInsightsRequest{Spec: protocol.RequestSpec{TargetControlPlaneVersion: target}}
	resp, err := f.informer.PlanInsights(context.Background(), req)
	if err != nil {
		return answer{}, err
	}
	out := *resp
	out.TypeMeta = protocol.TypeMeta{APIVersion: protocol.APIVersion, Kind: protocol.KindUpdatePlanInsightsResponse}
	if out.Status.Response == "" {
		// As the server completes it: empty means Success.
		out.Status.Response = protocol.ResponseSuccess
	}
	return summarize(t, out.Spec, out.Status, out.Validate()), nil
}

func summarize(t *testing.T, spec protocol.ResponseSpec, status protocol.ResponseStatus, invalid error) answer {
	t.Helper()
	if invalid != nil {
		t.Errorf("the answer breaks the protocol: %v", invalid)
	}
	a := answer{Response: status.Response, Message: status.Message}
	for _, i := range spec.Insights {
		s := string(i.Impact.Level) + " " + string(i.Impact.Type) + ": " + i.Impact.Summary
		if i.Remediation.EstimatedFinish != "" {
			s += " (until " + i.Remediation.EstimatedFinish + ")"
		}
		a.Insights = append(a.Insights, s)
	}
	return a
}

func upgradeConfig(upgradeAt string, history ...upgradev1alpha1.UpgradeHistory) *upgradev1alpha1.UpgradeConfig {
	return &upgradev1alpha1.UpgradeConfig{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: upgradev1alpha1.DefaultName},
		Spec: upgradev1alpha1.UpgradeConfigSpec{
			Desired:              upgradev1alpha1.Update{Version: "4.16.5", Channel: "stable-4.16"},
			UpgradeAt:            upgradeAt,
			PDBForceDrainTimeout: 60,
			Type:                 upgradev1alpha1.UpgradeTypeOSD,
		},
		Status: upgradev1alpha1.UpgradeConfigStatus{History: history},
	}
}

func upgrading() *upgradev1alpha1.UpgradeConfig {
	start := metav1.NewTime(now.Add(-time.Hour))
	return upgradeConfig("2026-11-22T09:00:00Z", upgradev1alpha1.UpgradeHistory{
		Version: "4.16.5", PrecedingVersion: "4.16.3", Phase: upgradev1alpha1.PhaseUpgrading, StartTime: &start,
	})
}

// runnable is a configuration with the keys the Managed Upgrade Operator
// needs to run an update (pkg/upgraders/config.go IsValid), and no window
// or delay policy.
const runnable = "maintenance: {controlPlaneTime: 90}\nscale: {timeOut: 30}\nnodeDrain: {timeOut: 45, expectedNodeDrainTime: 8}\n"

func muoConfigMap(config string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: managedupgrade.ConfigMapName},
		Data:       map[string]string{managedupgrade.ConfigMapKey: config},
	}
}

func drainedNode(name string, since time.Duration) *corev1.Node {
	added := metav1.NewTime(now.Add(-since))
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.NodeSpec{Unschedulable: true, Taints: []corev1.Taint{
			{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule, TimeAdded: &added},
		}},
	}
}

func TestStatusInsights(t *testing.T) {
	awaiting := "status Awaiting Window: Managed update to 4.16.5 scheduled for 2026-11-22T14:00:00Z, in 4h (until 2026-11-22T14:00:00Z)"
	blockingBudget := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "db"},
		Spec:       policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}},
	}
	dbPod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "db-0", Labels: map[string]string{"app": "db"}},
		Spec:       corev1.PodSpec{NodeName: "worker-a"},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning},
	}
	for _, tc := range []struct {
		name  string
		setup setup
		want  answer
		// podLists are the field selectors of the pod lists made.
		podLists []string
		wantErr  string
	}{
		{
			name:  "the cluster does not serve UpgradeConfigs",
			setup: setup{},
			want:  answer{Response: protocol.ResponseSuccess},
		},
		{
			name:  "served, but the cache has not listed them yet",
			setup: setup{served: true},
			want:  answer{Response: protocol.ResponseWait, Message: "the UpgradeConfig cache is not synced yet"},
		},
		{
			name:    "discovery fails",
			setup:   setup{discoveryErr: errors.New("connection refused")},
			wantErr: "asking whether the cluster serves upgrade.managed.openshift.io/v1alpha1: connection refused",
		},
		{
			name:  "no UpgradeConfig",
			setup: setup{synced: true, served: true},
			want:  answer{Response: protocol.ResponseSuccess},
		},
		{
			// pkg/configmanager/config.go: without its ConfigMap the
			// operator runs no update.
			name:  "scheduled, without the operator's ConfigMap",
			setup: setup{synced: true, upgradeConfigs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig("2026-11-22T14:00:00Z")}},
			want: answer{Response: protocol.ResponseSuccess, Insights: []string{
				"error Update Stalled: Managed update to 4.16.5 cannot proceed: the Managed Upgrade Operator's configuration is invalid", awaiting,
			}},
		},
		{
			// pkg/upgraders/osdupgrader.go shouldFailUpgrade: an hour
			// after its start, past a window of 30 minutes.
			name: "the ConfigMap's window decides whether a running update is given up",
			setup: setup{synced: true, cachesSynced: true,
				upgradeConfigs: []*upgradev1alpha1.UpgradeConfig{upgrading()},
				objects:        []runtime.Object{muoConfigMap(runnable + "upgradeWindow: {timeOut: 30}")}},
			want: answer{Response: protocol.ResponseSuccess, Insights: []string{
				"error Update Stalled: Managed update to 4.16.5 is being given up: it did not commence by 2026-11-22T09:30:00Z",
			}},
		},
		{
			// Its window absent is zero, whatever the operator's docs say
			// of a default: no update is given up.
			name: "no window in the ConfigMap",
			setup: setup{synced: true, cachesSynced: true,
				upgradeConfigs: []*upgradev1alpha1.UpgradeConfig{upgrading()},
				objects:        []runtime.Object{muoConfigMap(runnable)}},
			want: answer{Response: protocol.ResponseSuccess},
		},
		{
			name: "upgrading: the pods of drained nodes only are cached, and the ConfigMap's drain time counts",
			setup: setup{synced: true, cachesSynced: true,
				upgradeConfigs: []*upgradev1alpha1.UpgradeConfig{upgrading()},
				nodes:          []*corev1.Node{drainedNode("worker-a", 30*time.Minute), {ObjectMeta: metav1.ObjectMeta{Name: "worker-b"}}},
				budgets:        []*policyv1.PodDisruptionBudget{blockingBudget},
				objects:        []runtime.Object{muoConfigMap(strings.Replace(runnable, "expectedNodeDrainTime: 8", "expectedNodeDrainTime: 10", 1)), dbPod}},
			want: answer{Response: protocol.ResponseSuccess, Insights: []string{
				"warning Application Availability: Node worker-a: a PodDisruptionBudget blocks its drain; the Managed Upgrade Operator forces it at 2026-11-22T10:40:00Z, in 40m (until 2026-11-22T10:40:00Z)",
			}},
			podLists: []string{"spec.nodeName=worker-a"},
		},
		{
			name: "upgrading, before the node and budget caches are synced",
			setup: setup{synced: true,
				upgradeConfigs: []*upgradev1alpha1.UpgradeConfig{upgrading()},
				nodes:          []*corev1.Node{drainedNode("worker-a", 30*time.Minute)}},
			want: answer{Response: protocol.ResponseWait, Message: "the node and PodDisruptionBudget caches are not synced yet"},
		},
		{
			name: "scheduled: no pods are listed",
			setup: setup{synced: true, cachesSynced: true,
				upgradeConfigs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig("2026-11-22T14:00:00Z")},
				nodes:          []*corev1.Node{drainedNode("worker-a", 30*time.Minute)},
				objects:        []runtime.Object{muoConfigMap(runnable), dbPod}},
			want: answer{Response: protocol.ResponseSuccess, Insights: []string{awaiting}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.setup)
			got, err := f.status(t)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
			var podLists []string
			for _, a := range f.client.Actions() {
				if a.GetVerb() == "list" && a.GetResource().Resource == "pods" {
					podLists = append(podLists, a.(clienttesting.ListAction).GetListRestrictions().Fields.String())
				}
			}
			if diff := cmp.Diff(tc.podLists, podLists); diff != "" {
				t.Errorf("pod lists (-want +got):\n%s", diff)
			}
		})
	}
}

func TestConfigMapProblemsAreLoggedOnce(t *testing.T) {
	f := newFixture(t, setup{synced: true,
		upgradeConfigs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig("2026-11-22T14:00:00Z")},
		objects:        []runtime.Object{muoConfigMap(runnable + "upgradeWindow: {timeOut: soon}")}})
	configMaps := f.client.CoreV1().ConfigMaps(namespace)
	ask := func(step string, want int) {
		t.Helper()
		got, err := f.status(t)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if got.Response != protocol.ResponseSuccess || len(got.Insights) != want {
			t.Errorf("%s: answer %+v, want Success with %d insights", step, got, want)
		}
	}
	update := func(config string) {
		t.Helper()
		if _, err := configMaps.Update(context.Background(), muoConfigMap(runnable+config), metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, "the ConfigMap cache to hold "+config, f.cachedConfig(runnable+config))
	}

	// Unreadable, the configuration stops the operator
	// (pkg/configmanager/config.go): an insight says so, besides the
	// schedule.
	ask("first", 2)
	ask("again", 2)
	update("upgradeWindow: {timeOut: later}")
	ask("changed", 2)
	update("upgradeWindow: {timeOut: 30}")
	ask("fixed", 1)
	update("upgradeWindow: {timeOut: soon}")
	ask("broken again", 2)

	var problems []string
	for _, line := range *f.logged {
		if !strings.Contains(line, `"configMap"="muo/managed-upgrade-operator-config"`) {
			t.Fatalf("log line without the ConfigMap: %s", line)
		}
		_, value, _ := strings.Cut(line, "cannot unmarshal !!str `")
		value, _, _ = strings.Cut(value, "`")
		problems = append(problems, value)
	}
	if diff := cmp.Diff([]string{"soon", "later", "soon"}, problems); diff != "" {
		t.Errorf("the values logged as unreadable (-want +got):\n%s", diff)
	}
}

// TestConfigMapIsWatchedByName: the ConfigMap is listed and watched by
// name in its namespace, and calls read it from the cache, with no request
// of their own.
func TestConfigMapIsWatchedByName(t *testing.T) {
	f := newFixture(t, setup{synced: true, upgradeConfigs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig("2026-11-22T14:00:00Z")},
		objects: []runtime.Object{muoConfigMap(runnable + "upgradeWindow: {timeOut: 60}")}})
	requests := func() []string {
		var out []string
		for _, a := range f.client.Actions() {
			switch a := a.(type) {
			case clienttesting.ListAction:
				out = append(out, fmt.Sprintf("list %s %s %s", a.GetResource().Resource, a.GetNamespace(), a.GetListRestrictions().Fields))
			case clienttesting.WatchAction:
				out = append(out, fmt.Sprintf("watch %s %s %s", a.GetResource().Resource, a.GetNamespace(), a.GetWatchRestrictions().Fields))
			default:
				out = append(out, a.GetVerb()+" "+a.GetResource().Resource)
			}
		}
		return out
	}
	want := []string{
		"list configmaps muo metadata.name=managed-upgrade-operator-config",
		"watch configmaps muo metadata.name=managed-upgrade-operator-config",
	}
	waitUntil(t, "the ConfigMap watched", func() bool { return len(requests()) == len(want) })
	for range 3 {
		if got, err := f.status(t); err != nil || len(got.Insights) != 1 {
			t.Fatalf("answer %+v, error %v; want the scheduled update", got, err)
		}
	}
	if diff := cmp.Diff(want, requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// TestConfigMapUnreadable: until the ConfigMap cache has listed it, a call
// answers Wait, or the error of the list, as the read it replaces did.
func TestConfigMapUnreadable(t *testing.T) {
	f := newFixture(t, setup{synced: true, upgradeConfigs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig("2026-11-22T14:00:00Z")},
		configMapErr: errors.New("etcdserver: request timed out")})
	var err error
	waitUntil(t, "a call to fail", func() bool {
		var got answer
		got, err = f.status(t)
		if err == nil && (got.Response != protocol.ResponseWait || got.Message != "the ConfigMap cache is not synced yet") {
			t.Fatalf("answer %+v, want Wait for the ConfigMap cache before its list fails", got)
		}
		return err != nil
	})
	want := "reading ConfigMap muo/managed-upgrade-operator-config: failed to list *v1.ConfigMap: etcdserver: request timed out"
	if err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

func TestPlanInsights(t *testing.T) {
	for _, tc := range []struct {
		name   string
		setup  setup
		target string
		want   answer
	}{
		{name: "not served", target: "4.16.5", want: answer{Response: protocol.ResponseSuccess}},
		{name: "not synced", setup: setup{served: true}, target: "4.16.5",
			want: answer{Response: protocol.ResponseWait, Message: "the UpgradeConfig cache is not synced yet"}},
		{name: "another target conflicts", target: "4.17.0",
			setup: setup{synced: true, upgradeConfigs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig("2026-11-22T14:00:00Z")}},
			want: answer{Response: protocol.ResponseSuccess, Insights: []string{
				"warning Update Stalled: A managed update to 4.16.5 is scheduled to start at 2026-11-22T14:00:00Z, in 4h; an update to 4.17.0 would conflict with it",
			}}},
		{name: "the same target is the managed one", target: "4.16.5",
			setup: setup{synced: true, upgradeConfigs: []*upgradev1alpha1.UpgradeConfig{upgrading()}},
			want: answer{Response: protocol.ResponseSuccess, Insights: []string{
				"status : The Managed Upgrade Operator is updating the cluster to 4.16.5",
			}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := newFixture(t, tc.setup).plan(t, tc.target)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
}
