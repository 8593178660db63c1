package integration

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	machineconfigurationclient "github.com/openshift/client-go/machineconfiguration/clientset/versioned"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/rest"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// The rendered MachineConfigs of the node tests, at the version each
// belongs to.
const (
	oldMasterConfig = "rendered-master-old"
	newMasterConfig = "rendered-master-new"
	oldWorkerConfig = "rendered-worker-old"
	newWorkerConfig = "rendered-worker-new"
)

var renderedConfigs = map[string]string{
	oldMasterConfig: fromVersion,
	newMasterConfig: toVersion,
	oldWorkerConfig: fromVersion,
	newWorkerConfig: toVersion,
}

// machineConfigClients makes the client of MachineConfigPools and
// MachineConfigs on first use: only the node tests need it.
var machineConfigClients = sync.OnceValues(func() (machineconfigurationclient.Interface, error) {
	cfg := rest.CopyConfig(testEnv.Config)
	cfg.QPS, cfg.Burst = 1000, 2000
	return machineconfigurationclient.NewForConfig(cfg)
})

func machineConfigClient(t testing.TB) machineconfigurationclient.Interface {
	t.Helper()
	c, err := machineConfigClients()
	if err != nil {
		t.Fatalf("making the MachineConfig client: %v", err)
	}
	return c
}

// startNodeOperator starts the operator on a cluster updating from
// fromVersion to toVersion, with master and worker pools whose rendered
// configurations exist at both versions. extra are more operator flags.
func startNodeOperator(t testing.TB, extra ...string) *operatorProcess {
	t.Helper()
	// Registered before the operator starts, so that it runs after the
	// operator stops and can no longer delete the insights of the test's
	// nodes and pools itself: the next test must not find them.
	t.Cleanup(func() { deleteNodeInsights(t) })
	op := startOperator(t, extra...)
	createClusterVersion(t, nil, midUpdateStatus())
	for config, version := range renderedConfigs {
		createRenderedConfig(t, config, version)
	}
	createPool(t, nodes.MasterPool)
	createPool(t, nodes.WorkerPool)
	return op
}

func deleteNodeInsights(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	c := insightsClient.InsightsV1alpha1()
	if err := c.NodeProgressInsights().DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
		t.Errorf("deleting the NodeProgressInsights left by the test: %v", err)
	}
	if err := c.MachineConfigPoolProgressInsights().DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
		t.Errorf("deleting the MachineConfigPoolProgressInsights left by the test: %v", err)
	}
	if err := c.UpdateHealthInsights().DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "insight-manager=node"}); err != nil {
		t.Errorf("deleting the node health insights left by the test: %v", err)
	}
}

func roleLabel(role string) string {
	return "node-role.kubernetes.io/" + role
}

// createPool creates a pool of the nodes with the role of its name, as the
// machine-config operator does, and deletes it when the test ends.
func createPool(t testing.TB, name string) {
	t.Helper()
	pool := &machineconfigurationv1.MachineConfigPool{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: machineconfigurationv1.MachineConfigPoolSpec{
			NodeSelector: &metav1.LabelSelector{MatchLabels: map[string]string{roleLabel(name): ""}},
		},
	}
	pools := machineConfigClient(t).MachineconfigurationV1().MachineConfigPools()
	if _, err := pools.Create(context.Background(), pool, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating MachineConfigPool %s: %v", name, err)
	}
	t.Cleanup(func() {
		if err := pools.Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting MachineConfigPool %s: %v", name, err)
		}
	})
}

func setPoolPaused(t testing.TB, name string, paused bool) {
	t.Helper()
	ctx := context.Background()
	pools := machineConfigClient(t).MachineconfigurationV1().MachineConfigPools()
	pool, err := pools.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pool.Spec.Paused = paused
	if _, err := pools.Update(ctx, pool, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("pausing MachineConfigPool %s (%t): %v", name, paused, err)
	}
}

// createRenderedConfig creates a rendered MachineConfig of the given
// OpenShift version and deletes it when the test ends.
func createRenderedConfig(t testing.TB, name, version string) {
	t.Helper()
	mc := &machineconfigurationv1.MachineConfig{
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Annotations: map[string]string{nodes.ReleaseImageVersionAnnotation: version},
		},
	}
	configs := machineConfigClient(t).MachineconfigurationV1().MachineConfigs()
	if _, err := configs.Create(context.Background(), mc, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating MachineConfig %s: %v", name, err)
	}
	t.Cleanup(func() {
		if err := configs.Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting MachineConfig %s: %v", name, err)
		}
	})
}

// atRest is what the machine-config daemon leaves on a node that is done
// applying config.
func atRest(config string) map[string]string {
	return map[string]string{
		nodes.CurrentConfigAnnotation:    config,
		nodes.DesiredConfigAnnotation:    config,
		nodes.StateAnnotation:            "Done",
		nodes.DesiredDrainAnnotation:     "uncordon-" + config,
		nodes.LastAppliedDrainAnnotation: "uncordon-" + config,
	}
}

