package updatestatus

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

const behindMessage = "Nodes run Kubernetes 1.29, 2 minor releases behind the control plane's 1.31 (NodePools may run at most 3 behind)"

// nodePool is a NodePool's pool insight, as the NodePool controller writes
// it: status.resource names the NodePool.
func nodePool(name string, total, outdated int32, assessment insightsv1alpha1.PoolAssessment) *insightsv1alpha1.MachineConfigPoolProgressInsight {
	ref := hosted.NodePool(name)
	updating := metav1.Condition{Type: insightsv1alpha1.MachineConfigPoolProgressInsightUpdating, Status: metav1.ConditionFalse, Reason: string(assessment)}
	switch assessment {
	case insightsv1alpha1.PoolProgressing:
		updating.Status = metav1.ConditionTrue
	case insightsv1alpha1.PoolBehind:
		updating.Message = behindMessage
	}
	return &insightsv1alpha1.MachineConfigPoolProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: insightsv1alpha1.MachineConfigPoolProgressInsightStatus{
			Name: name, Resource: &ref, ScopeType: insightsv1alpha1.ScopeTypeWorkerPool, Assessment: assessment,
			Conditions: []metav1.Condition{updating},
			Summaries: []insightsv1alpha1.NodeSummary{
				{Type: insightsv1alpha1.NodesTotal, Count: total}, {Type: insightsv1alpha1.NodesOutdated, Count: outdated},
			},
		},
	}
}

// TestNodePoolsAreWorkerPools: on a hosted cluster each NodePool is a worker
// pool of the UpdateStatus that names the NodePool. A NodePool is updated
// apart from the control plane: it never awaits the control plane, and one
// Behind it or otherwise outdated, none of whose nodes updates, is pending
// (its nodes do not run the control plane's release) but not active.
func TestNodePoolsAreWorkerPools(t *testing.T) {
	for _, tc := range []struct {
		name        string
		cv          *configv1.ClusterVersion
		pool        *insightsv1alpha1.MachineConfigPoolProgressInsight
		wantPending state
		wantActive  state
	}{
		{name: "InPlace, updating during the control plane's update", cv: clusterVersion("4.18.3", configv1.PartialUpdate, "4.18.3"),
			pool:        nodePool("inplace", 3, 2, insightsv1alpha1.PoolProgressing),
			wantPending: state{"True", ReasonNodesNotReconciled}, wantActive: state{"True", ReasonWorkerNodesUpdating}},
		{name: "Behind, the control plane updating", cv: clusterVersion("4.18.3", configv1.PartialUpdate, "4.18.3"),
			pool:        nodePool("behind", 2, 2, insightsv1alpha1.PoolBehind),
			wantPending: state{"True", ReasonNodesNotReconciled}, wantActive: state{"False", ReasonNodePoolBehind}},
		{name: "Behind, the control plane updated", cv: clusterVersion("4.18.3", configv1.CompletedUpdate, "4.18.3"),
			pool:        nodePool("behind", 2, 2, insightsv1alpha1.PoolBehind),
			wantPending: state{"True", ReasonNodesNotReconciled}, wantActive: state{"False", ReasonNodePoolBehind}},
		{name: "Pending: outdated, none updating, not Behind", cv: clusterVersion("4.18.3", configv1.CompletedUpdate, "4.18.3"),
			pool:        nodePool("zstream", 2, 2, insightsv1alpha1.PoolPending),
			wantPending: state{"True", ReasonNodesNotReconciled}, wantActive: state{"False", ReasonNodePoolNotUpdating}},
		{name: "Completed, the control plane updating: not awaiting it", cv: clusterVersion("4.18.3", configv1.PartialUpdate, "4.18.3"),
			pool:        nodePool("done", 2, 0, insightsv1alpha1.PoolCompleted),
			wantPending: state{"False", ReasonNodesReconciled}, wantActive: state{"False", insightsv1alpha1.UpdateCompleted}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Compute(Input{ClusterVersion: tc.cv, Pools: []*insightsv1alpha1.MachineConfigPoolProgressInsight{tc.pool}, Now: now})
			if len(got.WorkerPools) != 1 {
				t.Fatalf("%d worker pools, want 1", len(got.WorkerPools))
			}
			wp := got.WorkerPools[0]
			if diff := cmp.Diff(hosted.NodePool(tc.pool.Name), wp.Resource); diff != "" {
				t.Errorf("resource (-want +got):\n%s", diff)
			}
			want := map[string]state{insightsv1alpha1.UpdatePending: tc.wantPending, insightsv1alpha1.UpdateActive: tc.wantActive}
			if diff := cmp.Diff(want, states(wp.Conditions)); diff != "" {
				t.Errorf("conditions (-want +got):\n%s", diff)
			}
			if active := wp.Conditions[1]; tc.pool.Status.Assessment == insightsv1alpha1.PoolBehind && active.Message != behindMessage {
				t.Errorf("%s says %q, want the pool insight's %q", active.Type, active.Message, behindMessage)
			}
		})
	}
}

