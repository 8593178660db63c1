package nodes

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

var now = time.Date(2024, 2, 27, 16, 16, 13, 0, time.UTC)

// Rendered configurations of the recorded cluster
// 4.16.0-ec2-control-plane-updated-pdb-prohibits-draining, whose nodes'
// annotation sets the tests use.
const (
	oldConfig = "rendered-worker-6b0cfe9b92e34c641ac59510e408b311"
	newConfig = "rendered-worker-55c03f1f59ad9bd3b224c96a3618ce1d"
	otherNew  = "rendered-worker-4108bf4a0655b41fdd3ac3a3db3d47ea"
	target    = "4.16.0-ec.3"
	previous  = "4.16.0-ec.2"
)

var versions = VersionMap{oldConfig: previous, newConfig: target, otherNew: target}

func mcd(current, desired, state, desiredDrain, lastAppliedDrain, reason string) map[string]string {
	a := map[string]string{
		DesiredConfigAnnotation:    desired,
		StateAnnotation:            state,
		DesiredDrainAnnotation:     desiredDrain,
		LastAppliedDrainAnnotation: lastAppliedDrain,
		ReasonAnnotation:           reason,
	}
	if current != "" {
		a[CurrentConfigAnnotation] = current
	}
	return a
}

func condition(t corev1.NodeConditionType, status corev1.ConditionStatus, reason, message string, ago time.Duration) corev1.NodeCondition {
	return corev1.NodeCondition{Type: t, Status: status, Reason: reason, Message: message, LastTransitionTime: metav1.NewTime(now.Add(-ago))}
}

// healthy are the conditions of a node that is fine.
func healthy() []corev1.NodeCondition {
	return []corev1.NodeCondition{
		condition(corev1.NodeNetworkUnavailable, corev1.ConditionFalse, "RouteCreated", "openshift-sdn cleared kubelet-set NoRouteCreated", 72*time.Hour),
		condition(corev1.NodeMemoryPressure, corev1.ConditionFalse, "KubeletHasSufficientMemory", "kubelet has sufficient memory available", 72*time.Hour),
		condition(corev1.NodeDiskPressure, corev1.ConditionFalse, "KubeletHasNoDiskPressure", "kubelet has no disk pressure", 72*time.Hour),
		condition(corev1.NodeReady, corev1.ConditionTrue, "KubeletReady", "kubelet is posting ready status", 72*time.Hour),
	}
}

func with(conditions []corev1.NodeCondition, c corev1.NodeCondition) []corev1.NodeCondition {
	for i := range conditions {
		if conditions[i].Type == c.Type {
			conditions[i] = c
		}
	}
	return conditions
}

func testNode(name string, annotations map[string]string, conditions []corev1.NodeCondition, unschedulable bool) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: annotations, Labels: map[string]string{"node-role.kubernetes.io/worker": ""}},
		Spec:       corev1.NodeSpec{Unschedulable: unschedulable},
		Status:     corev1.NodeStatus{Conditions: conditions},
	}
}

func testPool(name string, paused bool) *machineconfigurationv1.MachineConfigPool {
	return &machineconfigurationv1.MachineConfigPool{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: machineconfigurationv1.MachineConfigPoolSpec{
			Paused:       paused,
			NodeSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"node-role.kubernetes.io/" + name: ""}},
		},
	}
}

// summary is what a test expects of a node's assessment.
type summary struct {
	Updating, UpdatingReason string
	Degraded                 string
	Available                string
	AvailableSince           time.Time
	Version, Message         string
	Estimate                 time.Duration
	InProgress               bool
}

