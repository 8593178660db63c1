package statusview_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodepools"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/internal/hostedtest"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/recorded"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

// hostedNow is when the hosted cluster below is looked at: 20 minutes into
// its control plane's update.
var hostedNow = time.Date(2026, 8, 20, 10, 20, 0, 0, time.UTC)

// hostedControlPlane is a hosted cluster's ClusterVersion and
// ClusterOperators 20 minutes into its control plane's update from 4.17.8 to
// 4.18.3: the cluster-version operator on the management cluster writes the
// ClusterVersion as on any cluster; the hosted-cluster-config-operator's six
// ClusterOperators flipped to 4.18.3 when its new pod started
// (hostedtest.SyntheticOperators); of the fifteen operators that run in the
// guest, six are updated and network is updating.
func hostedControlPlane() (*configv1.ClusterVersion, []*configv1.ClusterOperator) {
	started := hostedNow.Add(-20 * time.Minute)
	cv := &configv1.ClusterVersion{ObjectMeta: metav1.ObjectMeta{Name: "version"}}
	cv.Status.Desired.Version = "4.18.3"
	cv.Status.Conditions = []configv1.ClusterOperatorStatusCondition{
		{Type: configv1.OperatorProgressing, Status: configv1.ConditionTrue, LastTransitionTime: metav1.NewTime(started),
			Message: "Working towards 4.18.3: 412 of 601 done (68% complete), waiting on network"},
		{Type: "Failing", Status: configv1.ConditionFalse, LastTransitionTime: metav1.NewTime(started)},
	}
	completed := metav1.NewTime(started.Add(-30*24*time.Hour + 41*time.Minute))
	cv.Status.History = []configv1.UpdateHistory{
		{Version: "4.18.3", State: configv1.PartialUpdate, StartedTime: metav1.NewTime(started)},
		{Version: "4.17.8", State: configv1.CompletedUpdate, StartedTime: metav1.NewTime(started.Add(-30 * 24 * time.Hour)), CompletionTime: &completed},
	}

	operators := hostedtest.SyntheticOperators("4.18.3", "1.31.6", started.Add(-60*24*time.Hour))
	for i, name := range []string{"console", "csi-snapshot-controller", "dns", "image-registry", "ingress", "insights"} {
		operators = append(operators, hostedtest.RealOperator(name, "4.18.3", false, started.Add(time.Duration(3+2*i)*time.Minute)))
	}
	network := hostedtest.RealOperator("network", "4.17.8", true, started.Add(15*time.Minute))
	network.Status.Conditions[1].Reason = "Deploying"
	network.Status.Conditions[1].Message = `DaemonSet "/openshift-multus/multus" is not available (awaiting 2 nodes)`
	operators = append(operators, network)
	for _, name := range []string{"kube-storage-version-migrator", "monitoring", "node-tuning", "openshift-samples",
		"operator-lifecycle-manager", "operator-lifecycle-manager-catalog", "service-ca", "storage"} {
		operators = append(operators, hostedtest.RealOperator(name, "4.17.8", false, started.Add(-30*24*time.Hour)))
	}
	return cv, operators
}

