package controlplane

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"

	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/internal/hostedtest"
)

// hostedUpdating is a hosted cluster's ClusterVersion part way through its
// control plane's update from 4.17.8 to 4.18.3, as the cluster-version
// operator on the management cluster writes it; spec.desiredUpdate is nil
// (the hosted-cluster-config-operator resets it: control-plane-operator/
// hostedclusterconfigoperator/controllers/resources/resources.go).
func hostedUpdating() *configv1.ClusterVersion {
	return clusterVersion(
		desired("4.18.3"),
		progressingCondition(configv1.ConditionTrue, "", "Working towards 4.18.3: 412 of 601 done (68% complete)"),
		historyEntry("4.18.3", configv1.PartialUpdate, started, 0),
		historyEntry("4.17.8", configv1.CompletedUpdate, started.Add(-30*24*time.Hour), 35*time.Minute),
	)
}

// guestOperators are four operators that run in the guest, of which the
// first updated counts updated, the next progressing.
func guestOperators(updated int) []*configv1.ClusterOperator {
	var operators []*configv1.ClusterOperator
	for i, name := range []string{"console", "dns", "ingress", "network"} {
		switch {
		case i < updated:
			operators = append(operators, hostedtest.RealOperator(name, "4.18.3", false, started.Add(time.Duration(i+2)*time.Minute)))
		case i == updated:
			operators = append(operators, hostedtest.RealOperator(name, "4.17.8", true, started.Add(time.Duration(i+2)*time.Minute)))
		default:
			operators = append(operators, hostedtest.RealOperator(name, "4.17.8", false, started.Add(-time.Hour)))
		}
	}
	return operators
}

func annotatedAsPayload(operators []*configv1.ClusterOperator) []*configv1.ClusterOperator {
	var out []*configv1.ClusterOperator
	for _, co := range operators {
		co = co.DeepCopy()
		co.Annotations = map[string]string{hostedtest.IBMCloudManaged: "true"}
		out = append(out, co)
	}
	return out
}

// TestHostedControlPlaneCountsOnlyTheGuestsOperators: on a hosted cluster
// the six ClusterOperators of the hosted-cluster-config-operator, whose
// versions flip together early in the update, weigh in neither the
// completion, nor its estimate, nor the health insights: the control
// plane's assessment is the one of the guest's own operators alone. On a
// standalone cluster the same names are real operators and count.
func TestHostedControlPlaneCountsOnlyTheGuestsOperators(t *testing.T) {
	// The new hosted-cluster-config-operator pod started a minute into the
	// update: its six flipped then.
	flipped := hostedtest.SyntheticOperators("4.18.3", "1.31.6", started.Add(-30*24*time.Hour))
	notYet := hostedtest.SyntheticOperators("4.17.8", "1.30.10", started.Add(-30*24*time.Hour))
	testCases := []struct {
		name           string
		topology       hosted.Topology
		synthetic      []*configv1.ClusterOperator
		updated        int
		wantCompletion int32
	}{
		{name: "hosted, synthetic flipped early, no guest operator updated yet", topology: hosted.Hosted, synthetic: flipped, updated: 0, wantCompletion: 0},
		{name: "hosted, synthetic flipped early, guest operators updating one by one", topology: hosted.Hosted, synthetic: flipped, updated: 2, wantCompletion: 50},
		{name: "hosted, synthetic not flipped yet", topology: hosted.Hosted, synthetic: notYet, updated: 1, wantCompletion: 25},
		{name: "hosted, synthetic annotated as payload ones", topology: hosted.Hosted, synthetic: annotatedAsPayload(flipped), updated: 1, wantCompletion: 25},
		{name: "hosted, every guest operator updated", topology: hosted.Hosted, synthetic: flipped, updated: 4, wantCompletion: 100},
		{name: "standalone, the same names are real payload operators", topology: hosted.Standalone, synthetic: annotatedAsPayload(flipped), updated: 1, wantCompletion: 70},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			guest := guestOperators(tc.updated)
			operators := append(append([]*configv1.ClusterOperator{}, tc.synthetic...), guest...)
			status, insights, next := Assess(hostedUpdating(), PayloadOperators(operators), tc.topology, "", nil, nil, now)
			if status.CompletionPercent != tc.wantCompletion {
				t.Errorf("completion %d%%, want %d%%", status.CompletionPercent, tc.wantCompletion)
			}
			if tc.topology != hosted.Hosted {
				return
			}
			// The estimate and the health insights are those of the guest's
			// operators alone, as if the six were not there.
			wantStatus, wantInsights, wantNext := Assess(hostedUpdating(), guest, hosted.Standalone, "", nil, nil, now)
			if diff := cmp.Diff(wantStatus, status); diff != "" {
				t.Errorf("status (-guest's operators alone +got):\n%s", diff)
			}
			if diff := cmp.Diff(wantInsights, insights); diff != "" {
				t.Errorf("health insights (-guest's operators alone +got):\n%s", diff)
			}
			if !next.Equal(wantNext) {
				t.Errorf("next %v, want %v", next, wantNext)
			}
		})
	}
}

func TestCounts(t *testing.T) {
	since := started
	testCases := []struct {
		name     string
		topology hosted.Topology
		co       *configv1.ClusterOperator
		want     bool
	}{
		{name: "hosted, synthetic as written", topology: hosted.Hosted, co: hostedtest.SyntheticOperator("kube-apiserver", "4.18.3", "1.31.6", since)},
		{name: "hosted, synthetic annotated", topology: hosted.Hosted, co: annotatedAsPayload([]*configv1.ClusterOperator{hostedtest.SyntheticOperator("kube-scheduler", "4.18.3", "1.31.6", since)})[0]},
		{name: "hosted, guest operator", topology: hosted.Hosted, co: hostedtest.RealOperator("ingress", "4.18.3", false, since), want: true},
		{name: "standalone, kube-apiserver of the payload", topology: hosted.Standalone, co: clusterOperator("kube-apiserver", "4.18.3"), want: true},
		{name: "standalone, an add-on", topology: hosted.Standalone, co: clusterOperator("add-on", "1.0", withAnnotations(nil))},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Counts(tc.topology, tc.co); got != tc.want {
				t.Errorf("Counts = %t, want %t", got, tc.want)
			}
		})
	}
}
