package updateplan

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/apivalidation"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// largestFinding is a finding as large as the API allows, scoped to a
// pool when pool is not empty.
func largestFinding(uid, pool string) insightsv1alpha1.UpdateInsight {
	i := finding(uid+strings.Repeat("u", 256-len(uid)), insightsv1alpha1.CriticalInsightLevel)
	i.Impact.Summary = strings.Repeat("𝄞", 256)
	i.Impact.Description = strings.Repeat("𝄞", 4096)
	i.Remediation.Reference = "https://example.com/" + strings.Repeat("r", 2000)
	for r := range 4 {
		i.Scope.Resources = append(i.Scope.Resources, insightsv1alpha1.InsightResource{Group: strings.Repeat("g", 253), Kind: strings.Repeat("K", 63), Namespace: strings.Repeat("n", 63), Name: fmt.Sprintf("%03d", r) + strings.Repeat("n", 250)})
	}
	if pool != "" {
		i.Scope.Type = insightsv1alpha1.ScopeTypeWorkerPool
		i.Scope.WorkerPool = []insightsv1alpha1.InsightResource{{Group: "machineconfiguration.openshift.io", Kind: "MachineConfigPool", Name: pool}}
	}
	return i
}

// The largest UpdatePlan the operator writes, whatever its informers send:
// more informers than a part holds, each with more findings than a part
// holds, each as large as the API allows. Its size is held under
// updatestatus.MaxStatusBytes, the informers' entries under
// MaxInsightsBytes, and what is cut keeps the plan from being accepted.
func TestTheLargestUpdatePlan(t *testing.T) {
	// Few informers fill their shares with whole findings; many leave
	// part of theirs unused.
	for _, informers := range []int{1, 3, updatestatus.MaxInformers + 4} {
		t.Run(fmt.Sprintf("%d informers", informers), func(t *testing.T) { largestUpdatePlan(t, informers) })
	}
}

func largestUpdatePlan(t *testing.T, informers int) {
	var pools []string
	for p := range 8 {
		pools = append(pools, fmt.Sprintf("pool-%02d-%s", p, strings.Repeat("p", 240)))
	}
	var answers []updatestatus.Answer
	for n := range informers {
		a := updatestatus.Answer{Informer: fmt.Sprintf("informer-%02d-%s", n, strings.Repeat("i", 240))}
		for i := range updatestatus.MaxControlPlaneInsights + 1 {
			a.Insights = append(a.Insights, largestFinding(fmt.Sprintf("cp-%d-", i), ""))
		}
		for _, p := range pools {
			for i := range 16 {
				a.Insights = append(a.Insights, largestFinding(fmt.Sprintf("pool-%d-", i), p))
			}
		}
		answers = append(answers, a)
	}
	answers = append(answers, updatestatus.Answer{Informer: updatestatus.BuiltinInformer, Insights: answers[0].Insights})
	got := Evaluate(Input{Plan: plan(), Answers: answers, Pools: pools, EvaluatedAt: now, Observed: strings.Repeat("r", 64), Now: now})
	if errs := apivalidation.Status("UpdatePlan").Validate(got.Status); len(errs) > 0 {
		t.Fatalf("the API would refuse the status: %v", errs.ToAggregate())
	}
	object := insightsv1alpha1.UpdatePlan{
		TypeMeta:   metav1.TypeMeta{APIVersion: insightsv1alpha1.SchemeGroupVersion.String(), Kind: "UpdatePlan"},
		ObjectMeta: metav1.ObjectMeta{Name: "4.17.2", UID: "6dd9d86d-d396-449d-88bb-7d50964b6892", ResourceVersion: "18446744073709551615", Generation: 1, CreationTimestamp: metav1.NewTime(now)},
		Spec:       plan().Spec,
		Status:     got.Status,
	}
	raw, err := json.Marshal(object)
	if err != nil {
		t.Fatal(err)
	}
	var entries int
	for _, informer := range Informers(&got.Status) {
		entries += updatestatus.JSONSize(informer) + 1
	}
	t.Logf("the largest UpdatePlan: %d bytes of JSON (limit %d, MaxStatusBytes), of which the informers' entries %d (limit %d, MaxInsightsBytes)", len(raw), updatestatus.MaxStatusBytes, entries, updatestatus.MaxInsightsBytes)
	if len(raw) > updatestatus.MaxStatusBytes {
		t.Errorf("the largest UpdatePlan is %d bytes of JSON, over MaxStatusBytes (%d)", len(raw), updatestatus.MaxStatusBytes)
	}
	if entries > updatestatus.MaxInsightsBytes {
		t.Errorf("the informers' entries are %d bytes of JSON, over MaxInsightsBytes (%d)", entries, updatestatus.MaxInsightsBytes)
	}
	if c := meta.FindStatusCondition(got.Status.Conditions, ConditionAccepted); c == nil || c.Reason != ReasonInsightsCut {
		t.Errorf("Accepted %+v, want %s", c, ReasonInsightsCut)
	}
}

// An informer over its share of the plan's size budget is cut to it, and
// noted; the informer beside it keeps every finding.
func TestAnInformerOverItsShareOfThePlanIsCut(t *testing.T) {
	var flood []insightsv1alpha1.UpdateInsight
	for i := range 500 {
		f := finding(fmt.Sprintf("flood-%03d", i), insightsv1alpha1.WarningInsightLevel, insightsv1alpha1.InsightResource{Kind: "Node", Name: "worker-0"})
		f.Impact.Description = strings.Repeat("d", 4096)
		flood = append(flood, f)
	}
	got := Evaluate(Input{Plan: plan(), Answers: []updatestatus.Answer{
		{Informer: "flood", Insights: flood},
		{Informer: "good", Insights: []insightsv1alpha1.UpdateInsight{finding("g", insightsv1alpha1.WarningInsightLevel)}},
	}, Expected: []string{"flood", "good"}, Pools: []string{"worker"}, NodePools: map[string]string{"worker-0": "worker"}, EvaluatedAt: now, Now: now})
	kept := map[string]int{}
	for _, informer := range Informers(&got.Status) {
		kept[informer.Name] += len(informer.Insights)
	}
	if kept["good"] != 1 || kept["flood"] == 0 || kept["flood"] >= 500 {
		t.Errorf("kept %v findings, want good's one and some of flood's 500", kept)
	}
	if !strings.Contains(got.Notes["flood"], "insights cut to keep the plan within its size budget") {
		t.Errorf("flood's note %q does not say it was cut for size", got.Notes["flood"])
	}
	if c := meta.FindStatusCondition(got.Status.Conditions, ConditionAccepted); c == nil || c.Reason != ReasonInsightsCut || !strings.Contains(c.Message, "flood: ") {
		t.Errorf("Accepted %+v, want %s naming flood", c, ReasonInsightsCut)
	}
	if raw, _ := json.Marshal(got.Status); len(raw) > updatestatus.MaxStatusBytes {
		t.Errorf("the plan's status is %d bytes", len(raw))
	}
}
