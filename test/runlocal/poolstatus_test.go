package main

import (
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

const (
	oldConfig = "rendered-worker-4cec9ed3a634560e5c083a187c8f93a7"
	newConfig = "rendered-worker-0d9b2f8c1f3e4a5b6c7d8e9f0a1b2c3d"
)

var (
	recordedAt = time.Date(2024, 2, 7, 16, 11, 40, 0, time.UTC)
	rolledAt   = recordedAt.Add(time.Hour)
)

// rollingPool is the recorded worker pool, settled at oldConfig, once the
// render controller pointed its spec at newConfig.
func rollingPool() *machineconfigurationv1.MachineConfigPool {
	source := []corev1.ObjectReference{{APIVersion: "machineconfiguration.openshift.io/v1", Kind: "MachineConfig", Name: "00-worker"}}
	return &machineconfigurationv1.MachineConfigPool{
		ObjectMeta: metav1.ObjectMeta{Name: "worker", Generation: 3},
		Spec: machineconfigurationv1.MachineConfigPoolSpec{Configuration: machineconfigurationv1.MachineConfigPoolStatusConfiguration{
			ObjectReference: corev1.ObjectReference{Name: newConfig}, Source: source}},
		Status: machineconfigurationv1.MachineConfigPoolStatus{
			Configuration: machineconfigurationv1.MachineConfigPoolStatusConfiguration{ObjectReference: corev1.ObjectReference{Name: oldConfig}, Source: source},
			Conditions: []machineconfigurationv1.MachineConfigPoolCondition{
				poolCondition(machineconfigurationv1.MachineConfigPoolUpdated, corev1.ConditionTrue, "All nodes are updated with MachineConfig "+oldConfig, recordedAt),
				poolCondition(machineconfigurationv1.MachineConfigPoolUpdating, corev1.ConditionFalse, "", recordedAt),
				poolCondition(machineconfigurationv1.MachineConfigPoolDegraded, corev1.ConditionFalse, "", recordedAt),
			},
		},
	}
}

func poolCondition(t machineconfigurationv1.MachineConfigPoolConditionType, s corev1.ConditionStatus, message string, at time.Time) machineconfigurationv1.MachineConfigPoolCondition {
	return machineconfigurationv1.MachineConfigPoolCondition{Type: t, Status: s, Message: message, LastTransitionTime: metav1.NewTime(at)}
}

// worker is a ready node whose daemon reports current and desired
// configurations and a state, cordoned or not.
func worker(current, desired, state string, cordoned bool) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{
			nodes.CurrentConfigAnnotation: current, nodes.DesiredConfigAnnotation: desired, nodes.StateAnnotation: state}},
		Spec:   corev1.NodeSpec{Unschedulable: cordoned},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}},
	}
}

