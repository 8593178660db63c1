package updatestatus

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/internal/apivalidation"
	"github.com/update-insights/update-insights-operator/pkg/olm"
)

func TestShares(t *testing.T) {
	testCases := []struct {
		name  string
		sizes map[string]int
		total int
		want  map[string]int
	}{
		{
			name:  "all fit",
			sizes: map[string]int{BuiltinInformer: 100, "a": 200, "b": 300},
			total: 1000,
			want:  map[string]int{BuiltinInformer: 100, "a": 200, "b": 300},
		},
		{
			// What the small one leaves of its equal share goes to the
			// larger ones, equally.
			name:  "max-min fair",
			sizes: map[string]int{"small": 100, "large": 5000, "larger": 9000},
			total: 1000,
			want:  map[string]int{"small": 100, "large": 450, "larger": 450},
		},
		{
			// The operator's own come first, together at most half.
			name:  "the operator's own first, up to half",
			sizes: map[string]int{BuiltinInformer: 400, olm.Informer: 400, "a": 5000},
			total: 1000,
			want:  map[string]int{BuiltinInformer: 400, olm.Informer: 100, "a": 500},
		},
		{
			name:  "the operator's own alone",
			sizes: map[string]int{BuiltinInformer: 5000},
			total: 1000,
			want:  map[string]int{BuiltinInformer: 500},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Shares(tc.sizes, tc.total)); diff != "" {
				t.Errorf("Shares (-want +got):\n%s", diff)
			}
		})
	}
}

func poolInsight(uid string, level insightsv1alpha1.UpdateInsightLevel, description int) insightsv1alpha1.UpdateInsight {
	i := insight(uid, insightsv1alpha1.ScopeTypeWorkerPool, level)
	i.Scope.WorkerPool = []insightsv1alpha1.InsightResource{{Group: "machineconfiguration.openshift.io", Kind: "MachineConfigPool", Name: "worker"}}
	i.Impact.Description = strings.Repeat("d", description)
	return i
}

// An informer that sends 500 worker-pool insights of 4,096-character
// descriptions, within every bound of one insight, is cut to its share:
// its least serious insights go first, the others' stay whole, and the
// cut is counted.
func TestAnInformerOverItsShareIsCut(t *testing.T) {
	var flood []insightsv1alpha1.UpdateInsight
	for i := range 500 {
		flood = append(flood, poolInsight(fmt.Sprintf("flood-%03d", i), insightsv1alpha1.InfoInsightLevel, 4096))
	}
	flood = append(flood, poolInsight("serious", insightsv1alpha1.ErrorInsightLevel, 4096))
	got := Aggregate(Input{
		ClusterVersion: clusterVersion("4.16.1", configv1.PartialUpdate, "4.16.1"),
		Pools:          []*insightsv1alpha1.MachineConfigPoolProgressInsight{pool("worker", 3, 1, nodes.PoolReasonProgressing)},
		Answers: []Answer{
			{Informer: "flood", Insights: flood},
			{Informer: "good", Insights: []insightsv1alpha1.UpdateInsight{insight("a", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.WarningInsightLevel)}},
			{Informer: BuiltinInformer, Insights: []insightsv1alpha1.UpdateInsight{insight("own", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.StatusInsightLevel)}},
		},
		Now: now,
	})
	if errs := apivalidation.Status("UpdateStatus").Validate(got.Status); len(errs) > 0 {
		t.Fatalf("the API would refuse the status: %v", errs.ToAggregate())
	}
	if size := JSONSize(got.Status); size > MaxInsightsBytes+64<<10 {
		t.Errorf("the status is %d bytes of JSON, want about %d at most", size, MaxInsightsBytes)
	}
	kept := got.Status.WorkerPools[0].Informers[0]
	if kept.Name != "flood" || len(kept.Insights) == 0 || len(kept.Insights) >= len(flood) || kept.Insights[0].UID != "serious" {
		t.Errorf("the flood keeps %d insights, the first %q; want some cut, the error kept first", len(kept.Insights), kept.Insights[0].UID)
	}
	if diff := cmp.Diff([]string{"a"}, uids(got.Status.ControlPlane.Informers, "good")); diff != "" {
		t.Errorf("the good informer's insights (-want +got):\n%s", diff)
	}
	note := got.Notes["flood"]
	want := fmt.Sprintf("%d of 501 insights cut to keep UpdateStatus within its size budget", 501-len(kept.Insights))
	if !strings.HasPrefix(note, want) {
		t.Errorf("the flood's note is %q, want it to start with %q", note, want)
	}
	complete := meta.FindStatusCondition(got.Status.Conditions, ConditionInsightsComplete)
	if complete == nil || complete.Status != metav1.ConditionFalse || !strings.Contains(complete.Message, "flood: "+want) {
		t.Errorf("InsightsComplete %+v, want False saying %q", complete, want)
	}
	if _, ok := got.Notes["good"]; ok {
		t.Errorf("the good informer has the note %q, want none", got.Notes["good"])
	}
}