// hostedInsights are the insights of the hosted cluster: the control
// plane's as its controllers compute them on a hosted cluster (the pure
// functions, as analyze calls them), and its NodePools' as the NodePool
// controller writes them (test/testdata/hosted/nodepools-updating.yaml).
func hostedInsights(t *testing.T) *statusview.Insights {
	cv, all := hostedControlPlane()
	operators := controlplane.CountedOperators(hosted.Hosted, controlplane.PayloadOperators(all))
	var objects []runtime.Object
	for _, co := range operators {
		objects = append(objects, &insightsv1alpha1.ClusterOperatorProgressInsight{
			ObjectMeta: metav1.ObjectMeta{Name: co.Name},
			Status:     controlplane.ClusterOperatorProgress(co, cv.Status.Desired.Version, "", nil, hostedNow),
		})
	}
	status, health, _ := controlplane.Assess(cv, operators, hosted.Hosted, "", nil, nil, hostedNow)
	objects = append(objects, &insightsv1alpha1.ClusterVersionProgressInsight{ObjectMeta: metav1.ObjectMeta{Name: cv.Name}, Status: status})
	for _, h := range health {
		objects = append(objects, &insightsv1alpha1.UpdateHealthInsight{ObjectMeta: metav1.ObjectMeta{Name: h.Name}, Status: h.Status})
	}
	nodePools, err := recorded.Read(filepath.Join("..", "..", "test", "testdata", "hosted", "nodepools-updating.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	in, err := statusview.InsightsOf(append(objects, nodePools...))
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestHostedCluster renders a hosted cluster during its control plane's
// update, with a NodePool updating in place, one rolling out new nodes and
// one behind the control plane, and checks it against golden files
// (regenerate with `go test ./pkg/statusview -run TestHostedCluster
// -update`): the control plane section and one section per NodePool, laid
// out as on a standalone cluster, the control plane counting only the
// guest's fifteen operators, the NodePool behind shown as Behind with its
// reason and not as updating, NodePool nodes with no OpenShift version
// shown with the placeholder, and never a MachineConfigPool.
func TestHostedCluster(t *testing.T) {
	s, err := statusview.Build(hostedInsights(t), hostedNow)
	if err != nil {
		t.Fatal(err)
	}
	rendered := map[string]string{}
	for suffix, details := range map[string]statusview.Details{
		".output":          {},
		".detailed-output": {Operators: true, Nodes: true, Health: true},
	} {
		var out bytes.Buffer
		if err := statusview.WriteText(&out, s, details); err != nil {
			t.Fatal(err)
		}
		recordedtest.CheckGolden(t, recordedtest.Golden(filepath.Join(golden, "hosted", "control-plane-and-nodepools"+suffix)), out.Bytes())
		rendered[suffix] = out.String()
	}
	content, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	recordedtest.CheckGolden(t, recordedtest.Golden(filepath.Join(golden, "hosted", "control-plane-and-nodepools.json")), append(content, '\n'))
	rendered[".json"] = string(content)

	for suffix, out := range rendered {
		if strings.Contains(out, "MachineConfigPool") || strings.Contains(out, "machineconfigpools") {
			t.Errorf("%s names a MachineConfigPool:\n%s", suffix, out)
		}
	}
	for _, want := range []string{
		"Completion:      40% (6 operators updated, 1 updating, 8 waiting)\n",
		"Operator Health: 15 Healthy\n",
		"workers-old       Behind        0% (0/2)",
		"NodePool workers-old is behind the control plane: The NodePool's nodes run kubelet v1.29.12+f67aeb3, 2 minor releases behind the control plane's 1.31.6.",
		"Worker Pool Nodes: workers-inplace\n",
		"Worker Pool Nodes: workers-replace\n",
		"Worker Pool Nodes: workers-old\n",
		"workers-inplace-8nt5v   Progressing   Draining   ?         +6m",
		// Nothing updates a NodePool behind: its nodes are not Outdated
		// Pending, which reads as an update to come.
		"workers-old-9fjwd   Behind       Behind   ?         -     kubelet v1.29.12+f67aeb3",
	} {
		if !strings.Contains(rendered[".detailed-output"], want) {
			t.Errorf("the detailed status does not say %q:\n%s", want, rendered[".detailed-output"])
		}
	}
	for _, p := range s.WorkerPools {
		if p.Kind != statusview.KindNodePool {
			t.Errorf("pool %s has kind %q in -o json, want %s", p.Name, p.Kind, statusview.KindNodePool)
		}
	}
}

// TestHostedClusterWithOnlyABehindNodePoolIsNotUpdating: once the control
// plane is updated, a NodePool behind it is no update in progress: the
// status says the cluster is not updating, and that the NodePool is behind.
func TestHostedClusterWithOnlyABehindNodePoolIsNotUpdating(t *testing.T) {
	in := hostedInsights(t)
	cv := in.ClusterVersions[0]
	cv.Status.Assessment, cv.Status.CompletionPercent = insightsv1alpha1.ClusterVersionAssessmentCompleted, 100
	var behind []*insightsv1alpha1.MachineConfigPoolProgressInsight
	for _, p := range in.MachineConfigPools {
		if p.Status.Assessment == insightsv1alpha1.PoolBehind {
			behind = append(behind, p)
		}
	}
	in.MachineConfigPools = behind
	var nodes []*insightsv1alpha1.NodeProgressInsight
	for _, n := range in.Nodes {
		if n.Status.PoolResource.Name == "workers-old" {
			nodes = append(nodes, n)
		}
	}
	in.Nodes = nodes
	s, err := statusview.Build(in, hostedNow)
	if err != nil {
		t.Fatal(err)
	}
	if s.Updating {
		t.Errorf("the status says an update is in progress")
	}
	var out bytes.Buffer
	if err := statusview.WriteText(&out, s, statusview.Details{}); err != nil {
		t.Fatal(err)
	}
	want := "The cluster is not updating.\n" +
		"NodePool workers-old is behind the control plane: The NodePool's nodes run kubelet v1.29.12+f67aeb3, 2 minor releases behind the control plane's 1.31.6. " +
		"NodePools are updated apart from the control plane, and HyperShift supports NodePools up to 3 minor releases behind the control plane.\n"
	if out.String() != want {
		t.Errorf("status:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestHostedNodePoolBeyondSupportedSkew: a NodePool more than three minor
// releases behind the control plane is an error, which status prints in
// plain words beside how far behind it is, whether the control plane
// updates or not. Its insights are the NodePool controller's, computed by
// pkg/assessment/nodepools from nodes whose kubelet runs 1.27 under a 1.31
// control plane.
func TestHostedNodePoolBeyondSupportedSkew(t *testing.T) {
	const errorLine = "Error: NodePool workers-ancient is 4 minor releases behind the control plane, beyond the 3 HyperShift supports: " +
		"its nodes run kubelet v1.27.16+03f2a51, the control plane Kubernetes 1.31.6\n"
	for _, tc := range []struct {
		name     string
		updating bool
		details  statusview.Details
	}{
		{name: "nothing updating"},
		{name: "nothing updating, details", details: statusview.Details{Operators: true, Nodes: true, Health: true}},
		{name: "the control plane updating", updating: true},
		{name: "the control plane updating, details", updating: true, details: statusview.Details{Operators: true, Nodes: true, Health: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := hostedInsights(t)
			if !tc.updating {
				cv := in.ClusterVersions[0]
				cv.Status.Assessment, cv.Status.CompletionPercent = insightsv1alpha1.ClusterVersionAssessmentCompleted, 100
				in.MachineConfigPools, in.Nodes = nil, nil
			}
			addNodePool(in, nodepools.Assess(nodepools.Input{NodePool: "workers-ancient", ControlPlane: "1.31.6", Now: hostedNow,
				Nodes: []*corev1.Node{ancientNode("workers-ancient-7dq4c"), ancientNode("workers-ancient-m2x8p")}}))
			s, err := statusview.Build(in, hostedNow)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := statusview.WriteText(&out, s, tc.details); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), errorLine) {
				t.Errorf("status does not print %q:\n%s", errorLine, out.String())
			}
			if !tc.updating && !strings.HasPrefix(out.String(), "The cluster is not updating.\n") {
				t.Errorf("status does not say the cluster is not updating:\n%s", out.String())
			}
		})
	}
}

// ancientNode is a NodePool's node as the guest holds it (the NodePool label
// the hosted-cluster-config-operator copies), Ready, its kubelet 1.27.
func ancientNode(name string) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{hosted.NodePoolLabel: "workers-ancient"}},
		Status: corev1.NodeStatus{
			NodeInfo:   corev1.NodeSystemInfo{KubeletVersion: "v1.27.16+03f2a51"},
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(hostedNow.Add(-72 * time.Hour))}},
		},
	}
}

// addNodePool adds a NodePool's insights, as the NodePool controller writes
// them from r, to in.
func addNodePool(in *statusview.Insights, r nodepools.Result) {
	in.MachineConfigPools = append(in.MachineConfigPools, &insightsv1alpha1.MachineConfigPoolProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: r.Pool.Name}, Status: r.Pool})
	for _, n := range r.Nodes {
		in.Nodes = append(in.Nodes, &insightsv1alpha1.NodeProgressInsight{ObjectMeta: metav1.ObjectMeta{Name: n.Status.Name}, Status: n.Status})
	}
	for _, h := range r.PoolHealth {
		in.Health = append(in.Health, &insightsv1alpha1.UpdateHealthInsight{ObjectMeta: metav1.ObjectMeta{Name: h.Name}, Status: h.Status})
	}
}