func TestPoolStatus(t *testing.T) {
	atOld := worker(oldConfig, oldConfig, "Done", false)
	targeted := worker(oldConfig, newConfig, "Done", false)
	draining := worker(oldConfig, newConfig, "Working", true)
	rebooting := worker(oldConfig, newConfig, "Rebooting", true)
	doneCordoned := worker(newConfig, newConfig, "Done", true)
	atNew := worker(newConfig, newConfig, "Done", false)
	failed := worker(oldConfig, newConfig, "Degraded", false)

	// The first status the node controller writes once the pool targets
	// the new configuration, and the following ones.
	rolling := func(updated, ready, unavailable, degraded int32) machineconfigurationv1.MachineConfigPoolStatus {
		s := rollingPool().Status
		s.ObservedGeneration, s.MachineCount = 3, 3
		s.UpdatedMachineCount, s.ReadyMachineCount, s.UnavailableMachineCount, s.DegradedMachineCount = updated, ready, unavailable, degraded
		s.Conditions = []machineconfigurationv1.MachineConfigPoolCondition{
			poolCondition(machineconfigurationv1.MachineConfigPoolDegraded, corev1.ConditionFalse, "", recordedAt),
			poolCondition(machineconfigurationv1.MachineConfigPoolUpdated, corev1.ConditionFalse, "", rolledAt),
			poolCondition(machineconfigurationv1.MachineConfigPoolUpdating, corev1.ConditionTrue, "All nodes are updating to MachineConfig "+newConfig, rolledAt),
		}
		return s
	}
	completedAt := rolledAt.Add(time.Minute)
	rolledOut := rolling(3, 3, 0, 0)
	rolledOut.Configuration = rollingPool().Spec.Configuration
	rolledOut.Conditions = []machineconfigurationv1.MachineConfigPoolCondition{
		poolCondition(machineconfigurationv1.MachineConfigPoolDegraded, corev1.ConditionFalse, "", recordedAt),
		poolCondition(machineconfigurationv1.MachineConfigPoolUpdated, corev1.ConditionTrue, "All nodes are updated with MachineConfig "+newConfig, completedAt),
		poolCondition(machineconfigurationv1.MachineConfigPoolUpdating, corev1.ConditionFalse, "", completedAt),
	}

	testCases := []struct {
		name string
		// from is the pool's status before, the recorded one if nil.
		from    *machineconfigurationv1.MachineConfigPoolStatus
		members []*corev1.Node
		at      time.Time
		want    machineconfigurationv1.MachineConfigPoolStatus
	}{
		{name: "the pool targets the new configuration, no node has it yet", members: []*corev1.Node{atOld, atOld, atOld}, at: rolledAt, want: rolling(0, 0, 0, 0)},
		{name: "one node told to use it: unavailable, as the daemon may start", members: []*corev1.Node{targeted, atOld, atOld}, at: rolledAt, want: rolling(0, 0, 1, 0)},
		{name: "one node draining", members: []*corev1.Node{draining, atOld, atOld}, at: rolledAt, want: rolling(0, 0, 1, 0)},
		{name: "one node done, one rebooting", from: ptr.To(rolling(0, 0, 1, 0)), members: []*corev1.Node{atNew, rebooting, atOld}, at: completedAt, want: rolling(1, 1, 1, 0)},
		{name: "one node failed: degraded, and available for another try", members: []*corev1.Node{atNew, failed, atOld}, at: rolledAt, want: rolling(1, 1, 0, 1)},
		{name: "every node done, the last still cordoned: updated, not ready", from: ptr.To(rolling(2, 2, 1, 0)), members: []*corev1.Node{atNew, atNew, doneCordoned}, at: completedAt, want: rolling(3, 2, 1, 0)},
		{name: "every node done and uncordoned: the status moves to the new configuration", from: ptr.To(rolling(3, 2, 1, 0)), members: []*corev1.Node{atNew, atNew, atNew}, at: completedAt, want: rolledOut},
	}
	for _, tt := range testCases {
		t.Run(tt.name, func(t *testing.T) {
			pool := rollingPool()
			if tt.from != nil {
				pool.Status = *tt.from
			}
			if diff := cmp.Diff(tt.want, poolStatus(pool, tt.members, tt.at)); diff != "" {
				t.Errorf("poolStatus() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// Updated is True and Updating False in the recorded status: set again to
// the same, they keep their place and time.
func TestPoolStatusOfASettledPoolChangesNothing(t *testing.T) {
	pool := rollingPool()
	pool.Spec.Configuration = pool.Status.Configuration
	got := poolStatus(pool, []*corev1.Node{worker(oldConfig, oldConfig, "Done", false)}, rolledAt)
	if diff := cmp.Diff(pool.Status.Conditions, got.Conditions); diff != "" {
		t.Errorf("conditions mismatch (-recorded +got):\n%s", diff)
	}
}

func TestRenderedName(t *testing.T) {
	shape := regexp.MustCompile(`^rendered-worker-[0-9a-f]{32}$`)
	a, b := renderedName("worker", "4.15.0-ec.2"), renderedName("worker", "4.15.0-ec.3")
	if !shape.MatchString(a) || !shape.MatchString(b) || a == b || renderedName("master", "4.15.0-ec.2") == renderedName("worker", "4.15.0-ec.2") {
		t.Errorf("want rendered-<pool>-<md5 hex>, one per pool and release; got %q and %q", a, b)
	}
}