func summarize(a Assessment) summary {
	s := a.Status
	updating := meta.FindStatusCondition(s.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
	available := meta.FindStatusCondition(s.Conditions, insightsv1alpha1.NodeProgressInsightAvailable)
	got := summary{
		Updating:       string(updating.Status),
		UpdatingReason: updating.Reason,
		Degraded:       meta.FindStatusCondition(s.Conditions, insightsv1alpha1.NodeProgressInsightDegraded).Reason,
		Available:      available.Reason,
		AvailableSince: available.LastTransitionTime.Time,
		Version:        s.Version,
		Message:        s.Message,
		InProgress:     a.Updating,
	}
	if s.EstimatedToComplete != nil {
		got.Estimate = s.EstimatedToComplete.Duration
	}
	return got
}

func TestNodeProgress(t *testing.T) {
	// A drain that failed for many pods names each (kubectl's drain
	// Helper, through the daemon's reason).
	const evicting = "error when evicting pods/\"web-7d9f8c6b5-x2x4q\" -n \"shop\": "
	longReason := strings.Repeat(evicting, 35)[:1950]
	drainReason := "failed to drain node: build0-gstfj-ci-prowjobs-worker-b-9lztv after 1 hour. Please see machine-config-controller logs for more information"
	testCases := []struct {
		name     string
		node     *corev1.Node
		paused   bool
		target   string
		versions Versions
		want     summary
	}{
		{
			name: "updated node (recorded build0-gstfj-ci-builds-worker-b-65df4)",
			node: testNode("n", mcd(newConfig, newConfig, "Done", "uncordon-"+newConfig, "uncordon-"+newConfig, ""), healthy(), false),
			want: summary{Updating: "False", UpdatingReason: "Completed", Degraded: "AsExpected", Available: "AsExpected", AvailableSince: now, Version: target},
		},
		{
			name: "outdated node waiting its turn (recorded build0-gstfj-ci-longtests-worker-c-vspm9)",
			node: testNode("n", mcd(oldConfig, oldConfig, "Done", "uncordon-"+oldConfig, "uncordon-"+oldConfig, ""), healthy(), false),
			want: summary{Updating: "False", UpdatingReason: "Pending", Degraded: "AsExpected", Available: "AsExpected", AvailableSince: now, Version: previous},
		},
		{
			name: "draining while the daemon works (recorded build0-gstfj-ci-tests-worker-c-2kz4m)",
			node: testNode("n", mcd(oldConfig, newConfig, "Working", "drain-"+newConfig, "uncordon-"+oldConfig, ""), healthy(), true),
			want: summary{Updating: "True", UpdatingReason: "Draining", Degraded: "AsExpected", Available: "Unschedulable", AvailableSince: now,
				Version: previous, Estimate: 10 * time.Minute, InProgress: true},
		},
		{
			name: "drain failed, daemon degraded (recorded build0-gstfj-ci-prowjobs-worker-b-9lztv)",
			node: testNode("build0-gstfj-ci-prowjobs-worker-b-9lztv", mcd(oldConfig, newConfig, "Degraded", "drain-"+otherNew, "uncordon-"+oldConfig, drainReason), healthy(), true),
			want: summary{Updating: "True", UpdatingReason: "Draining", Degraded: "MachineConfigDaemonDegraded", Available: "Unschedulable", AvailableSince: now,
				Version: previous, Message: "failed to drain node: <node> after 1 hour. Please see machine-config-controller logs for more information", InProgress: true},
		},
		{
			name: "a daemon's reason of nearly 2,000 characters, whole as oc prints it",
			node: testNode("worker-7", mcd(oldConfig, newConfig, "Degraded", "drain-"+newConfig, "uncordon-"+oldConfig, longReason), healthy(), true),
			want: summary{Updating: "True", UpdatingReason: "Draining", Degraded: "MachineConfigDaemonDegraded", Available: "Unschedulable", AvailableSince: now,
				Version: previous, Message: longReason, InProgress: true},
		},
		{
			name: "a reason longer than the API keeps: cut, saying where the whole is",
			node: testNode("worker-7", mcd(oldConfig, newConfig, "Degraded", "drain-"+newConfig, "uncordon-"+oldConfig, strings.Repeat(evicting, 80)), healthy(), true),
			want: summary{Updating: "True", UpdatingReason: "Draining", Degraded: "MachineConfigDaemonDegraded", Available: "Unschedulable", AvailableSince: now,
				Version: previous, Message: strings.Repeat(evicting, 80)[:3977] + "… (cut at 3977 of 4639 bytes; the whole text is in Node/worker-7 annotation machineconfiguration.openshift.io/reason)", InProgress: true},
		},
		{
			name: "no current configuration yet (recorded build0-gstfj-ci-prowjobs-worker-d-ddnxd)",
			node: testNode("n", mcd("", oldConfig, "Done", "uncordon-"+oldConfig, "uncordon-"+oldConfig, ""), healthy(), false),
			want: summary{Updating: "Unknown", UpdatingReason: "CannotDetermine", Degraded: "AsExpected", Available: "MachineConfigDaemonProcessing", AvailableSince: now,
				Message: "Machine Config Daemon is processing the node"},
		},
		{
			name: "new node, not ready, no daemon annotations (recorded build0-gstfj-ci-tests-worker-b-d9vz2)",
			node: testNode("n", nil, with(healthy(), condition(corev1.NodeReady, corev1.ConditionFalse, "KubeletNotReady", "kubelet is still setting up stuff", 22*time.Minute)), false),
			want: summary{Updating: "Unknown", UpdatingReason: "CannotDetermine", Degraded: "AsExpected", Available: "NotReady", AvailableSince: now.Add(-22 * time.Minute),
				Message: "Not ready"},
		},
		{
			name: "updated but cordoned (recorded build0-gstfj-ci-tests-worker-c-jq5rk)",
			node: testNode("n", mcd(newConfig, newConfig, "Done", "uncordon-"+newConfig, "uncordon-"+newConfig, ""), healthy(), true),
			want: summary{Updating: "False", UpdatingReason: "Completed", Degraded: "AsExpected", Available: "Unschedulable", AvailableSince: now, Version: target,
				Message: "Node is marked unschedulable"},
		},
		{
			name: "desired config set, daemon not started yet: draining rather than done",
			node: testNode("n", mcd(oldConfig, newConfig, "Done", "uncordon-"+oldConfig, "uncordon-"+oldConfig, ""), healthy(), false),
			want: summary{Updating: "True", UpdatingReason: "Draining", Degraded: "AsExpected", Available: "MachineConfigDaemonProcessing", AvailableSince: now,
				Version: previous, Estimate: 10 * time.Minute, InProgress: true},
		},
		{
			name: "drained, daemon writing the new configuration",
			node: testNode("n", mcd(oldConfig, newConfig, "Working", "drain-"+newConfig, "drain-"+newConfig, ""), healthy(), true),
			want: summary{Updating: "True", UpdatingReason: "Updating", Degraded: "AsExpected", Available: "Unschedulable", AvailableSince: now,
				Version: previous, Estimate: 5 * time.Minute, InProgress: true},
		},
		{
			name: "rebooting",
			node: testNode("n", mcd(oldConfig, newConfig, "Rebooting", "drain-"+newConfig, "drain-"+newConfig, ""), with(healthy(), condition(corev1.NodeReady, corev1.ConditionUnknown, "NodeStatusUnknown", "Kubelet stopped posting node status.", time.Minute)), true),
			want: summary{Updating: "True", UpdatingReason: "Rebooting", Degraded: "AsExpected", Available: "NotReady", AvailableSince: now.Add(-time.Minute),
				Version: previous, Estimate: 5 * time.Minute, InProgress: true},
		},
		{
			name:   "outdated node of a paused pool",
			node:   testNode("n", mcd(oldConfig, oldConfig, "Done", "uncordon-"+oldConfig, "uncordon-"+oldConfig, ""), healthy(), false),
			paused: true,
			want:   summary{Updating: "False", UpdatingReason: "Paused", Degraded: "AsExpected", Available: "AsExpected", AvailableSince: now, Version: previous},
		},
		{
			name:   "updated node of a paused pool is completed",
			node:   testNode("n", mcd(newConfig, newConfig, "Done", "uncordon-"+newConfig, "uncordon-"+newConfig, ""), healthy(), false),
			paused: true,
			want:   summary{Updating: "False", UpdatingReason: "Completed", Degraded: "AsExpected", Available: "AsExpected", AvailableSince: now, Version: target},
		},
		{
			name: "unreconcilable configuration",
			node: testNode("n", mcd(oldConfig, newConfig, "Unreconcilable", "uncordon-"+oldConfig, "uncordon-"+oldConfig, "can't reconcile config: invalid kernel argument change"), healthy(), false),
			want: summary{Updating: "True", UpdatingReason: "Updating", Degraded: "MachineConfigDaemonUnreconcilable", Available: "AsExpected", AvailableSince: now,
				Version: previous, Message: "can't reconcile config: invalid kernel argument change", InProgress: true},
		},
		{
			name: "degraded without a reason still says why",
			node: testNode("n", mcd(oldConfig, oldConfig, "Degraded", "uncordon-"+oldConfig, "uncordon-"+oldConfig, ""), healthy(), false),
			want: summary{Updating: "False", UpdatingReason: "Pending", Degraded: "MachineConfigDaemonDegraded", Available: "AsExpected", AvailableSince: now,
				Version: previous, Message: "The machine-config daemon reports the node Degraded without a reason"},
		},
		{
			name: "disk pressure",
			node: testNode("n", mcd(oldConfig, oldConfig, "Done", "uncordon-"+oldConfig, "uncordon-"+oldConfig, ""), with(healthy(), condition(corev1.NodeDiskPressure, corev1.ConditionTrue, "KubeletHasDiskPressure", "kubelet has disk pressure", 3*time.Minute)), false),
			want: summary{Updating: "False", UpdatingReason: "Pending", Degraded: "AsExpected", Available: "DiskPressure", AvailableSince: now.Add(-3 * time.Minute),
				Version: previous, Message: "Disk pressure"},
		},
		{
			// The kubelet lists DiskPressure before Ready.
			name: "under disk pressure and not ready: every reason, in the kubelet's order, since the earlier",
			node: testNode("n", mcd(oldConfig, oldConfig, "Done", "uncordon-"+oldConfig, "uncordon-"+oldConfig, ""), with(with(healthy(),
				condition(corev1.NodeDiskPressure, corev1.ConditionTrue, "KubeletHasDiskPressure", "kubelet has disk pressure", 3*time.Minute)),
				condition(corev1.NodeReady, corev1.ConditionFalse, "KubeletNotReady", "PLEG is not healthy", 7*time.Minute)), false),
			want: summary{Updating: "False", UpdatingReason: "Pending", Degraded: "AsExpected", Available: "DiskPressure", AvailableSince: now.Add(-7 * time.Minute),
				Version: previous, Message: "Disk pressure | Not ready"},
		},
		{
			name: "not ready and cordoned: both",
			node: testNode("n", mcd(newConfig, newConfig, "Done", "uncordon-"+newConfig, "uncordon-"+newConfig, ""),
				with(healthy(), condition(corev1.NodeReady, corev1.ConditionUnknown, "NodeStatusUnknown", "Kubelet stopped posting node status.", 6*time.Minute)), true),
			want: summary{Updating: "False", UpdatingReason: "Completed", Degraded: "AsExpected", Available: "NotReady", AvailableSince: now.Add(-6 * time.Minute),
				Version: target, Message: "Not ready | Node is marked unschedulable"},
		},
		{
			name: "network unavailable",
			node: testNode("n", mcd(newConfig, newConfig, "Done", "uncordon-"+newConfig, "uncordon-"+newConfig, ""), with(healthy(), condition(corev1.NodeNetworkUnavailable, corev1.ConditionTrue, "NoRouteCreated", "no route", 2*time.Minute)), false),
			want: summary{Updating: "False", UpdatingReason: "Completed", Degraded: "AsExpected", Available: "NetworkUnavailable", AvailableSince: now.Add(-2 * time.Minute),
				Version: target, Message: "Network unavailable"},
		},
		{
			name:   "no ClusterVersion target",
			node:   testNode("n", mcd(newConfig, newConfig, "Done", "uncordon-"+newConfig, "uncordon-"+newConfig, ""), healthy(), false),
			target: "-",
			want:   summary{Updating: "Unknown", UpdatingReason: "CannotDetermine", Degraded: "AsExpected", Available: "AsExpected", AvailableSince: now, Version: target},
		},
		{
			name:     "current configuration without a version",
			node:     testNode("n", mcd(newConfig, newConfig, "Done", "uncordon-"+newConfig, "uncordon-"+newConfig, ""), healthy(), false),
			versions: VersionMap{},
			want:     summary{Updating: "Unknown", UpdatingReason: "CannotDetermine", Degraded: "AsExpected", Available: "AsExpected", AvailableSince: now},
		},
		{
			name: "image-based update in progress on the same configuration",
			node: testNode("n", func() map[string]string {
				a := mcd(newConfig, newConfig, "Working", "uncordon-"+newConfig, "uncordon-"+newConfig, "")
				a[CurrentImageAnnotation], a[DesiredImageAnnotation] = "quay.io/os@sha256:1", "quay.io/os@sha256:2"
				return a
			}(), healthy(), false),
			want: summary{Updating: "False", UpdatingReason: "Completed", Degraded: "AsExpected", Available: "MachineConfigDaemonProcessing", AvailableSince: now,
				Version: target, Message: "Machine Config Daemon is processing the node"},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Node: tc.node, Pool: testPool("worker", tc.paused), Versions: versions, Target: target, Now: now}
			if tc.target == "-" {
				in.Target = ""
			}
			if tc.versions != nil {
				in.Versions = tc.versions
			}
			a := NodeProgress(in)
			if diff := cmp.Diff(tc.want, summarize(a)); diff != "" {
				t.Errorf("assessment (-want +got):\n%s", diff)
			}
			if len(a.Status.Message) > maxMessageLength || strings.Contains(a.Status.Message, "\n") {
				t.Errorf("message %q is not one line of at most %d bytes", a.Status.Message, maxMessageLength)
			}
			if a.Status.PoolResource.Name != "worker" || a.Status.ScopeType != insightsv1alpha1.ScopeTypeWorkerPool || a.Status.Name != tc.node.Name {
				t.Errorf("identity: %+v", a.Status)
			}
		})
	}
}

