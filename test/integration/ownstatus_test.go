package integration

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// removeCRDs deletes CRDs for the test, and returns a function that installs
// them again from their files (also run when the test ends).
func removeCRDs(t *testing.T, crds map[string]string) (reinstall func()) {
	t.Helper()
	ctx := context.Background()
	client := apiextensionsclient.NewForConfigOrDie(testEnv.Config).ApiextensionsV1().CustomResourceDefinitions()
	var files []string
	for name, file := range crds {
		files = append(files, file)
		if err := client.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		waitFor(t, eventually, "CRD "+name+" to be gone", func(ctx context.Context) (*apiextensionsv1.CustomResourceDefinition, error) {
			return client.Get(ctx, name, metav1.GetOptions{})
		}, func(crd *apiextensionsv1.CustomResourceDefinition) bool { return crd == nil })
	}
	installed := false
	reinstall = func() {
		if installed {
			return
		}
		installed = true
		if _, err := envtest.InstallCRDs(testEnv.Config, envtest.CRDInstallOptions{Paths: files, ErrorIfPathMissing: true}); err != nil {
			t.Fatalf("reinstalling %v: %v", files, err)
		}
	}
	t.Cleanup(reinstall)
	return reinstall
}

// waitForServed waits until the API server serves resources of groupVersion:
// a CRD takes a moment after it is established.
func waitForServed(t testing.TB, groupVersion string, resources ...string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, eventually, true, func(context.Context) (bool, error) {
		list, err := kubeClient.Discovery().ServerResourcesForGroupVersion(groupVersion)
		if err != nil {
			return false, nil
		}
		for _, r := range resources {
			if !slices.ContainsFunc(list.APIResources, func(served metav1.APIResource) bool { return served.Name == r }) {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		t.Fatalf("waiting for %s to serve %v: %v", groupVersion, resources, err)
	}
}

// availableMessage is the message of the ClusterOperator's Available
// condition.
func availableMessage(co *configv1.ClusterOperator) string {
	if c := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorAvailable); c != nil {
		return c.Message
	}
	return ""
}

// On a cluster that does not serve MachineConfigPools (a hosted control
// plane, MicroShift, plain Kubernetes), the node controller is off and the
// operator says so, healthy and at its version: it does not block the
// cluster's updates. Once the API appears, the node controller starts in the
// same process.
func TestWithoutMachineConfigPoolsTheNodeControllerIsOffUntilTheyAppear(t *testing.T) {
	reinstall := removeCRDs(t, map[string]string{
		"machineconfigpools.machineconfiguration.openshift.io": "../testdata/crds/0000_80_machine-config_01_machineconfigpools-Default.crd.yaml",
		"machineconfigs.machineconfiguration.openshift.io":     "../testdata/crds/0000_80_machine-config_01_machineconfigs.crd.yaml",
	})
	restoreOwnClusterOperatorWhenDone(t)
	if err := resetOwnClusterOperator(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { deleteNodeInsights(t) })
	op := startOperator(t, "--degraded-grace-period=3s", "--optional-api-interval=1s")

	const off = "Node controller: off, the cluster does not serve machineconfigpools.machineconfiguration.openshift.io/v1 and machineconfigs.machineconfiguration.openshift.io/v1"
	co := waitForOwnClusterOperator(t, eventually, "healthy at its version, the node controller off", func(co *configv1.ClusterOperator) bool {
		return conditionsAre(co, healthyConditions) && len(co.Status.Versions) == 1 && co.Status.Versions[0].Version == testVersion &&
			strings.Contains(availableMessage(co), off)
	})
	op.waitForOutput(t, "A controller is off", eventually)
	// Past the grace period, an operator that counted the controller's
	// caches as a problem would have turned Degraded or unavailable.
	time.Sleep(4 * time.Second)
	co, err := configClient.ConfigV1().ClusterOperators().Get(context.Background(), names.OwnClusterOperator, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !conditionsAre(co, healthyConditions) {
		t.Fatalf("past the grace period: %s, want healthy", describeConditions(co))
	}
	t.Logf("Available=True: %q", availableMessage(co))

	reinstall()
	waitForServed(t, "machineconfiguration.openshift.io/v1", "machineconfigpools", "machineconfigs")
	createClusterVersion(t, nil, midUpdateStatus())
	for config, version := range renderedConfigs {
		createRenderedConfig(t, config, version)
	}
	createPool(t, nodes.WorkerPool)
	createNode(t, "worker-0", atRest("rendered-worker-old"), nodes.WorkerPool)
	waitFor(t, eventually, "the node's insight", func(ctx context.Context) (*insightsv1alpha1.NodeProgressInsight, error) {
		return insightsClient.InsightsV1alpha1().NodeProgressInsights().Get(ctx, "worker-0", metav1.GetOptions{})
	}, func(i *insightsv1alpha1.NodeProgressInsight) bool { return i != nil })
	waitForOwnClusterOperator(t, eventually, "healthy, with the node controller working", func(co *configv1.ClusterOperator) bool {
		return conditionsAre(co, healthyConditions) && !strings.Contains(availableMessage(co), "Node controller")
	})
	if !op.Running() || strings.Count(op.output.String(), "operator started") != 1 {
		t.Errorf("the node controller did not start within the process that was running")
	}
}

// An informer that cannot list its resource keeps its controller from
// starting: once the grace period has passed, the operator is not Available
// and Degraded, and claims no version; when the resource comes back it
// recovers on its own. It is never not Upgradeable.
func TestCachesThatDoNotSyncMakeTheOperatorUnavailable(t *testing.T) {
	reinstall := removeCRDs(t, map[string]string{
		"clusteroperatorprogressinsights.openshift.muller.dev": "../../manifests/0000_50_update-insights-operator_01_clusteroperatorprogressinsights.crd.yaml",
	})
	restoreOwnClusterOperatorWhenDone(t)
	if err := resetOwnClusterOperator(context.Background()); err != nil {
		t.Fatal(err)
	}
	const grace = 3 * time.Second
	startOperator(t, fmt.Sprintf("--degraded-grace-period=%s", grace))

	unavailable := map[configv1.ClusterStatusConditionType]configv1.ConditionStatus{
		configv1.OperatorAvailable:   configv1.ConditionFalse,
		configv1.OperatorProgressing: configv1.ConditionTrue,
		configv1.OperatorDegraded:    configv1.ConditionTrue,
		configv1.OperatorUpgradeable: configv1.ConditionTrue,
	}
	co := waitForOwnClusterOperator(t, eventually, "unavailable", func(co *configv1.ClusterOperator) bool {
		return conditionsAre(co, unavailable)
	})
	available := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorAvailable)
	// Every controller that reads the resource waits for it, each said.
	want := regexp.MustCompile(`^ClusterOperator controller: waiting since \S+ for its caches to sync: clusteroperatorprogressinsights\n` +
		`UpdateRecord controller: waiting since \S+ for its caches to sync: clusteroperatorprogressinsights$`)
	if available.Reason != "ClusterOperatorCacheNotSynced" || !want.MatchString(available.Message) {
		t.Errorf("Available=False with %s: %q, want ClusterOperatorCacheNotSynced naming clusteroperatorprogressinsights for the two controllers that read it", available.Reason, available.Message)
	}
	if progressing := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorProgressing); progressing.Reason != "Installing" {
		t.Errorf("Progressing=True with %s, want Installing: the ClusterOperator reported no version", progressing.Reason)
	}
	if len(co.Status.Versions) != 0 {
		t.Errorf("versions %v claimed before every controller runs", co.Status.Versions)
	}

	reinstall()
	restoredAt := time.Now()
	waitForOwnClusterOperator(t, eventually, "healthy at its version once the informer syncs", func(co *configv1.ClusterOperator) bool {
		return conditionsAre(co, healthyConditions) && len(co.Status.Versions) == 1 && co.Status.Versions[0].Version == testVersion
	})
	t.Logf("healthy and at its version %s after the CRD came back", time.Since(restoredAt).Round(time.Millisecond))
}

