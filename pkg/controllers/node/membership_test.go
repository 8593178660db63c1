package node

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	"github.com/openshift/library-go/pkg/operator/events"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
)

func selectingPool(name string, selector *metav1.LabelSelector) *machineconfigurationv1.MachineConfigPool {
	return &machineconfigurationv1.MachineConfigPool{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: machineconfigurationv1.MachineConfigPoolSpec{NodeSelector: selector}}
}

func byRole(role string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: map[string]string{"node-role.kubernetes.io/" + role: ""}}
}

func labelled(name string, roles ...string) *corev1.Node {
	labels := map[string]string{}
	for _, r := range roles {
		labels["node-role.kubernetes.io/"+r] = ""
	}
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
}

func TestMembershipFollowsSelectorsAndLabels(t *testing.T) {
	allNodes := []*corev1.Node{labelled("a", "worker"), labelled("b", "worker", "infra"), labelled("c", "master", "worker")}
	workerAndMaster := []*machineconfigurationv1.MachineConfigPool{selectingPool("worker", byRole("worker")), selectingPool("master", byRole("master"))}
	withInfra := append([]*machineconfigurationv1.MachineConfigPool{selectingPool("infra", byRole("infra"))}, workerAndMaster...)
	for _, tc := range []struct {
		name   string
		change func(m *membership)
		want   map[string][]string
	}{
		{
			name:   "master wins over worker",
			change: func(*membership) {},
			want:   map[string][]string{"worker": {"a", "b"}, "master": {"c"}, "infra": nil},
		},
		{
			name:   "a new custom pool takes its nodes from worker",
			change: func(m *membership) { must(t, m.setPools(withInfra, listed(allNodes))) },
			want:   map[string][]string{"worker": {"a"}, "master": {"c"}, "infra": {"b"}},
		},
		{
			name: "a selector that changes moves the nodes",
			change: func(m *membership) {
				must(t, m.setPools([]*machineconfigurationv1.MachineConfigPool{selectingPool("worker", byRole("infra")), workerAndMaster[1]}, listed(allNodes)))
			},
			want: map[string][]string{"worker": {"b"}, "master": {"c"}, "infra": nil},
		},
		{
			name:   "a relabelled node moves",
			change: func(m *membership) { m.setNode("a", labelled("a", "master").Labels) },
			want:   map[string][]string{"worker": {"b"}, "master": {"a", "c"}, "infra": nil},
		},
		{
			name:   "a node relabelled out of every pool leaves",
			change: func(m *membership) { m.setNode("a", nil) },
			want:   map[string][]string{"worker": {"b"}, "master": {"c"}, "infra": nil},
		},
		{
			name:   "a deleted node leaves",
			change: func(m *membership) { m.removeNode("c") },
			want:   map[string][]string{"worker": {"a", "b"}, "master": nil, "infra": nil},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newMembership(events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(time.Time{})))
			must(t, m.setPools(workerAndMaster, listed(allNodes)))
			tc.change(m)
			got := map[string][]string{}
			for pool := range tc.want {
				got[pool] = m.nodesIn(pool)
			}
			if diff := cmp.Diff(tc.want, got, cmpEmptyAsNil); diff != "" {
				t.Errorf("members (-want +got):\n%s", diff)
			}
		})
	}
}

// listed lists nodes as the node informer's cache would.
func listed(nodes []*corev1.Node) func() ([]*corev1.Node, error) {
	return func() ([]*corev1.Node, error) { return nodes, nil }
}

// TestANodeAddedDuringARebuildIsPlaced: the node informer may add a node
// to its cache just after the pool handler listed the nodes, and place it
// while the selectors are being parsed again. The node must end in its pool,
// not placed by the old selectors and then dropped by the rebuild.
func TestANodeAddedDuringARebuildIsPlaced(t *testing.T) {
	m := newMembership(events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(time.Time{})))
	placed := make(chan struct{})
	err := m.setPools([]*machineconfigurationv1.MachineConfigPool{selectingPool("worker", byRole("worker"))}, func() ([]*corev1.Node, error) {
		go func() {
			defer close(placed)
			m.setNode("late", labelled("late", "worker").Labels)
		}()
		return []*corev1.Node{labelled("early", "worker")}, nil
	})
	must(t, err)
	<-placed
	if diff := cmp.Diff([]string{"early", "late"}, m.nodesIn("worker")); diff != "" {
		t.Errorf("worker members (-want +got):\n%s", diff)
	}
}

var cmpEmptyAsNil = cmp.FilterValues(func(a, b []string) bool { return len(a) == 0 && len(b) == 0 }, cmp.Ignore())

func TestInvalidSelectorIsReportedOnceWhenItBecomesInvalid(t *testing.T) {
	invalid := func(operator metav1.LabelSelectorOperator) *machineconfigurationv1.MachineConfigPool {
		return selectingPool("infra", &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "role", Operator: operator, Values: []string{"infra"}}}})
	}
	recorder := events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(time.Time{}))
	m := newMembership(recorder)
	var reported []int
	for _, pools := range [][]*machineconfigurationv1.MachineConfigPool{
		{invalid("Bogus")},
		{invalid("Bogus")},
		{invalid("Other")},
		{selectingPool("infra", byRole("infra"))},
		{invalid("Other")},
	} {
		must(t, m.setPools(pools, listed(nil)))
		reported = append(reported, len(recorder.Events()))
	}
	// Invalid, the same again, changed, fixed, invalid again.
	if diff := cmp.Diff([]int{1, 1, 2, 2, 3}, reported); diff != "" {
		t.Errorf("warning events after each rebuild (-want +got):\n%s", diff)
	}
	for _, e := range recorder.Events() {
		if e.Type != corev1.EventTypeWarning || e.Reason != "InvalidNodeSelector" {
			t.Errorf("event %s %s, want a Warning InvalidNodeSelector", e.Type, e.Reason)
		}
	}
}