func uids(entries []insightsv1alpha1.InformerInsights, informer string) []string {
	var out []string
	for _, e := range entries {
		if e.Name == informer {
			for _, i := range e.Insights {
				out = append(out, i.UID)
			}
		}
	}
	return out
}

func names(entries []insightsv1alpha1.InformerInsights) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Name)
	}
	return out
}

// A part of UpdateStatus holds at most 32 informers: the operator's own
// first, then by their most serious insight there, then by name. Those left
// out with insights are noted; one with nothing to say there is not.
func TestAPartHoldsAtMostMaxInformers(t *testing.T) {
	answers := []Answer{
		{Informer: BuiltinInformer, Insights: []insightsv1alpha1.UpdateInsight{insight("own", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.StatusInsightLevel)}},
		{Informer: "zz-serious", Insights: []insightsv1alpha1.UpdateInsight{insight("e", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.ErrorInsightLevel)}},
		{Informer: "a-silent"},
	}
	for i := range 32 {
		answers = append(answers, Answer{Informer: fmt.Sprintf("crowd-%02d", i), Insights: []insightsv1alpha1.UpdateInsight{insight("c", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.InfoInsightLevel)}})
	}
	got := Aggregate(Input{ClusterVersion: clusterVersion("4.16.1", configv1.PartialUpdate, "4.16.1"), Answers: answers, Now: now})
	if errs := apivalidation.Status("UpdateStatus").Validate(got.Status); len(errs) > 0 {
		t.Fatalf("the API would refuse the status: %v", errs.ToAggregate())
	}
	var want []string
	for i := range 30 {
		want = append(want, fmt.Sprintf("crowd-%02d", i))
	}
	want = append(want, BuiltinInformer, "zz-serious")
	if diff := cmp.Diff(want, names(got.Status.ControlPlane.Informers)); diff != "" {
		t.Errorf("the control plane's informers (-want +got):\n%s", diff)
	}
	leftOut := "left out of the control plane with its 1 insights there: the control plane holds at most 32 informers, the operator's own first, then those with the most serious insights, then by name"
	if diff := cmp.Diff(map[string]string{"crowd-30": leftOut, "crowd-31": leftOut}, got.Notes); diff != "" {
		t.Errorf("the notes (-want +got):\n%s", diff)
	}
}

// Each shortened string is counted, on the informer and in UpdateStatus.
func TestShortenedStringsAreCounted(t *testing.T) {
	long := insight("long", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.WarningInsightLevel)
	long.Impact.Summary = strings.Repeat("é", 1000)
	longer := long
	longer.UID, longer.Impact.Description = "longer", strings.Repeat("ü", 5000)
	got := Aggregate(Input{
		ClusterVersion: clusterVersion("4.16.1", configv1.PartialUpdate, "4.16.1"),
		Answers:        []Answer{{Informer: "verbose", Insights: []insightsv1alpha1.UpdateInsight{long, longer}}},
		Now:            now,
	})
	if errs := apivalidation.Status("UpdateStatus").Validate(got.Status); len(errs) > 0 {
		t.Fatalf("the API would refuse the status: %v", errs.ToAggregate())
	}
	want := "2 summaries cut to 256 characters, 1 description cut to 4096 characters"
	if diff := cmp.Diff(map[string]string{"verbose": want}, got.Notes); diff != "" {
		t.Errorf("the notes (-want +got):\n%s", diff)
	}
	summary := got.Status.ControlPlane.Informers[0].Insights[0].Impact.Summary
	if diff := cmp.Diff(strings.Repeat("é", 255)+"…", summary); diff != "" {
		t.Errorf("the summary (-want +got):\n%s", diff)
	}
}

func TestLargest(t *testing.T) {
	entry := func(name string, n int) insightsv1alpha1.InformerInsights {
		e := insightsv1alpha1.InformerInsights{Name: name}
		for i := range n {
			e.Insights = append(e.Insights, insight(fmt.Sprint(i), insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.InfoInsightLevel))
		}
		return e
	}
	testCases := []struct {
		name    string
		entries []insightsv1alpha1.InformerInsights
		want    string
		wantOK  bool
	}{
		{name: "another's before the operator's own", entries: []insightsv1alpha1.InformerInsights{entry(BuiltinInformer, 50), entry("a", 2), entry("b", 3)}, want: "b", wantOK: true},
		{name: "the operator's own when alone", entries: []insightsv1alpha1.InformerInsights{entry(BuiltinInformer, 50), entry(olm.Informer, 60), entry("silent", 0)}, want: olm.Informer, wantOK: true},
		{name: "none with insights", entries: []insightsv1alpha1.InformerInsights{entry("silent", 0)}},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			status := &insightsv1alpha1.UpdateStatusStatus{ControlPlane: insightsv1alpha1.ControlPlaneUpdateStatus{Informers: tc.entries}}
			got, size, ok := Largest(status)
			if got != tc.want || ok != tc.wantOK || (ok && size != Size(status)[got]) {
				t.Errorf("Largest = %q, %d, %v; want %q, %v", got, size, ok, tc.want, tc.wantOK)
			}
		})
	}
}

