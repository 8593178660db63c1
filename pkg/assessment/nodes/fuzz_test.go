package nodes

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/update-insights/update-insights-operator/pkg/internal/apivalidation"
)

// FuzzAssess assesses an arbitrary node of an arbitrary pool (as JSON, as
// the machine-config daemon, the kubelet or anyone may write them) and the
// pool from it: the node's insight, the pool's and each health insight
// (its start filled in as the health insights controller does) are ones
// the API server's schemas accept, health insights have valid names, and
// the assessment is the same again, and again from what it wrote.
func FuzzAssess(f *testing.F) {
	for _, n := range []*corev1.Node{
		testNode("worker-0", mcd(newConfig, newConfig, "Done", "uncordon-"+newConfig, "uncordon-"+newConfig, ""), healthy(), false),
		testNode("worker-1", mcd(oldConfig, newConfig, "Working", "drain-"+newConfig, "uncordon-"+oldConfig, ""), healthy(), true),
		testNode("worker-2", mcd(oldConfig, newConfig, "Degraded", "drain-"+newConfig, "drain-"+newConfig, "failed to drain node: error when evicting pods"),
			with(healthy(), condition(corev1.NodeReady, corev1.ConditionFalse, "KubeletNotReady", "container runtime is down", 10*time.Minute)), true),
	} {
		f.Add(apivalidation.JSON(f, n), apivalidation.JSON(f, testPool("worker", false)), target, int64(8*time.Minute), int64(0))
	}
	f.Add(apivalidation.JSON(f, testNode("worker-0", nil, nil, false)), apivalidation.JSON(f, testPool("worker", true)), "", int64(0), int64(-time.Hour))

	nodeSchema := apivalidation.Status("NodeProgressInsight")
	poolSchema := apivalidation.Status("MachineConfigPoolProgressInsight")
	healthSchema := apivalidation.Status("UpdateHealthInsight")
	f.Fuzz(func(t *testing.T, nodeJSON, poolJSON []byte, target string, perNode, sinceNow int64) {
		var node corev1.Node
		var pool machineconfigurationv1.MachineConfigPool
		if json.Unmarshal(nodeJSON, &node) != nil || json.Unmarshal(poolJSON, &pool) != nil {
			return
		}
		// Objects have names the API server accepts.
		if len(validation.IsDNS1123Subdomain(node.Name)) > 0 || len(validation.IsDNS1123Subdomain(pool.Name)) > 0 {
			return
		}
		in := Input{Node: &node, Pool: &pool, Versions: versions, Target: target, PerNode: time.Duration(perNode), Now: now.Add(time.Duration(sinceNow))}
		a, insights, _ := Assess(in)
		if errs := nodeSchema.Validate(a.Status); len(errs) > 0 {
			t.Errorf("the API would refuse the node's insight: %v", errs.ToAggregate())
		}
		status, poolInsights, _ := AssessPool(&pool, []*Assessment{&a}, nil, nil, in.Now)
		if errs := poolSchema.Validate(status); len(errs) > 0 {
			t.Errorf("the API would refuse the pool's insight: %v", errs.ToAggregate())
		}
		for _, h := range append(insights, poolInsights...) {
			if h.Status.StartedAt.IsZero() {
				h.Status.StartedAt = metav1.NewTime(in.Now)
			}
			if errs := healthSchema.Validate(h.Status); len(errs) > 0 {
				t.Errorf("the API would refuse health insight %s: %v", h.Name, errs.ToAggregate())
			}
			if problems := validation.IsDNS1123Subdomain(h.Name); len(problems) > 0 {
				t.Errorf("health insight name %q: %v", h.Name, problems)
			}
		}

		again, insightsAgain, _ := Assess(in)
		if diff := cmp.Diff(a, again); diff != "" {
			t.Errorf("assessed again (-first +second):\n%s", diff)
		}
		if diff := cmp.Diff(insights, insightsAgain); diff != "" {
			t.Errorf("health assessed again (-first +second):\n%s", diff)
		}
		in.Previous = &a.Status
		if written, _, _ := Assess(in); !cmp.Equal(a.Status, written.Status) {
			t.Errorf("assessed again from what was written (-first +second):\n%s", cmp.Diff(a.Status, written.Status))
		}
	})
}
