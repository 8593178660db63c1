package nodepools

import (
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// nodeView is what a test says of a node insight.
type nodeView struct {
	Updating, Degraded, Available string
	Message, Estimate             string
}

func viewNode(s *insightsv1alpha1.NodeProgressInsightStatus) nodeView {
	v := nodeView{
		Updating:  conditionView(s.Conditions, insightsv1alpha1.NodeProgressInsightUpdating),
		Degraded:  conditionView(s.Conditions, insightsv1alpha1.NodeProgressInsightDegraded),
		Available: conditionView(s.Conditions, insightsv1alpha1.NodeProgressInsightAvailable),
		Message:   s.Message,
	}
	if s.EstimatedToComplete != nil {
		v.Estimate = s.EstimatedToComplete.Duration.String()
	}
	return v
}

// poolView is what a test says of a pool insight.
type poolView struct {
	Assessment        insightsv1alpha1.PoolAssessment
	Completion        int32
	Updating, Healthy string
	UpdatingMessage   string
	// Counts are Total, Available, Progressing, Outdated, Draining and
	// Degraded, in that order.
	Counts [6]int32
	Health []string
}

func viewPool(r *Result) poolView {
	s := &r.Pool
	v := poolView{Assessment: s.Assessment, Completion: s.CompletionPercent,
		Updating: conditionView(s.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightUpdating),
		Healthy:  conditionView(s.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightHealthy)}
	if c := meta.FindStatusCondition(s.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightUpdating); c != nil {
		v.UpdatingMessage = c.Message
	}
	byType := map[insightsv1alpha1.NodeSummaryType]int32{}
	for _, sum := range s.Summaries {
		byType[sum.Type] = sum.Count
	}
	v.Counts = [6]int32{byType[insightsv1alpha1.NodesTotal], byType[insightsv1alpha1.NodesAvailable], byType[insightsv1alpha1.NodesProgressing],
		byType[insightsv1alpha1.NodesOutdated], byType[insightsv1alpha1.NodesDraining], byType[insightsv1alpha1.NodesDegraded]}
	for _, i := range r.PoolHealth {
		v.Health = append(v.Health, i.Problem)
	}
	return v
}

func conditionView(conditions []metav1.Condition, t string) string {
	c := meta.FindStatusCondition(conditions, t)
	if c == nil {
		return ""
	}
	return string(c.Status) + " " + c.Reason
}

const (
	notDegraded = "False AsExpected"
	available   = "True AsExpected"
	processing  = "False MachineConfigDaemonProcessing"
	behindNote1 = "The NodePool's nodes run kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6. " +
		"NodePools are updated apart from the control plane, and HyperShift supports NodePools up to 3 minor releases behind the control plane."
)

func TestAssess(t *testing.T) {
	for _, tc := range []struct {
		name         string
		nodes        []*corev1.Node
		controlPlane string
		want         map[string]nodeView
		pool         poolView
	}{{
		name:         "a Replace NodePool at the control plane's release",
		controlPlane: controlPlane,
		nodes:        []*corev1.Node{node("np1-a", "np1", kubeletNew, nil), node("np1-b", "np1", kubeletNew, nil)},
		want: map[string]nodeView{
			"np1-a": {Updating: "False Completed", Degraded: notDegraded, Available: available, Message: "kubelet v1.31.6+a1b2c3d, the control plane's release"},
			"np1-b": {Updating: "False Completed", Degraded: notDegraded, Available: available, Message: "kubelet v1.31.6+a1b2c3d, the control plane's release"},
		},
		pool: poolView{Assessment: insightsv1alpha1.PoolCompleted, Completion: 100, Updating: "False Completed", Healthy: "True AsExpected",
			UpdatingMessage: "All 2 nodes run the control plane's Kubernetes release 1.31.6", Counts: [6]int32{2, 2, 0, 0, 0, 0}},
	}, {
		// A new node joined at the new release; one old node is cordoned
		// to be drained and deleted, the other waits.
		name:         "a Replace NodePool mid-rollout",
		controlPlane: controlPlane,
		nodes: []*corev1.Node{node("np1-new", "np1", kubeletNew, nil), cordoned(node("np1-old-a", "np1", kubeletOld, nil)),
			node("np1-old-b", "np1", kubeletOld, nil)},
		want: map[string]nodeView{
			"np1-new":   {Updating: "False Completed", Degraded: notDegraded, Available: available, Message: "kubelet v1.31.6+a1b2c3d, the control plane's release"},
			"np1-old-a": {Updating: "True Draining", Degraded: notDegraded, Available: "False Unschedulable", Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6"},
			"np1-old-b": {Updating: "False Pending", Degraded: notDegraded, Available: available, Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6"},
		},
		pool: poolView{Assessment: insightsv1alpha1.PoolProgressing, Completion: 33, Updating: "True Progressing", Healthy: "True AsExpected",
			UpdatingMessage: "1 of 3 nodes are updated, 1 are updating", Counts: [6]int32{3, 2, 1, 2, 1, 0}},
	}, {
		// The MachineDeployment rolls: cluster-api taints the old nodes at
		// once; the new node has joined but is not labelled with the
		// NodePool yet, so the guest sees only old nodes.
		name:         "a Replace NodePool whose rollout started, no new node labelled yet",
		controlPlane: controlPlane,
		nodes:        []*corev1.Node{outdatedRevision(node("np1-old-a", "np1", kubeletOld, nil)), outdatedRevision(node("np1-old-b", "np1", kubeletOld, nil))},
		want: map[string]nodeView{
			"np1-old-a": {Updating: "False Pending", Degraded: notDegraded, Available: available, Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6"},
			"np1-old-b": {Updating: "False Pending", Degraded: notDegraded, Available: available, Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6"},
		},
		pool: poolView{Assessment: insightsv1alpha1.PoolProgressing, Completion: 0, Updating: "True Progressing", Healthy: "True AsExpected",
			UpdatingMessage: "0 of 2 nodes are updated, 0 are updating", Counts: [6]int32{2, 2, 0, 2, 0, 0}},
	}, {
		// maxSurge 0: the first old node is cordoned and drained before any
		// new node exists.
		name:         "a Replace NodePool rolling out with maxSurge 0",
		controlPlane: controlPlane,
		nodes: []*corev1.Node{outdatedRevision(cordoned(node("np1-old-a", "np1", kubeletOld, nil))),
			outdatedRevision(node("np1-old-b", "np1", kubeletOld, nil))},
		want: map[string]nodeView{
			"np1-old-a": {Updating: "True Draining", Degraded: notDegraded, Available: "False Unschedulable", Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6"},
			"np1-old-b": {Updating: "False Pending", Degraded: notDegraded, Available: available, Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6"},
		},
		pool: poolView{Assessment: insightsv1alpha1.PoolProgressing, Completion: 0, Updating: "True Progressing", Healthy: "True AsExpected",
			UpdatingMessage: "0 of 2 nodes are updated, 1 are updating", Counts: [6]int32{2, 1, 1, 2, 1, 0}},
	}, {
		// The NodePool rolls out a newer patch of its old minor, not the
		// control plane's release: still a rollout, not Behind.
		name:         "a Replace NodePool rolling out a release older than the control plane's",
		controlPlane: controlPlane,
		nodes:        []*corev1.Node{node("np1-a", "np1", "v1.30.12+9d8e7f6", nil), node("np1-b", "np1", kubeletOld, nil)},
		want: map[string]nodeView{
			"np1-a": {Updating: "False Pending", Degraded: notDegraded, Available: available, Message: "kubelet v1.30.12+9d8e7f6, 1 minor release behind the control plane's 1.31.6"},
			"np1-b": {Updating: "False Pending", Degraded: notDegraded, Available: available, Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6"},
		},
		pool: poolView{Assessment: insightsv1alpha1.PoolProgressing, Completion: 0, Updating: "True Progressing", Healthy: "True AsExpected",
			UpdatingMessage: "0 of 2 nodes are updated, 0 are updating", Counts: [6]int32{2, 2, 0, 2, 0, 0}},
	}, {
		name:         "a NodePool behind the control plane",
		controlPlane: controlPlane,
		nodes:        []*corev1.Node{node("np2-a", "np2", kubeletOld, nil), node("np2-b", "np2", kubeletOld, atRest(oldHash))},
		want: map[string]nodeView{
			"np2-a": {Updating: "False Behind", Degraded: notDegraded, Available: available, Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6"},
			"np2-b": {Updating: "False Behind", Degraded: notDegraded, Available: available, Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6"},
		},
		pool: poolView{Assessment: insightsv1alpha1.PoolBehind, Completion: 0, Updating: "False BehindControlPlane", Healthy: "True AsExpected",
			UpdatingMessage: behindNote1, Counts: [6]int32{2, 2, 0, 2, 0, 0}},
	}, {
		name:         "a NodePool beyond the supported skew",
		controlPlane: controlPlane,
		nodes:        []*corev1.Node{node("np3-a", "np3", kubeletOlder, nil)},
		want: map[string]nodeView{
			"np3-a": {Updating: "False Behind", Degraded: notDegraded, Available: available, Message: "kubelet v1.27.16+03f2a51, 4 minor releases behind the control plane's 1.31.6"},
		},
		pool: poolView{Assessment: insightsv1alpha1.PoolBehind, Completion: 0, Updating: "False BehindControlPlane", Healthy: "False BeyondSupportedSkew",
			UpdatingMessage: "The NodePool's nodes run kubelet v1.27.16+03f2a51, 4 minor releases behind the control plane's 1.31.6. " +
				"NodePools are updated apart from the control plane, and HyperShift supports NodePools up to 3 minor releases behind the control plane.",
			Counts: [6]int32{1, 1, 0, 1, 0, 0}, Health: []string{health.NodePoolBeyondSkew}},
	}, {
		name:         "a NodePool behind by a patch release",
		controlPlane: controlPlane,
		nodes:        []*corev1.Node{node("np2-a", "np2", "v1.31.2+c0ffee1", nil)},
		want: map[string]nodeView{
			"np2-a": {Updating: "False Behind", Degraded: notDegraded, Available: available, Message: "kubelet v1.31.2+c0ffee1, an older patch release than the control plane's 1.31.6"},
		},
		pool: poolView{Assessment: insightsv1alpha1.PoolBehind, Completion: 0, Updating: "False BehindControlPlane", Healthy: "True AsExpected",
			UpdatingMessage: "The NodePool's nodes run kubelet v1.31.2+c0ffee1, an older patch release than the control plane's 1.31.6. " +
				"NodePools are updated apart from the control plane, and HyperShift supports NodePools up to 3 minor releases behind the control plane.",
			Counts: [6]int32{1, 1, 0, 1, 0, 0}},
	}, {
		// Every phase of the upgrader's order at once, as maxUnavailable 5
		// allows (getNodesToUpgrade): the kubelets say nothing while the
		// NodePool updates in place.
		name:         "an InPlace NodePool mid-update",
		controlPlane: controlPlane,
		nodes: []*corev1.Node{
			node("ip-done", "ip", kubeletNew, atRest(newHash)),
			node("ip-awaiting", "ip", kubeletOld, awaiting()),
			node("ip-at-old", "ip", kubeletOld, atRest(oldHash)),
			node("ip-told", "ip", kubeletOld, told(oldHash, newHash)),
			cordoned(node("ip-draining", "ip", kubeletOld, draining(oldHash, newHash))),
			cordoned(node("ip-drained", "ip", kubeletOld, drained(oldHash, newHash))),
			down(cordoned(node("ip-rebooting", "ip", kubeletOld, rebooting(oldHash, newHash)))),
			cordoned(node("ip-uncordoning", "ip", kubeletNew, uncordoning(oldHash, newHash))),
		},
		want: map[string]nodeView{
			"ip-done":        {Updating: "False Completed", Degraded: notDegraded, Available: available, Message: "kubelet v1.31.6+a1b2c3d, the control plane's release"},
			"ip-awaiting":    {Updating: "False Pending", Degraded: notDegraded, Available: available, Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6"},
			"ip-at-old":      {Updating: "False Pending", Degraded: notDegraded, Available: available, Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6"},
			"ip-told":        {Updating: "True Updating", Degraded: notDegraded, Available: processing, Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6", Estimate: "10m0s"},
			"ip-draining":    {Updating: "True Draining", Degraded: notDegraded, Available: "False Unschedulable", Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6", Estimate: "10m0s"},
			"ip-drained":     {Updating: "True Updating", Degraded: notDegraded, Available: "False Unschedulable", Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6", Estimate: "10m0s"},
			"ip-rebooting":   {Updating: "True Rebooting", Degraded: notDegraded, Available: "False NotReady", Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6", Estimate: "10m0s"},
			"ip-uncordoning": {Updating: "True Updating", Degraded: notDegraded, Available: "False Unschedulable", Message: "kubelet v1.31.6+a1b2c3d, the control plane's release", Estimate: "10m0s"},
		},
		pool: poolView{Assessment: insightsv1alpha1.PoolProgressing, Completion: 12, Updating: "True Progressing", Healthy: "True AsExpected",
			UpdatingMessage: "1 of 8 nodes are updated, 5 are updating", Counts: [6]int32{8, 3, 5, 7, 1, 0}},
	}, {
		// A node's second in-place update: the post-config action of the
		// first one's reboot is still there, at every phase of this one.
		// Only the reboot itself, the node drained for its new
		// configuration and its kubelet down, reads as Rebooting.
		name:         "an InPlace NodePool updated in place a second time",
		controlPlane: controlPlane,
		nodes: []*corev1.Node{
			node("ip-told", "ip", kubeletOld, rebootedBefore(told(oldHash, newHash))),
			cordoned(node("ip-draining", "ip", kubeletOld, rebootedBefore(draining(oldHash, newHash)))),
			cordoned(node("ip-drained", "ip", kubeletOld, rebootedBefore(drained(oldHash, newHash)))),
			cordoned(node("ip-degraded", "ip", kubeletOld, rebootedBefore(degraded(oldHash, newHash, "failed to update configuration: exit status 1")))),
			down(cordoned(node("ip-rebooting", "ip", kubeletOld, rebootedBefore(drained(oldHash, newHash))))),
			cordoned(node("ip-back", "ip", kubeletNew, rebootedBefore(drained(oldHash, newHash)))),
			cordoned(node("ip-uncordoning", "ip", kubeletNew, rebootedBefore(uncordoning(oldHash, newHash)))),
			node("ip-done", "ip", kubeletNew, rebootedBefore(atRest(newHash))),
		},
		want: map[string]nodeView{
			"ip-told":     {Updating: "True Updating", Degraded: notDegraded, Available: processing, Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6", Estimate: "10m0s"},
			"ip-draining": {Updating: "True Draining", Degraded: notDegraded, Available: "False Unschedulable", Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6", Estimate: "10m0s"},
			"ip-drained":  {Updating: "True Updating", Degraded: notDegraded, Available: "False Unschedulable", Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6", Estimate: "10m0s"},
			"ip-degraded": {Updating: "True Updating", Degraded: "True MachineConfigDaemonDegraded", Available: "False Unschedulable",
				Message: "failed to update configuration: exit status 1"},
			"ip-rebooting":   {Updating: "True Rebooting", Degraded: notDegraded, Available: "False NotReady", Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6", Estimate: "10m0s"},
			"ip-back":        {Updating: "True Updating", Degraded: notDegraded, Available: "False Unschedulable", Message: "kubelet v1.31.6+a1b2c3d, the control plane's release", Estimate: "10m0s"},
			"ip-uncordoning": {Updating: "True Updating", Degraded: notDegraded, Available: "False Unschedulable", Message: "kubelet v1.31.6+a1b2c3d, the control plane's release", Estimate: "10m0s"},
			"ip-done":        {Updating: "False Completed", Degraded: notDegraded, Available: available, Message: "kubelet v1.31.6+a1b2c3d, the control plane's release"},
		},
		pool: poolView{Assessment: insightsv1alpha1.PoolDegraded, Completion: 12, Updating: "True Progressing", Healthy: "False NodesDegraded",
			UpdatingMessage: "1 of 8 nodes are updated, 6 are updating", Counts: [6]int32{8, 1, 6, 7, 1, 1}},
	}, {
		name:         "an InPlace NodePool with a degraded node",
		controlPlane: controlPlane,
		nodes: []*corev1.Node{
			node("ip-a", "ip", kubeletOld, degraded(oldHash, newHash, "failed to update configuration: error running rpm-ostree rebase: exit status 1")),
			node("ip-b", "ip", kubeletOld, atRest(oldHash)),
		},
		want: map[string]nodeView{
			"ip-a": {Updating: "True Updating", Degraded: "True MachineConfigDaemonDegraded", Available: available,
				Message: "failed to update configuration: error running rpm-ostree rebase: exit status 1"},
			"ip-b": {Updating: "False Pending", Degraded: notDegraded, Available: available, Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6"},
		},
		pool: poolView{Assessment: insightsv1alpha1.PoolDegraded, Completion: 0, Updating: "True Progressing", Healthy: "False NodesDegraded",
			UpdatingMessage: "0 of 2 nodes are updated, 0 are updating", Counts: [6]int32{2, 2, 0, 2, 0, 1}},
	}, {
		// The daemon's post-config action outlives its reboot: a node that
		// runs its configuration is done.
		name:         "an InPlace NodePool after its update",
		controlPlane: controlPlane,
		nodes: []*corev1.Node{
			node("ip-a", "ip", kubeletNew, with(atRest(newHash), map[string]string{postConfigActionAnnotation: stateRebooting})),
			node("ip-b", "ip", kubeletNew, atRest(newHash)),
		},
		want: map[string]nodeView{
			"ip-a": {Updating: "False Completed", Degraded: notDegraded, Available: available, Message: "kubelet v1.31.6+a1b2c3d, the control plane's release"},
			"ip-b": {Updating: "False Completed", Degraded: notDegraded, Available: available, Message: "kubelet v1.31.6+a1b2c3d, the control plane's release"},
		},
		pool: poolView{Assessment: insightsv1alpha1.PoolCompleted, Completion: 100, Updating: "False Completed", Healthy: "True AsExpected",
			UpdatingMessage: "All 2 nodes run the control plane's Kubernetes release 1.31.6", Counts: [6]int32{2, 2, 0, 0, 0, 0}},
	}, {
		name:  "a control plane whose Kubernetes version is not known",
		nodes: []*corev1.Node{node("np1-a", "np1", kubeletNew, nil)},
		want: map[string]nodeView{
			"np1-a": {Updating: "Unknown CannotDetermine", Degraded: notDegraded, Available: available, Message: "kubelet v1.31.6+a1b2c3d"},
		},
		pool: poolView{Assessment: insightsv1alpha1.PoolPending, Completion: 0, Updating: "Unknown CannotDetermine", Healthy: "True AsExpected",
			UpdatingMessage: "The control plane's Kubernetes version is not known: the kube-apiserver ClusterOperator does not carry it yet",
			Counts:          [6]int32{1, 1, 0, 1, 0, 0}},
	}, {
		name:         "a node not ready for long",
		controlPlane: controlPlane,
		nodes:        []*corev1.Node{notReady(node("np1-a", "np1", kubeletNew, nil), 10*time.Minute)},
		want: map[string]nodeView{
			"np1-a": {Updating: "False Completed", Degraded: notDegraded, Available: "False NotReady", Message: "Not ready; kubelet v1.31.6+a1b2c3d, the control plane's release"},
		},
		pool: poolView{Assessment: insightsv1alpha1.PoolCompleted, Completion: 100, Updating: "False Completed", Healthy: "True AsExpected",
			UpdatingMessage: "All 1 nodes run the control plane's Kubernetes release 1.31.6", Counts: [6]int32{1, 0, 0, 0, 0, 0}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			pool := tc.nodes[0].Labels[hosted.NodePoolLabel]
			r := Assess(Input{NodePool: pool, Nodes: tc.nodes, ControlPlane: tc.controlPlane, Now: now})
			got := map[string]nodeView{}
			for _, n := range r.Nodes {
				got[n.Status.Name] = viewNode(&n.Status)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("nodes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.pool, viewPool(&r)); diff != "" {
				t.Errorf("pool (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAssessStatuses checks whole statuses: what names the NodePool, and
// what is left out because the guest cannot know it.
func TestAssessStatuses(t *testing.T) {
	r := Assess(Input{NodePool: "np1", ControlPlane: controlPlane, Now: now,
		Nodes: []*corev1.Node{cordoned(node("np1-old", "np1", kubeletOld, nil)), node("np1-new", "np1", kubeletNew, nil)}})
	ref := hosted.NodePool("np1")
	at := metav1.NewTime(now)
	wantNodes := []insightsv1alpha1.NodeProgressInsightStatus{{
		Name: "np1-new", PoolResource: ref, ScopeType: insightsv1alpha1.ScopeTypeWorkerPool,
		Message: "kubelet v1.31.6+a1b2c3d, the control plane's release",
		Conditions: []metav1.Condition{
			{Type: "Updating", Status: metav1.ConditionFalse, Reason: "Completed", LastTransitionTime: at,
				Message: "The node runs kubelet v1.31.6+a1b2c3d, the control plane's Kubernetes release 1.31.6"},
			{Type: "Degraded", Status: metav1.ConditionFalse, Reason: "AsExpected", LastTransitionTime: at, Message: "No problem is reported on the node"},
			{Type: "Available", Status: metav1.ConditionTrue, Reason: "AsExpected", LastTransitionTime: at, Message: "The node is ready and schedulable"},
		},
	}, {
		Name: "np1-old", PoolResource: ref, ScopeType: insightsv1alpha1.ScopeTypeWorkerPool,
		Message: "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6",
		Conditions: []metav1.Condition{
			{Type: "Updating", Status: metav1.ConditionTrue, Reason: "Draining", LastTransitionTime: at,
				Message: "The node runs kubelet v1.30.10+5f9c2b1 and is cordoned while nodes with kubelet v1.31.6+a1b2c3d join its NodePool: it is being replaced"},
			{Type: "Degraded", Status: metav1.ConditionFalse, Reason: "AsExpected", LastTransitionTime: at, Message: "No problem is reported on the node"},
			{Type: "Available", Status: metav1.ConditionFalse, Reason: "Unschedulable", LastTransitionTime: at, Message: "Node is marked unschedulable"},
		},
	}}
	var gotNodes []insightsv1alpha1.NodeProgressInsightStatus
	for _, n := range r.Nodes {
		gotNodes = append(gotNodes, n.Status)
		if len(n.Health) > 0 {
			t.Errorf("node %s has health insights %v, want none", n.Status.Name, n.Health)
		}
	}
	if diff := cmp.Diff(wantNodes, gotNodes); diff != "" {
		t.Errorf("node statuses (-want +got):\n%s", diff)
	}
	if r.Pool.Resource == nil || *r.Pool.Resource != ref || r.Pool.Name != "np1" || r.Pool.ScopeType != insightsv1alpha1.ScopeTypeWorkerPool {
		t.Errorf("pool status names %q, resource %v, scope %s; want the NodePool np1 as a worker pool", r.Pool.Name, r.Pool.Resource, r.Pool.ScopeType)
	}
	if !r.Next.IsZero() {
		t.Errorf("Next = %s, want none: nothing changes by the clock alone", r.Next)
	}
}

func TestAssessKeepsTransitionsAndCountsDown(t *testing.T) {
	started := metav1.NewTime(now.Add(-4 * time.Minute))
	previous := &insightsv1alpha1.NodeProgressInsightStatus{Conditions: []metav1.Condition{
		{Type: "Updating", Status: metav1.ConditionTrue, Reason: "Draining", LastTransitionTime: started},
	}}
	previousPool := &insightsv1alpha1.MachineConfigPoolProgressInsightStatus{Conditions: []metav1.Condition{
		{Type: "Updating", Status: metav1.ConditionTrue, Reason: "Progressing", LastTransitionTime: started},
	}}
	r := Assess(Input{NodePool: "ip", ControlPlane: controlPlane, Now: now, PreviousPool: previousPool,
		PreviousNode: func(name string) *insightsv1alpha1.NodeProgressInsightStatus {
			if name == "ip-a" {
				return previous
			}
			return nil
		},
		Nodes: []*corev1.Node{node("ip-a", "ip", kubeletOld, drained(oldHash, newHash)), node("ip-b", "ip", kubeletOld, atRest(oldHash))}})
	a := r.Nodes[0].Status
	if diff := cmp.Diff("6m0s", viewNode(&a).Estimate); diff != "" {
		t.Errorf("estimate (-want +got):\n%s", diff)
	}
	if got := meta.FindStatusCondition(a.Conditions, "Updating").LastTransitionTime; !got.Equal(&started) {
		t.Errorf("Updating turned True at %s, want kept at %s", got, started)
	}
	if got := meta.FindStatusCondition(r.Pool.Conditions, "Updating").LastTransitionTime; !got.Equal(&started) {
		t.Errorf("the pool's Updating turned True at %s, want kept at %s", got, started)
	}
	if want := now.Add(time.Minute); !r.Next.Equal(want) {
		t.Errorf("Next = %s, want %s: the estimate counts down by the minute", r.Next, want)
	}
}

func TestAssessHealth(t *testing.T) {
	r := Assess(Input{NodePool: "ip", ControlPlane: controlPlane, Now: now, Nodes: []*corev1.Node{
		node("ip-a", "ip", kubeletOld, degraded(oldHash, newHash, "failed to update configuration: exit status 1")),
		notReady(node("ip-b", "ip", kubeletOld, atRest(oldHash)), 10*time.Minute),
	}})
	var got []string
	for _, n := range r.Nodes {
		for _, i := range n.Health {
			got = append(got, n.Status.Name+" "+i.Problem+" "+i.Status.Impact.Summary)
		}
	}
	sort.Strings(got)
	want := []string{"ip-a NodeDegraded Node ip-a is degraded", "ip-b NodeUnavailable Node ip-b is not ready"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("health insights (-want +got):\n%s", diff)
	}
}

func TestGroup(t *testing.T) {
	joined := node("fresh", "", kubeletNew, nil)
	delete(joined.Labels, hosted.NodePoolLabel)
	got := map[string][]string{}
	for pool, members := range Group([]*corev1.Node{node("a-1", "a", kubeletNew, nil), joined, node("b-1", "b", kubeletNew, nil), node("a-2", "a", kubeletNew, nil)}) {
		for _, n := range members {
			got[pool] = append(got[pool], n.Name)
		}
	}
	if diff := cmp.Diff(map[string][]string{"a": {"a-1", "a-2"}, "b": {"b-1"}}, got); diff != "" {
		t.Errorf("Group (-want +got):\n%s", diff)
	}
}

// TestAssessLearnsPerNodeTime: a node seen updating in place and then done
// says how long it took, and the NodePool's next node is expected to take
// the per-node time learned, not the 10-minute default.
func TestAssessLearnsPerNodeTime(t *testing.T) {
	started := metav1.NewTime(now.Add(-7 * time.Minute))
	previous := &insightsv1alpha1.NodeProgressInsightStatus{Conditions: []metav1.Condition{
		{Type: "Updating", Status: metav1.ConditionTrue, Reason: "Updating", LastTransitionTime: started},
	}}
	for _, tc := range []struct {
		name     string
		nodes    []*corev1.Node
		perNode  time.Duration
		finished map[string]string
		estimate map[string]string
	}{{
		name:     "the first node done while the second is told",
		nodes:    []*corev1.Node{node("ip-a", "ip", kubeletNew, atRest(newHash)), node("ip-b", "ip", kubeletOld, told(oldHash, newHash))},
		perNode:  20 * time.Minute,
		finished: map[string]string{"ip-a": "7m0s"},
		estimate: map[string]string{"ip-b": "20m0s"},
	}, {
		name:     "the last node done",
		nodes:    []*corev1.Node{node("ip-a", "ip", kubeletNew, atRest(newHash)), node("ip-b", "ip", kubeletNew, atRest(newHash))},
		finished: map[string]string{"ip-a": "7m0s"},
		estimate: map[string]string{},
	}, {
		name:     "a Replace NodePool's new node",
		nodes:    []*corev1.Node{node("ip-a", "ip", kubeletNew, nil)},
		finished: map[string]string{},
		estimate: map[string]string{},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			r := Assess(Input{NodePool: "ip", ControlPlane: controlPlane, Now: now, Nodes: tc.nodes, PerNode: tc.perNode,
				PreviousNode: func(name string) *insightsv1alpha1.NodeProgressInsightStatus {
					if name == "ip-a" {
						return previous
					}
					return nil
				}})
			finished, estimate := map[string]string{}, map[string]string{}
			for _, n := range r.Nodes {
				if n.Finished > 0 {
					finished[n.Status.Name] = n.Finished.String()
				}
				if n.Status.EstimatedToComplete != nil {
					estimate[n.Status.Name] = n.Status.EstimatedToComplete.Duration.String()
				}
			}
			if diff := cmp.Diff(tc.finished, finished); diff != "" {
				t.Errorf("finished (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.estimate, estimate); diff != "" {
				t.Errorf("estimates (-want +got):\n%s", diff)
			}
		})
	}
}