// withChanges returns annotations with changes applied; an empty value
// removes the annotation.
func withChanges(annotations, changes map[string]string) map[string]string {
	result := maps.Clone(annotations)
	for k, v := range changes {
		if v == "" {
			delete(result, k)
		} else {
			result[k] = v
		}
	}
	return result
}

// createNode creates a Ready node with the given machine-config annotations
// and role labels, and deletes it when the test ends.
func createNode(t testing.TB, name string, annotations map[string]string, roles ...string) {
	t.Helper()
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{}, Annotations: annotations}}
	for _, role := range roles {
		node.Labels[roleLabel(role)] = ""
	}
	if _, err := kubeClient.CoreV1().Nodes().Create(context.Background(), node, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating node %s: %v", name, err)
	}
	t.Cleanup(func() {
		if err := kubeClient.CoreV1().Nodes().Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting node %s: %v", name, err)
		}
	})
	setNodeCondition(t, name, corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady",
		LastTransitionTime: metav1.Now()})
}

// updateNode applies change to the node as the API server has it.
func updateNode(t testing.TB, name string, change func(*corev1.Node)) {
	t.Helper()
	ctx := context.Background()
	node, err := kubeClient.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	change(node)
	if _, err := kubeClient.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("updating node %s: %v", name, err)
	}
}

// setNodeAnnotations changes the node's annotations; an empty value
// removes the annotation.
func setNodeAnnotations(t testing.TB, name string, changes map[string]string) {
	t.Helper()
	updateNode(t, name, func(n *corev1.Node) { n.Annotations = withChanges(n.Annotations, changes) })
}

// updateNodeStatus applies change to the node's status as the API server
// has it; an update of the node itself ignores its status.
func updateNodeStatus(t testing.TB, name string, change func(*corev1.NodeStatus)) {
	t.Helper()
	ctx := context.Background()
	node, err := kubeClient.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	change(&node.Status)
	if _, err := kubeClient.CoreV1().Nodes().UpdateStatus(ctx, node, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("writing the status of node %s: %v", name, err)
	}
}

// setNodeCondition replaces the node's condition of that type.
func setNodeCondition(t testing.TB, name string, condition corev1.NodeCondition) {
	t.Helper()
	updateNodeStatus(t, name, func(s *corev1.NodeStatus) {
		s.Conditions = slices.DeleteFunc(s.Conditions, func(c corev1.NodeCondition) bool { return c.Type == condition.Type })
		s.Conditions = append(s.Conditions, condition)
	})
}

// Condition states as the views below show them.
const (
	notDegraded = "False AsExpected"
	available   = "True AsExpected"
	processing  = "False MachineConfigDaemonProcessing"
	healthy     = "True AsExpected"
)

// nodeView is what the node tests check of a NodeProgressInsight: its
// conditions by status and reason, not their messages or times, which
// depend on when the operator saw each change.
type nodeView struct {
	Pool      insightsv1alpha1.ResourceRef
	Scope     insightsv1alpha1.ScopeType
	Version   string
	Updating  string
	Degraded  string
	Available string
	Message   string
	Estimate  string
}

func poolRef(name string) insightsv1alpha1.ResourceRef {
	return insightsv1alpha1.ResourceRef{Group: "machineconfiguration.openshift.io", Resource: "machineconfigpools", Name: name}
}

func conditionState(conditions []metav1.Condition, conditionType string) string {
	c := meta.FindStatusCondition(conditions, conditionType)
	if c == nil {
		return ""
	}
	return string(c.Status) + " " + c.Reason
}

func viewNode(i *insightsv1alpha1.NodeProgressInsight) *nodeView {
	if i == nil {
		return nil
	}
	s := i.Status
	v := &nodeView{
		Pool:      s.PoolResource,
		Scope:     s.ScopeType,
		Version:   s.Version,
		Updating:  conditionState(s.Conditions, insightsv1alpha1.NodeProgressInsightUpdating),
		Degraded:  conditionState(s.Conditions, insightsv1alpha1.NodeProgressInsightDegraded),
		Available: conditionState(s.Conditions, insightsv1alpha1.NodeProgressInsightAvailable),
		Message:   s.Message,
	}
	if s.EstimatedToComplete != nil {
		v.Estimate = s.EstimatedToComplete.Duration.String()
	}
	return v
}

// poolCounts are a pool insight's summaries.
type poolCounts struct {
	Total, Available, Progressing, Outdated, Draining, Excluded, Degraded int32
}

// poolView is what the node tests check of a
// MachineConfigPoolProgressInsight.
type poolView struct {
	Scope      insightsv1alpha1.ScopeType
	Assessment insightsv1alpha1.PoolAssessment
	Completion int32
	Updating   string
	Healthy    string
	Counts     poolCounts
}

