package updatestatus

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/internal/apivalidation"
)

// offlineReasons are the reasons an informer is offline for.
var offlineReasons = []string{"", insightsv1alpha1.InformerUnreachable, insightsv1alpha1.InformerFailure, insightsv1alpha1.InformerWaiting, "DiscoveryFailed"}

// FuzzCompute computes UpdateStatus from an arbitrary ClusterVersion (as
// JSON), pool insights and informers' answers (as JSON), each as the API
// would have them: pool insights their schema accepts, answers whose
// insights fit UpdateStatus one by one (the informers controller leaves out
// the others). The status is one the API server's schema accepts, and the
// same for the same input.
func FuzzCompute(f *testing.F) {
	seed := func(cv *configv1.ClusterVersion, pools []*insightsv1alpha1.MachineConfigPoolProgressInsight, answers []Answer) {
		var statuses []insightsv1alpha1.MachineConfigPoolProgressInsightStatus
		for _, p := range pools {
			// As the node controller writes it.
			p.Status.Assessment = insightsv1alpha1.PoolProgressing
			for i := range p.Status.Conditions {
				p.Status.Conditions[i].LastTransitionTime = metav1.NewTime(now)
			}
			statuses = append(statuses, p.Status)
		}
		f.Add(apivalidation.JSON(f, cv), apivalidation.JSON(f, statuses), apivalidation.JSON(f, answers), uint8(0))
	}
	worker := node("worker-0")
	seed(clusterVersion("4.16.1", configv1.PartialUpdate, "4.16.1"),
		[]*insightsv1alpha1.MachineConfigPoolProgressInsight{pool("worker", 3, 1, nodes.PoolReasonProgressing), pool("infra", 2, 0, "Completed")},
		[]Answer{
			{Informer: BuiltinInformer, Insights: []insightsv1alpha1.UpdateInsight{insight("a", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.WarningInsightLevel)}},
			{Informer: "mco", Insights: []insightsv1alpha1.UpdateInsight{insight("b", insightsv1alpha1.ScopeTypeWorkerPool, insightsv1alpha1.ErrorInsightLevel, worker)}},
			{Informer: "late", Offline: insightsv1alpha1.InformerUnreachable, Problem: "no answer within 10s"},
		})
	seed(clusterVersion("4.16.1", configv1.CompletedUpdate, "4.16.1"), nil,
		[]Answer{{Informer: "managed", Insights: []insightsv1alpha1.UpdateInsight{window("w", insightsv1alpha1.ScopeTypeControlPlane, now.Add(48*3600e9))}}})

	updateStatus := apivalidation.Status("UpdateStatus")
	poolInsight := apivalidation.Status("MachineConfigPoolProgressInsight")
	f.Fuzz(func(t *testing.T, cvJSON, poolsJSON, answersJSON []byte, offline uint8) {
		var cv configv1.ClusterVersion
		var poolStatuses []insightsv1alpha1.MachineConfigPoolProgressInsightStatus
		var answers []Answer
		if json.Unmarshal(cvJSON, &cv) != nil || json.Unmarshal(poolsJSON, &poolStatuses) != nil || json.Unmarshal(answersJSON, &answers) != nil {
			return
		}
		var pools []*insightsv1alpha1.MachineConfigPoolProgressInsight
		for _, s := range poolStatuses {
			if len(poolInsight.Validate(s)) > 0 {
				return
			}
			p := &insightsv1alpha1.MachineConfigPoolProgressInsight{Status: s}
			p.Name = s.Name
			pools = append(pools, p)
		}
		for i := range answers {
			a := &answers[i]
			// The informers controller says why an informer is offline in
			// a reason and a bounded message.
			a.Offline = offlineReasons[int(offline)%len(offlineReasons)]
			if len(a.Problem) > 1024 {
				return
			}
			one := insightsv1alpha1.UpdateStatusStatus{WorkerPools: []insightsv1alpha1.WorkerPoolUpdateStatus{{
				Resource:  insightsv1alpha1.ResourceRef{Group: "machineconfiguration.openshift.io", Resource: "machineconfigpools", Name: "worker"},
				Informers: []insightsv1alpha1.InformerInsights{{Name: a.Informer, Insights: a.Insights}},
			}}}
			if len(updateStatus.Validate(one)) > 0 {
				return
			}
		}
		in := Input{ClusterVersion: &cv, Pools: pools, NodePools: map[string]string{"worker-0": "worker"}, Answers: answers, Now: now}
		status := Compute(in)
		if errs := updateStatus.Validate(status); len(errs) > 0 {
			t.Fatalf("the API would refuse the status: %v", errs.ToAggregate())
		}
		previous := status.DeepCopy()
		in.Previous = previous
		if again := Compute(in); !cmp.Equal(status, again) {
			t.Errorf("computed again (-first +second):\n%s", cmp.Diff(status, again))
		}
	})
}