func TestNodeProgressOverTime(t *testing.T) {
	draining := testNode("n", mcd(oldConfig, newConfig, "Working", "drain-"+newConfig, "uncordon-"+oldConfig, ""), healthy(), true)
	updated := testNode("n", mcd(newConfig, newConfig, "Done", "uncordon-"+newConfig, "uncordon-"+newConfig, ""), healthy(), false)
	writing := testNode("n", mcd(oldConfig, newConfig, "Working", "drain-"+newConfig, "drain-"+newConfig, ""), healthy(), true)
	rebooting := testNode("n", mcd(oldConfig, newConfig, "Rebooting", "drain-"+newConfig, "drain-"+newConfig, ""), healthy(), true)
	since := func(ago time.Duration) *insightsv1alpha1.NodeProgressInsightStatus {
		return &insightsv1alpha1.NodeProgressInsightStatus{Conditions: []metav1.Condition{
			{Type: insightsv1alpha1.NodeProgressInsightUpdating, Status: metav1.ConditionTrue, Reason: insightsv1alpha1.NodeDraining, LastTransitionTime: metav1.NewTime(now.Add(-ago))},
			{Type: insightsv1alpha1.NodeProgressInsightAvailable, Status: metav1.ConditionFalse, Reason: insightsv1alpha1.NodeUnschedulable, LastTransitionTime: metav1.NewTime(now.Add(-ago))},
		}}
	}
	testCases := []struct {
		name         string
		node         *corev1.Node
		previous     *insightsv1alpha1.NodeProgressInsightStatus
		perNode      time.Duration
		wantEstimate time.Duration
		wantFinished time.Duration
		wantSince    time.Time
	}{
		{name: "a node just started expects the pool's per-node time", node: draining, perNode: 20 * time.Minute, wantEstimate: 20 * time.Minute, wantSince: now},
		{name: "no per-node time yet: the default", node: draining, wantEstimate: DefaultPerNodeTime, wantSince: now},
		{name: "the estimate counts down from the start, rounded up to the minute", node: draining, previous: since(4*time.Minute + 10*time.Second), perNode: 10 * time.Minute,
			wantEstimate: 6 * time.Minute, wantSince: now.Add(-4*time.Minute - 10*time.Second)},
		{name: "a node past its expected time is expected any moment", node: draining, previous: since(25 * time.Minute), perNode: 10 * time.Minute,
			wantEstimate: time.Minute, wantSince: now.Add(-25 * time.Minute)},
		{name: "a drained node has half the per-node time left at most", node: writing, perNode: 10 * time.Minute, wantEstimate: 5 * time.Minute, wantSince: now},
		{name: "a drained node counts down below its half", node: writing, previous: since(8 * time.Minute), perNode: 10 * time.Minute,
			wantEstimate: 2 * time.Minute, wantSince: now.Add(-8 * time.Minute)},
		{name: "a rebooting node's half follows the pool's per-node time", node: rebooting, previous: since(2 * time.Minute), perNode: 25 * time.Minute,
			wantEstimate: 13 * time.Minute, wantSince: now.Add(-2 * time.Minute)},
		{name: "no per-node time yet: a drained node has half the default", node: rebooting, wantEstimate: 5 * time.Minute, wantSince: now},
		{name: "a node that finishes reports how long it took", node: updated, previous: since(17 * time.Minute), wantFinished: 17 * time.Minute, wantSince: now},
		{name: "a node seen updated already finished earlier", node: updated, wantSince: now},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			a := NodeProgress(Input{Node: tc.node, Pool: testPool("worker", false), Versions: versions, Target: target, Previous: tc.previous, PerNode: tc.perNode, Now: now})
			var estimate time.Duration
			if a.Status.EstimatedToComplete != nil {
				estimate = a.Status.EstimatedToComplete.Duration
			}
			updating := meta.FindStatusCondition(a.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
			got := []any{estimate, a.Finished, updating.LastTransitionTime.Time}
			if diff := cmp.Diff([]any{tc.wantEstimate, tc.wantFinished, tc.wantSince}, got); diff != "" {
				t.Errorf("estimate, finished, updating since (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReplaceName(t *testing.T) {
	testCases := []struct{ in, want string }{
		{in: "failed to drain node: worker-1 after 1 hour", want: "failed to drain node: <node> after 1 hour"},
		{in: "node worker-1.", want: "node <node>."},
		{in: "worker-1 and worker-10 and worker-1.example.com", want: "<node> and worker-10 and worker-1.example.com"},
		{in: "no mention", want: "no mention"},
	}
	for _, tc := range testCases {
		if got := replaceName(tc.in, "worker-1", "<node>"); got != tc.want {
			t.Errorf("replaceName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestVersionsOf(t *testing.T) {
	configs := []*machineconfigurationv1.MachineConfig{
		{ObjectMeta: metav1.ObjectMeta{Name: newConfig, Annotations: map[string]string{ReleaseImageVersionAnnotation: target}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "99-worker-ssh"}},
		{ObjectMeta: metav1.ObjectMeta{Name: "empty", Annotations: map[string]string{ReleaseImageVersionAnnotation: ""}}},
	}
	if diff := cmp.Diff(VersionMap{newConfig: target}, VersionsOf(configs)); diff != "" {
		t.Errorf("versions (-want +got):\n%s", diff)
	}
}

// mcnSummary is what a test expects of a node's assessment from its
// MachineConfigNode: the Updating condition whole, with the summary.
type mcnSummary struct {
	Summary         summary
	UpdatingMessage string
	UpdatingSince   time.Time
	Finished        time.Duration
	Pinned          bool
}

func summarizeMCN(a Assessment) mcnSummary {
	updating := meta.FindStatusCondition(a.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
	return mcnSummary{Summary: summarize(a), UpdatingMessage: updating.Message, UpdatingSince: updating.LastTransitionTime.Time,
		Finished: a.Finished, Pinned: a.PinnedImageSetsDegraded != nil}
}

// stamp is a fixture's time as the insight's messages print it.
func stamp(d time.Duration) string {
	return updateStart.Add(d).UTC().Format(time.RFC3339)
}

// A node's MachineConfigNode gives its phase and its times where it speaks
// of the node's update; the versions still say whether the node is at the
// target.
func TestNodeProgressWithMachineConfigNode(t *testing.T) {
	const name = "worker-1"
	const drainFailure = "failed to drain node: " + name + " after 1 hour. Please see machine-config-controller logs for more information"
	// started is the node's insight as written when it began updating at
	// the MachineConfigNode's start.
	started := &insightsv1alpha1.NodeProgressInsightStatus{Conditions: []metav1.Condition{
		{Type: insightsv1alpha1.NodeProgressInsightUpdating, Status: metav1.ConditionTrue, Reason: insightsv1alpha1.NodeRebooting, LastTransitionTime: metav1.NewTime(updateStart)},
	}}
	drainedAhead := func() *mcnSim {
		// The drain controller wrote Drained True; lastAppliedDrain not yet.
		return updating(name, oldConfig, newConfig, updateStart, stageDraining).drained(updateStart.Add(atDrained))
	}
	degradedOnMCN := func(state, reason string) *mcnSim {
		s := updating(name, oldConfig, newConfig, updateStart, stageDraining).degraded(updateStart.Add(9*time.Minute), drainFailure)
		s.state, s.reason = state, reason
		return s
	}
	doneBeforeUpdated := func() *mcnSim {
		// SetDone written, the daemon's next sync (Updated True) not yet.
		return updating(name, oldConfig, newConfig, updateStart, stageFinishing).done()
	}
	pinned := func() *mcnSim {
		return updating(name, oldConfig, newConfig, updateStart, stageApplying).pinFailed(updateStart.Add(time.Minute), "release-4-16",
			"requeue: prefetching images incomplete after timeout: 2m0s")
	}
	testCases := []struct {
		name     string
		sim      *mcnSim
		previous *insightsv1alpha1.NodeProgressInsightStatus
		want     mcnSummary
	}{
		{
			// The estimate counts down from the daemon's start, not from
			// when the operator first saw the node.
			name: "mid-drain",
			sim:  updating(name, oldConfig, newConfig, updateStart, stageDraining),
			want: mcnSummary{Summary: summary{Updating: "True", UpdatingReason: "Draining", Degraded: "AsExpected", Available: "Unschedulable", AvailableSince: now,
				Version: previous, Estimate: time.Minute, InProgress: true},
				UpdatingMessage: "The node is being drained before its update to " + target + " (MachineConfigNode: Drained in progress since " + stamp(atDraining) + ")",
				UpdatingSince:   updateStart},
		},
		{
			name: "drained on the MachineConfigNode before lastAppliedDrain: updating, the MachineConfigNode ahead",
			sim:  drainedAhead(),
			want: mcnSummary{Summary: summary{Updating: "True", UpdatingReason: "Updating", Degraded: "AsExpected", Available: "Unschedulable", AvailableSince: now,
				Version: previous, Estimate: time.Minute, InProgress: true},
				UpdatingMessage: "The node is updating to " + target + " (MachineConfigNode: Drained since " + stamp(atDrained) + ")",
				UpdatingSince:   updateStart},
		},
		{
			name: "mid-apply",
			sim:  updating(name, oldConfig, newConfig, updateStart, stageApplying),
			want: mcnSummary{Summary: summary{Updating: "True", UpdatingReason: "Updating", Degraded: "AsExpected", Available: "Unschedulable", AvailableSince: now,
				Version: previous, Estimate: time.Minute, InProgress: true},
				UpdatingMessage: "The node is updating to " + target + " (MachineConfigNode: AppliedFilesAndOS in progress since " + stamp(atApplying) + ")",
				UpdatingSince:   updateStart},
		},
		{
			// The state annotation stays Working through the reboot.
			name: "rebooting, which only the MachineConfigNode says",
			sim:  updating(name, oldConfig, newConfig, updateStart, stageRebooting),
			want: mcnSummary{Summary: summary{Updating: "True", UpdatingReason: "Rebooting", Degraded: "AsExpected", Available: "Unschedulable", AvailableSince: now,
				Version: previous, Estimate: time.Minute, InProgress: true},
				UpdatingMessage: "The node is rebooting into version " + target + " (MachineConfigNode: RebootedNode in progress since " + stamp(atRebooting) + ")",
				UpdatingSince:   updateStart},
		},
		{
			name:     "done: completed when Updated turned True, after what the daemon's steps took",
			sim:      updating(name, oldConfig, newConfig, updateStart, stageDone),
			previous: started,
			want: mcnSummary{Summary: summary{Updating: "False", UpdatingReason: "Completed", Degraded: "AsExpected", Available: "AsExpected", AvailableSince: now,
				Version: target},
				UpdatingMessage: "The node is at version " + target, UpdatingSince: updateStart.Add(atUpdated), Finished: atUpdated},
		},
		{
			name:     "done on the annotations before Updated True: completed at the uncordon, the daemon's last step",
			sim:      doneBeforeUpdated(),
			previous: started,
			want: mcnSummary{Summary: summary{Updating: "False", UpdatingReason: "Completed", Degraded: "AsExpected", Available: "AsExpected", AvailableSince: now,
				Version: target},
				UpdatingMessage: "The node is at version " + target, UpdatingSince: updateStart.Add(atUncordoned), Finished: atUncordoned},
		},
		{
			name:     "done, seen done before: the completion the insight keeps",
			sim:      updating(name, oldConfig, newConfig, updateStart, stageDone),
			previous: &insightsv1alpha1.NodeProgressInsightStatus{Conditions: []metav1.Condition{{Type: insightsv1alpha1.NodeProgressInsightUpdating, Status: metav1.ConditionFalse, Reason: insightsv1alpha1.NodeCompleted, LastTransitionTime: metav1.NewTime(updateStart.Add(atUpdated))}}},
			want: mcnSummary{Summary: summary{Updating: "False", UpdatingReason: "Completed", Degraded: "AsExpected", Available: "AsExpected", AvailableSince: now,
				Version: target},
				UpdatingMessage: "The node is at version " + target, UpdatingSince: updateStart.Add(atUpdated)},
		},
		{
			name: "degraded on the MachineConfigNode alone",
			sim:  degradedOnMCN(stateWorking, ""),
			want: mcnSummary{Summary: summary{Updating: "True", UpdatingReason: "Draining", Degraded: "MachineConfigDaemonDegraded", Available: "Unschedulable", AvailableSince: now,
				Version: previous, Message: "Node <node> upgrade failure. failed to drain node: <node> after 1 hour. Please see machine-config-controller logs for more information", InProgress: true},
				UpdatingMessage: "The node is being drained before its update to " + target + " (MachineConfigNode: Drained in progress since " + stamp(atDraining) + ")",
				UpdatingSince:   updateStart},
		},
		{
			name: "degraded without a reason annotation: the MachineConfigNode's",
			sim:  degradedOnMCN(stateDegraded, ""),
			want: mcnSummary{Summary: summary{Updating: "True", UpdatingReason: "Draining", Degraded: "MachineConfigDaemonDegraded", Available: "Unschedulable", AvailableSince: now,
				Version: previous, Message: "Node <node> upgrade failure. failed to drain node: <node> after 1 hour. Please see machine-config-controller logs for more information", InProgress: true},
				UpdatingMessage: "The node is being drained before its update to " + target + " (MachineConfigNode: Drained in progress since " + stamp(atDraining) + ")",
				UpdatingSince:   updateStart},
		},
		{
			name: "degraded with a reason annotation: the annotation's",
			sim:  degradedOnMCN(stateDegraded, drainFailure),
			want: mcnSummary{Summary: summary{Updating: "True", UpdatingReason: "Draining", Degraded: "MachineConfigDaemonDegraded", Available: "Unschedulable", AvailableSince: now,
				Version: previous, Message: "failed to drain node: <node> after 1 hour. Please see machine-config-controller logs for more information", InProgress: true},
				UpdatingMessage: "The node is being drained before its update to " + target + " (MachineConfigNode: Drained in progress since " + stamp(atDraining) + ")",
				UpdatingSince:   updateStart},
		},
		{
			name: "pinned images degraded during the update",
			sim:  pinned(),
			want: mcnSummary{Summary: summary{Updating: "True", UpdatingReason: "Updating", Degraded: "AsExpected", Available: "Unschedulable", AvailableSince: now,
				Version: previous, Estimate: time.Minute, InProgress: true},
				UpdatingMessage: "The node is updating to " + target + " (MachineConfigNode: AppliedFilesAndOS in progress since " + stamp(atApplying) + ")",
				UpdatingSince:   updateStart, Pinned: true},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			a := NodeProgress(Input{Node: tc.sim.node(), Pool: testPool("worker", false), Versions: versions, Target: target, Previous: tc.previous,
				PerNode: DefaultPerNodeTime, MachineConfigNode: tc.sim.mcn, Now: now})
			if diff := cmp.Diff(tc.want, summarizeMCN(a)); diff != "" {
				t.Errorf("assessment (-want +got):\n%s", diff)
			}
		})
	}
}

// What the annotations alone give a node stays whole where its
// MachineConfigNode is not to be read: the same assessment, field by field.
func TestNodeProgressIgnoresMachineConfigNodes(t *testing.T) {
	const name = "worker-1"
	otherNode := func() *mcnSim {
		s := updating(name, oldConfig, newConfig, updateStart, stageDraining)
		s.mcn.Name = "worker-2"
		return s
	}
	noConditions := func() *mcnSim {
		s := updating(name, oldConfig, newConfig, updateStart, stageDraining)
		s.mcn.Status.Conditions = nil
		return s
	}
	for _, tc := range []struct {
		name string
		sim  *mcnSim
	}{
		{name: "for another configuration", sim: newMCNSim(name, oldConfig).updated(settledAt).target(newConfig).cordoned(updateStart)},
		{name: "without conditions", sim: noConditions()},
		{name: "of another node", sim: otherNode()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Node: tc.sim.node(), Pool: testPool("worker", false), Versions: versions, Target: target, PerNode: DefaultPerNodeTime, Now: now}
			without := NodeProgress(in)
			in.MachineConfigNode = tc.sim.mcn
			if diff := cmp.Diff(without, NodeProgress(in)); diff != "" {
				t.Errorf("with the MachineConfigNode (-without +with):\n%s", diff)
			}
		})
	}
}

// The drain counts from the drain controller's own start, which it writes
// as Cordoned: after a restart it cordons again and counts anew.
func TestADrainCountsFromTheDrainControllersCordon(t *testing.T) {
	s := updating("worker-a", oldConfig, newConfig, now.Add(-3*time.Hour), stageDraining).cordoned(now.Add(-30 * time.Second)).draining(now.Add(-29 * time.Second))
	drain := &DrainObjects{Pods: []*corev1.Pod{shopPod("db-0", "db")}, Budgets: []*policyv1.PodDisruptionBudget{budget("db", 0, 3*time.Hour)}}
	in := Input{Node: s.node(), Pool: testPool("worker", false), Versions: versions, Target: target, Previous: drainingFor(3 * time.Hour), Drain: drain, Now: now}
	without := NodeProgress(in)
	in.MachineConfigNode = s.mcn
	with := NodeProgress(in)
	got := []string{without.Status.Message, with.Status.Message}
	if diff := cmp.Diff([]string{"Drain held by pod shop/db-0", ""}, got); diff != "" {
		t.Errorf("notes without and with the MachineConfigNode (-want +got):\n%s", diff)
	}
	var since []time.Time
	for _, b := range with.DrainBlocks {
		since = append(since, b.Since)
	}
	if diff := cmp.Diff([]time.Time{now.Add(-30 * time.Second)}, since); diff != "" {
		t.Errorf("blocks with the MachineConfigNode since (-want +got):\n%s", diff)
	}
}