// drainWatch returns the ClusterOperators a watch has delivered so far.
func drainWatch(t *testing.T, w watch.Interface) []*configv1.ClusterOperator {
	t.Helper()
	var written []*configv1.ClusterOperator
	for {
		select {
		case event, ok := <-w.ResultChan():
			if !ok {
				t.Fatal("the watch of the ClusterOperator ended early")
			}
			if event.Type != watch.Modified {
				t.Fatalf("the ClusterOperator was %s", event.Type)
			}
			written = append(written, event.Object.(*configv1.ClusterOperator))
		default:
			return written
		}
	}
}

// A restart at the version the ClusterOperator reports, with a healthy
// cluster, is no event for the cluster-version operator: watched for the
// whole restart, the ClusterOperator never stops being Available, not
// Progressing, not Degraded and Upgradeable. A restart at a new version may
// only be Progressing, towards that version, until it reports it.
func TestRestartNeverBlocksUpdates(t *testing.T) {
	restoreOwnClusterOperatorWhenDone(t)
	createClusterVersion(t, nil, midUpdateStatus())
	first := startOperator(t)
	// A test before may have left the ClusterOperator healthy at this
	// version: the operator must have started, its signal handler with it,
	// before it is stopped.
	first.waitForOutput(t, "operator started", eventually)
	co := waitForOwnClusterOperator(t, eventually, "healthy at its version", func(co *configv1.ClusterOperator) bool {
		return conditionsAre(co, healthyConditions) && len(co.Status.Versions) == 1 && co.Status.Versions[0].Version == testVersion
	})

	ctx := context.Background()
	w, err := configClient.ConfigV1().ClusterOperators().Watch(ctx, metav1.ListOptions{
		FieldSelector:   fields.OneTermEqualSelector("metadata.name", names.OwnClusterOperator).String(),
		ResourceVersion: co.ResourceVersion,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	first.stop(t, terminationGracePeriod)
	second := startOperator(t)
	second.waitForOutput(t, "operator started", eventually)
	// Long enough for the status controller to have written anything it
	// was going to, while the caches synced and after.
	time.Sleep(5 * time.Second)
	written := drainWatch(t, w)
	for _, co := range written {
		if !conditionsAre(co, healthyConditions) {
			t.Errorf("during a restart at the same version the ClusterOperator was written with %s", describeConditions(co))
		}
	}
	t.Logf("the ClusterOperator was written %d times during a restart at the same version", len(written))

	second.stop(t, terminationGracePeriod)
	const next = "v0.0.1-integration"
	t.Setenv("RELEASE_VERSION", next)
	startOperator(t)
	waitForOwnClusterOperator(t, eventually, "healthy at "+next, func(co *configv1.ClusterOperator) bool {
		return conditionsAre(co, healthyConditions) && len(co.Status.Versions) == 1 && co.Status.Versions[0].Version == next
	})
	for _, co := range drainWatch(t, w) {
		stillOld := len(co.Status.Versions) == 1 && co.Status.Versions[0].Version == testVersion
		progressing := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorProgressing)
		progressingTowardsIt := stillOld && progressing != nil && progressing.Status == configv1.ConditionTrue && progressing.Reason == "Updating"
		if !conditionsAre(co, healthyConditions) && !(progressingTowardsIt && conditionsAre(co, map[configv1.ClusterStatusConditionType]configv1.ConditionStatus{
			configv1.OperatorAvailable:   configv1.ConditionTrue,
			configv1.OperatorDegraded:    configv1.ConditionFalse,
			configv1.OperatorUpgradeable: configv1.ConditionTrue,
		})) {
			t.Errorf("during a restart at a new version the ClusterOperator was written with %s", describeConditions(co))
		}
	}
}

func describeConditions(co *configv1.ClusterOperator) string {
	var parts []string
	for _, c := range co.Status.Conditions {
		parts = append(parts, fmt.Sprintf("%s=%s (%s)", c.Type, c.Status, c.Reason))
	}
	return strings.Join(parts, ", ")
}

// A crash-looping operator, each of whose runs is shorter than the grace
// period, still becomes Degraded once the grace period has passed since its
// problem began: the problem's start survives in the controller's own
// condition.
func TestCrashLoopingOperatorStillBecomesDegraded(t *testing.T) {
	const (
		grace = 10 * time.Second
		// Each run is shorter than the grace period, so that no run on its
		// own could see the problem last that long.
		run = 9 * time.Second
	)
	denyClusterVersionInsightWrites(t)
	restoreOwnClusterOperatorWhenDone(t)
	createClusterOperators(t, map[string]string{"etcd": toVersion, "dns": fromVersion})
	createClusterVersion(t, nil, midUpdateStatus())

	// A killed run would hold the lease until it expires, and the next one
	// spend most of its time waiting to lead: the lease is deleted with each
	// run, as if it had expired, so that each run leads at once. A few runs
	// leave room for a busy machine's slow starts.
	const runs = 5
	var degraded *configv1.ClusterOperator
	for i := 1; i <= runs && degraded == nil; i++ {
		op := startOperator(t, fmt.Sprintf("--degraded-grace-period=%s", grace))
		deadline := time.Now().Add(run)
		for time.Now().Before(deadline) && degraded == nil {
			co, err := configClient.ConfigV1().ClusterOperators().Get(context.Background(), names.OwnClusterOperator, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if v1helpers.IsStatusConditionTrue(co.Status.Conditions, configv1.OperatorDegraded) {
				degraded = co
				t.Logf("Degraded during run %d", i)
			}
			time.Sleep(200 * time.Millisecond)
		}
		op.Kill()
		deleteLease(t)
	}
	if degraded == nil {
		t.Fatalf("%d runs of %s each did not make the operator Degraded with a grace period of %s", runs, run, grace)
	}
	reason := v1helpers.FindStatusCondition(degraded.Status.Conditions, configv1.OperatorDegraded).Reason
	if reason != "ClusterVersionWriteRejected" {
		t.Errorf("Degraded with %s, want ClusterVersionWriteRejected", reason)
	}
	own := v1helpers.FindStatusCondition(degraded.Status.Conditions, "ClusterVersionControllerDegraded")
	if own == nil || own.Status != configv1.ConditionTrue || own.Reason != "ClusterVersionWriteRejected" {
		t.Fatalf("ClusterVersionControllerDegraded is %+v, want True with ClusterVersionWriteRejected", own)
	}
	degradedAt := v1helpers.FindStatusCondition(degraded.Status.Conditions, configv1.OperatorDegraded).LastTransitionTime
	if lasted := degradedAt.Sub(own.LastTransitionTime.Time); lasted < grace-time.Second {
		t.Errorf("Degraded %s after the problem began, want at least the grace period %s", lasted, grace)
	}
}