// TestBuiltinInsightsOfNodePools: the operator's own insights about a
// NodePool, its nodes and its health name the NodePool as their worker
// pool, and are placed in its section; a Behind NodePool's reads as behind,
// not as progress.
func TestBuiltinInsightsOfNodePools(t *testing.T) {
	behind := nodePool("workers-old", 2, 2, insightsv1alpha1.PoolBehind)
	inPlace := nodePool("workers-inplace", 3, 2, insightsv1alpha1.PoolProgressing)
	inPlace.Status.CompletionPercent = 33
	nodeInsight := &insightsv1alpha1.NodeProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: "workers-inplace-x7k2p"},
		Status: insightsv1alpha1.NodeProgressInsightStatus{
			Name: "workers-inplace-x7k2p", PoolResource: hosted.NodePool("workers-inplace"), ScopeType: insightsv1alpha1.ScopeTypeWorkerPool,
			Conditions: []metav1.Condition{{Type: insightsv1alpha1.NodeProgressInsightUpdating, Status: metav1.ConditionTrue, Reason: insightsv1alpha1.NodeDraining}},
		},
	}
	healthInsight := &insightsv1alpha1.UpdateHealthInsight{
		ObjectMeta: metav1.ObjectMeta{Name: "np-problem"},
		Status: insightsv1alpha1.UpdateHealthInsightStatus{
			Scope:  insightsv1alpha1.InsightScope{Type: insightsv1alpha1.ScopeTypeWorkerPool, Resources: []insightsv1alpha1.ResourceRef{hosted.NodePool("workers-old")}},
			Impact: insightsv1alpha1.InsightImpact{Level: insightsv1alpha1.WarningImpactLevel, Type: insightsv1alpha1.NoneImpactType, Summary: "problem"},
		},
	}
	builtin := Builtin(Insights{
		Pools:  []*insightsv1alpha1.MachineConfigPoolProgressInsight{behind, inPlace},
		Nodes:  []*insightsv1alpha1.NodeProgressInsight{nodeInsight},
		Health: []*insightsv1alpha1.UpdateHealthInsight{healthInsight},
	})
	type row struct{ Summary, Description, WorkerPool string }
	var got []row
	for _, i := range builtin {
		r := row{Summary: i.Impact.Summary, Description: i.Impact.Description}
		for _, w := range i.Scope.WorkerPool {
			r.WorkerPool += w.Group + "/" + w.Kind + "/" + w.Name
		}
		got = append(got, r)
	}
	want := []row{
		// How far behind is the description: the NodePool controller's
		// message is longer than a summary may be.
		{Summary: "NodePool workers-old is behind the control plane", Description: behindMessage, WorkerPool: "hypershift.openshift.io/NodePool/workers-old"},
		{Summary: "NodePool workers-inplace progressing: 33% of its nodes updated", WorkerPool: "hypershift.openshift.io/NodePool/workers-inplace"},
		{Summary: "Node workers-inplace-x7k2p: Draining", WorkerPool: "hypershift.openshift.io/NodePool/workers-inplace"},
		{Summary: "problem", WorkerPool: "hypershift.openshift.io/NodePool/workers-old"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("builtin insights (-want +got):\n%s", diff)
	}

	status := Compute(Input{
		ClusterVersion: clusterVersion("4.18.3", configv1.CompletedUpdate, "4.18.3"),
		Pools:          []*insightsv1alpha1.MachineConfigPoolProgressInsight{behind, inPlace},
		NodePools:      NodePools([]*insightsv1alpha1.NodeProgressInsight{nodeInsight}),
		Answers:        []Answer{{Informer: BuiltinInformer, Insights: builtin}},
		Now:            now,
	})
	placed := map[string][]string{}
	for _, p := range status.WorkerPools {
		for _, i := range p.Informers {
			for _, insight := range i.Insights {
				placed[p.Resource.Name] = append(placed[p.Resource.Name], insight.Impact.Summary)
			}
		}
	}
	wantPlaced := map[string][]string{
		"workers-old":     {"problem", want[0].Summary},
		"workers-inplace": {want[2].Summary, want[1].Summary},
	}
	if diff := cmp.Diff(wantPlaced, placed); diff != "" {
		t.Errorf("placed (-want +got):\n%s", diff)
	}
}