// TestTheLargestUpdateStatus measures the largest UpdateStatus the operator
// writes, at every bound it enforces: the most worker pools the API holds
// (64), more informers than a part holds, each sending the most insights
// of the longest strings (in four-byte characters) the API takes, some of
// them offline with the longest names, and as many cuts as fill the
// conditions. Insights of a few kilobytes fill each informer's share more
// closely than the largest the API takes, of forty: what is left of a
// share is less than one insight. It prints the figure (go test -run TestTheLargestUpdateStatus
// -v ./pkg/updatestatus/) and holds it under MaxStatusBytes.
func TestTheLargestUpdateStatus(t *testing.T) {
	const pools, informers, perPart = 64, MaxInformers + 4, 8
	var poolInsights []*insightsv1alpha1.MachineConfigPoolProgressInsight
	for p := range pools {
		poolInsights = append(poolInsights, pool(fmt.Sprintf("pool-%02d-%s", p, strings.Repeat("p", 240)), 3, 1, nodes.PoolReasonProgressing))
	}
	largest := func(uid string, scope insightsv1alpha1.ScopeType, poolName string) insightsv1alpha1.UpdateInsight {
		i := insight(uid+strings.Repeat("u", 256-len(uid)), scope, insightsv1alpha1.CriticalInsightLevel)
		i.Impact.Summary = strings.Repeat("𝄞", 300)
		i.Impact.Description = strings.Repeat("𝄞", 100)
		i.Impact.Type = insightsv1alpha1.UpdateInsightImpactType(insightsv1alpha1.ApplicationAvailabilityImpactType)
		i.Remediation.Reference = "https://example.com/" + strings.Repeat("r", 2000)
		for r := range 2 {
			i.Scope.Resources = append(i.Scope.Resources, insightsv1alpha1.InsightResource{Group: strings.Repeat("g", 253), Kind: strings.Repeat("K", 63), Namespace: strings.Repeat("n", 63), Name: fmt.Sprintf("%03d", r) + strings.Repeat("n", 250)})
		}
		if scope == insightsv1alpha1.ScopeTypeWorkerPool {
			i.Scope.WorkerPool = append(i.Scope.WorkerPool, insightsv1alpha1.InsightResource{Group: "machineconfiguration.openshift.io", Kind: "MachineConfigPool", Name: poolName})
		}
		return i
	}
	var answers []Answer
	for n := range informers {
		name := fmt.Sprintf("informer-%02d-%s", n, strings.Repeat("i", 240))
		a := Answer{Informer: name}
		for i := range perPart {
			a.Insights = append(a.Insights, largest(fmt.Sprintf("cp-%d-", i), insightsv1alpha1.ScopeTypeControlPlane, ""))
			for _, p := range poolInsights {
				a.Insights = append(a.Insights, largest(fmt.Sprintf("pool-%d-", i), insightsv1alpha1.ScopeTypeWorkerPool, p.Name))
			}
		}
		if n%2 == 1 {
			a.Stale, a.Offline, a.Problem = true, insightsv1alpha1.InformerUnreachable, strings.Repeat("x", 1024)
		}
		answers = append(answers, a)
	}
	answers = append(answers, Answer{Informer: BuiltinInformer, Insights: answers[0].Insights}, Answer{Informer: olm.Informer, Insights: answers[0].Insights})
	got := Aggregate(Input{ClusterVersion: clusterVersion("4.16.1", configv1.PartialUpdate, "4.16.1"), Pools: poolInsights, Answers: answers, Now: now})
	if errs := apivalidation.Status("UpdateStatus").Validate(got.Status); len(errs) > 0 {
		t.Fatalf("the API would refuse the status: %v", errs.ToAggregate())
	}
	object := insightsv1alpha1.UpdateStatus{
		TypeMeta:   metav1.TypeMeta{APIVersion: insightsv1alpha1.SchemeGroupVersion.String(), Kind: "UpdateStatus"},
		ObjectMeta: metav1.ObjectMeta{Name: insightsv1alpha1.UpdateStatusName, UID: "6dd9d86d-d396-449d-88bb-7d50964b6892", ResourceVersion: "18446744073709551615", Generation: 1, CreationTimestamp: metav1.NewTime(now)},
		Status:     got.Status,
	}
	raw, err := json.Marshal(object)
	if err != nil {
		t.Fatal(err)
	}
	var insights int
	for _, size := range Size(&got.Status) {
		insights += size
	}
	t.Logf("the largest UpdateStatus: %d bytes of JSON (limit %d, MaxStatusBytes), of which the informers' entries %d (limit %d, MaxInsightsBytes)", len(raw), MaxStatusBytes, insights, MaxInsightsBytes)
	if len(raw) > MaxStatusBytes {
		t.Errorf("the largest UpdateStatus is %d bytes of JSON, over MaxStatusBytes (%d)", len(raw), MaxStatusBytes)
	}
	if insights > MaxInsightsBytes {
		t.Errorf("the informers' entries are %d bytes of JSON, over MaxInsightsBytes (%d)", insights, MaxInsightsBytes)
	}
}