func viewPool(i *insightsv1alpha1.MachineConfigPoolProgressInsight) *poolView {
	if i == nil {
		return nil
	}
	s := i.Status
	v := &poolView{
		Scope:      s.ScopeType,
		Assessment: s.Assessment,
		Completion: s.CompletionPercent,
		Updating:   conditionState(s.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightUpdating),
		Healthy:    conditionState(s.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightHealthy),
	}
	for _, summary := range s.Summaries {
		count := map[insightsv1alpha1.NodeSummaryType]*int32{
			insightsv1alpha1.NodesTotal:       &v.Counts.Total,
			insightsv1alpha1.NodesAvailable:   &v.Counts.Available,
			insightsv1alpha1.NodesProgressing: &v.Counts.Progressing,
			insightsv1alpha1.NodesOutdated:    &v.Counts.Outdated,
			insightsv1alpha1.NodesDraining:    &v.Counts.Draining,
			insightsv1alpha1.NodesExcluded:    &v.Counts.Excluded,
			insightsv1alpha1.NodesDegraded:    &v.Counts.Degraded,
		}[summary.Type]
		if count != nil {
			*count = summary.Count
		}
	}
	return v
}

// healthView is what the node tests check of an UpdateHealthInsight.
type healthView struct {
	Level     insightsv1alpha1.InsightImpactLevel
	Summary   string
	Scope     insightsv1alpha1.ScopeType
	Resources string
}

func viewHealth(i *insightsv1alpha1.UpdateHealthInsight) healthView {
	var resources []string
	for _, r := range i.Status.Scope.Resources {
		resources = append(resources, r.Resource+"/"+r.Name)
	}
	return healthView{
		Level:     i.Status.Impact.Level,
		Summary:   i.Status.Impact.Summary,
		Scope:     i.Status.Scope.Type,
		Resources: strings.Join(resources, ","),
	}
}

// waitForView polls get until view of what it returns (nil while it does
// not exist) is want, and fails with the difference from the last seen.
func waitForView[T, V any](t testing.TB, timeout time.Duration, what string, get func(context.Context) (*T, error), view func(*T) V, want V) *T {
	t.Helper()
	var last *T
	var diff string
	err := wait.PollUntilContextTimeout(context.Background(), 20*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		o, err := get(ctx)
		if apierrors.IsNotFound(err) {
			o, err = nil, nil
		}
		if err != nil {
			return false, err
		}
		last = o
		diff = cmp.Diff(want, view(o))
		return diff == "", nil
	})
	if err != nil {
		t.Fatalf("waiting %s for %s: %v; last seen (-want +got):\n%s", timeout, what, err, diff)
	}
	return last
}

// waitForNodeInsight waits until the insight of the node is want, or gone
// if want is nil.
func waitForNodeInsight(t testing.TB, name string, want *nodeView) *insightsv1alpha1.NodeProgressInsight {
	t.Helper()
	return waitForNodeInsightWithin(t, eventually, name, want)
}

// waitForNodeInsightWithin is waitForNodeInsight with a limit of its own.
func waitForNodeInsightWithin(t testing.TB, timeout time.Duration, name string, want *nodeView) *insightsv1alpha1.NodeProgressInsight {
	t.Helper()
	return waitForView(t, timeout, "the insight of node "+name, func(ctx context.Context) (*insightsv1alpha1.NodeProgressInsight, error) {
		return insightsClient.InsightsV1alpha1().NodeProgressInsights().Get(ctx, name, metav1.GetOptions{})
	}, viewNode, want)
}

// waitForPoolInsight waits until the insight of the pool is want, or gone
// if want is nil.
func waitForPoolInsight(t testing.TB, name string, want *poolView) *insightsv1alpha1.MachineConfigPoolProgressInsight {
	t.Helper()
	return waitForView(t, eventually, "the insight of pool "+name, func(ctx context.Context) (*insightsv1alpha1.MachineConfigPoolProgressInsight, error) {
		return insightsClient.InsightsV1alpha1().MachineConfigPoolProgressInsights().Get(ctx, name, metav1.GetOptions{})
	}, viewPool, want)
}

// waitForNodeHealthInsights waits until the node controller's health
// insights, ordered by summary, are want, and returns them in no
// particular order.
func waitForNodeHealthInsights(t testing.TB, want []healthView) []insightsv1alpha1.UpdateHealthInsight {
	t.Helper()
	return waitForHealthInsightsOf(t, "insight-manager=node", want)
}

// waitForHealthInsightsOf waits until the health insights of selector,
// ordered by summary, are want, and returns them in no particular order.
func waitForHealthInsightsOf(t testing.TB, selector string, want []healthView) []insightsv1alpha1.UpdateHealthInsight {
	t.Helper()
	list := waitForView(t, eventually, "the health insights of "+selector, func(ctx context.Context) (*insightsv1alpha1.UpdateHealthInsightList, error) {
		return insightsClient.InsightsV1alpha1().UpdateHealthInsights().List(ctx, metav1.ListOptions{LabelSelector: selector})
	}, func(l *insightsv1alpha1.UpdateHealthInsightList) []healthView {
		var views []healthView
		for i := range l.Items {
			views = append(views, viewHealth(&l.Items[i]))
		}
		slices.SortFunc(views, func(a, b healthView) int { return strings.Compare(a.Summary, b.Summary) })
		return views
	}, want)
	return list.Items
}
