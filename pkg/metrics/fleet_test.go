package metrics

import (
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	dto "github.com/prometheus/client_model/go"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/component-base/metrics"
	clocktesting "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// fleetInput is what the fleet collector reads; broken names the listers
// that fail instead.
type fleetInput struct {
	clusterVersions []*insightsv1alpha1.ClusterVersionProgressInsight
	pools           []*insightsv1alpha1.MachineConfigPoolProgressInsight
	nodes           []*insightsv1alpha1.NodeProgressInsight
	health          []*insightsv1alpha1.UpdateHealthInsight
	statuses        []*insightsv1alpha1.UpdateStatus
	plans           []*insightsv1alpha1.UpdatePlan
	records         []*insightsv1alpha1.UpdateRecord
	broken          bool
	// topology is the cluster's; empty for a standalone one.
	topology hosted.Topology
}

func indexer[T any](t testing.TB, objects []T) cache.Indexer {
	t.Helper()
	i := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, o := range objects {
		if err := i.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	return i
}

func (in fleetInput) listers(t testing.TB) FleetListers {
	if in.broken {
		return FleetListers{
			ClusterVersions: brokenClusterVersions{},
			Pools:           brokenPools{},
			Nodes:           brokenNodes{},
			Health:          brokenHealth{},
			UpdateStatuses:  brokenStatuses{},
			UpdatePlans:     brokenPlans{},
			UpdateRecords:   brokenRecords{},
		}
	}
	return FleetListers{
		ClusterVersions: insightslisters.NewClusterVersionProgressInsightLister(indexer(t, in.clusterVersions)),
		Pools:           insightslisters.NewMachineConfigPoolProgressInsightLister(indexer(t, in.pools)),
		Nodes:           insightslisters.NewNodeProgressInsightLister(indexer(t, in.nodes)),
		Health:          insightslisters.NewUpdateHealthInsightLister(indexer(t, in.health)),
		UpdateStatuses:  insightslisters.NewUpdateStatusLister(indexer(t, in.statuses)),
		UpdatePlans:     insightslisters.NewUpdatePlanLister(indexer(t, in.plans)),
		UpdateRecords:   insightslisters.NewUpdateRecordLister(indexer(t, in.records)),
	}
}

// collectors are the fleet collector and the update collector over the
// input, which together serve the fleet metrics.
func (in fleetInput) collectors(t testing.TB) []metrics.StableCollector {
	l := in.listers(t)
	clock := clocktesting.NewFakePassiveClock(now)
	return []metrics.StableCollector{NewFleetCollector(l, in.clusterTopology(), clock), NewUpdateCollector(l.ClusterVersions, l.Health, clock)}
}

func (in fleetInput) clusterTopology() hosted.Topology {
	if in.topology == "" {
		return hosted.Standalone
	}
	return in.topology
}

type brokenPools struct {
	insightslisters.MachineConfigPoolProgressInsightLister
}

func (brokenPools) List(labels.Selector) ([]*insightsv1alpha1.MachineConfigPoolProgressInsight, error) {
	return nil, errBroken
}

type brokenNodes struct {
	insightslisters.NodeProgressInsightLister
}

func (brokenNodes) List(labels.Selector) ([]*insightsv1alpha1.NodeProgressInsight, error) {
	return nil, errBroken
}

type brokenStatuses struct {
	insightslisters.UpdateStatusLister
}

func (brokenStatuses) Get(string) (*insightsv1alpha1.UpdateStatus, error) {
	return nil, errBroken
}

type brokenPlans struct {
	insightslisters.UpdatePlanLister
}

func (brokenPlans) List(labels.Selector) ([]*insightsv1alpha1.UpdatePlan, error) {
	return nil, errBroken
}

type brokenRecords struct {
	insightslisters.UpdateRecordLister
}

func (brokenRecords) List(labels.Selector) ([]*insightsv1alpha1.UpdateRecord, error) {
	return nil, errBroken
}

// scrape gathers the collectors into series keyed as the text exposition
// writes them, labels sorted by name.
func scrape(t testing.TB, collectors ...metrics.StableCollector) map[string]float64 {
	t.Helper()
	registry := metrics.NewKubeRegistry()
	registry.CustomMustRegister(collectors...)
	families, err := registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	return seriesOf(slices.Values(families))
}

// seriesOf are the families' series, keyed as the text exposition writes
// them.
func seriesOf(families iter.Seq[*dto.MetricFamily]) map[string]float64 {
	out := map[string]float64{}
	for f := range families {
		for _, m := range f.GetMetric() {
			out[seriesKey(f.GetName(), m.GetLabel())] = m.GetGauge().GetValue()
		}
	}
	return out
}

func seriesKey(name string, pairs []*dto.LabelPair) string {
	if len(pairs) == 0 {
		return name
	}
	var b strings.Builder
	for _, p := range slices.SortedFunc(slices.Values(pairs), func(a, b *dto.LabelPair) int { return strings.Compare(a.GetName(), b.GetName()) }) {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s=%q", p.GetName(), p.GetValue())
	}
	return name + "{" + b.String() + "}"
}

// only keeps the series of the named metrics.
func only(series map[string]float64, metricNames ...string) map[string]float64 {
	out := map[string]float64{}
	for k, v := range series {
		name, _, _ := strings.Cut(k, "{")
		if slices.Contains(metricNames, name) {
			out[k] = v
		}
	}
	return out
}

func merge(ms ...map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for _, m := range ms {
		maps.Copy(out, m)
	}
	return out
}

// Builders of the insights.

func controlPlane(assessment insightsv1alpha1.ClusterVersionAssessment, estimate *metav1.Time) *insightsv1alpha1.ClusterVersionProgressInsight {
	return clusterVersion(names.ClusterVersion, insightsv1alpha1.ClusterVersionProgressInsightStatus{
		Assessment: assessment, CompletionPercent: 42, StartedAt: at(started), EstimatedCompletedAt: estimate,
	})
}

func health(name string, scope insightsv1alpha1.ScopeType, impact insightsv1alpha1.InsightImpactType) *insightsv1alpha1.UpdateHealthInsight {
	h := healthInsight(name, insightsv1alpha1.WarningImpactLevel)
	h.Status.Scope.Type, h.Status.Impact.Type = scope, impact
	return h
}

// node is a node insight whose Updating condition has reason (True for
// the phases of a node updating), Degraded True when degraded.
func node(name, pool, reason string, degraded bool) *insightsv1alpha1.NodeProgressInsight {
	updating := metav1.ConditionFalse
	switch reason {
	case insightsv1alpha1.NodeDraining, insightsv1alpha1.NodeUpdating, insightsv1alpha1.NodeRebooting:
		updating = metav1.ConditionTrue
	}
	n := &insightsv1alpha1.NodeProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: insightsv1alpha1.NodeProgressInsightStatus{
			Name:         name,
			PoolResource: insightsv1alpha1.ResourceRef{Group: "machineconfiguration.openshift.io", Resource: "machineconfigpools", Name: pool},
			Conditions: []metav1.Condition{
				{Type: insightsv1alpha1.NodeProgressInsightUpdating, Status: updating, Reason: reason},
				{Type: insightsv1alpha1.NodeProgressInsightDegraded, Status: metav1.ConditionFalse, Reason: insightsv1alpha1.NodeAsExpected},
			},
		},
	}
	if reason == "" {
		n.Status.Conditions = n.Status.Conditions[1:]
	}
	if degraded {
		n.Status.Conditions[len(n.Status.Conditions)-1].Status = metav1.ConditionTrue
	}
	return n
}

// nodes are count node insights of a pool in one phase.
func nodes(prefix, pool, reason string, count int, degraded bool) []*insightsv1alpha1.NodeProgressInsight {
	out := make([]*insightsv1alpha1.NodeProgressInsight, 0, count)
	for i := range count {
		out = append(out, node(fmt.Sprintf("%s-%d", prefix, i), pool, reason, degraded))
	}
	return out
}

// pool is a pool insight; summaries, when any, are Total then Outdated;
// updatingReason is the reason of its Updating condition, False but for
// Progressing.
func pool(name, updatingReason string, summaries ...int32) *insightsv1alpha1.MachineConfigPoolProgressInsight {
	scope := insightsv1alpha1.ScopeTypeWorkerPool
	if name == names.MasterPool {
		scope = insightsv1alpha1.ScopeTypeControlPlane
	}
	updating := metav1.ConditionFalse
	if updatingReason == "Progressing" {
		updating = metav1.ConditionTrue
	}
	p := &insightsv1alpha1.MachineConfigPoolProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: insightsv1alpha1.MachineConfigPoolProgressInsightStatus{
			Name: name, ScopeType: scope,
			Conditions: []metav1.Condition{{Type: insightsv1alpha1.MachineConfigPoolProgressInsightUpdating, Status: updating, Reason: updatingReason}},
		},
	}
	for i, t := range []insightsv1alpha1.NodeSummaryType{insightsv1alpha1.NodesTotal, insightsv1alpha1.NodesOutdated} {
		if i < len(summaries) {
			p.Status.Summaries = append(p.Status.Summaries, insightsv1alpha1.NodeSummary{Type: t, Count: summaries[i]})
		}
	}
	return p
}

const rollingOut = insightsv1alpha1.MachineConfigPoolRollingOutConfiguration

// finding is a plan's finding at a protocol level.
type finding struct {
	level    insightsv1alpha1.UpdateInsightLevel
	accepted bool
	pool     string
}

// plan is a plan created at created whose conditions Answered and Accepted
// have those statuses, empty for none, with findings; it answers its
// evaluation request.
func plan(name string, created time.Time, answered, accepted metav1.ConditionStatus, findings ...finding) *insightsv1alpha1.UpdatePlan {
	p := &insightsv1alpha1.UpdatePlan{
		ObjectMeta: metav1.ObjectMeta{Name: name, CreationTimestamp: metav1.NewTime(created)},
		Spec:       insightsv1alpha1.UpdatePlanSpec{TargetRelease: name, EvaluationRequest: "1"},
		Status:     insightsv1alpha1.UpdatePlanStatus{ObservedEvaluationRequest: "1"},
	}
	for _, c := range []struct {
		conditionType string
		status        metav1.ConditionStatus
	}{{updateplan.ConditionAnswered, answered}, {updateplan.ConditionAccepted, accepted}} {
		if c.status != "" {
			p.Status.Conditions = append(p.Status.Conditions, metav1.Condition{Type: c.conditionType, Status: c.status, Reason: "Test"})
		}
	}
	for i, f := range findings {
		insight := insightsv1alpha1.UpdatePlanInsight{
			UpdateInsight: insightsv1alpha1.UpdateInsight{UID: fmt.Sprint(i), Impact: insightsv1alpha1.UpdateInsightImpact{Level: f.level}},
			Identity:      fmt.Sprint(i),
			Accepted:      f.accepted,
		}
		informers := &p.Status.ControlPlane.Informers
		if f.pool != "" {
			p.Status.WorkerPools = append(p.Status.WorkerPools, insightsv1alpha1.WorkerPoolPlan{Resource: insightsv1alpha1.ResourceRef{Name: f.pool}})
			informers = &p.Status.WorkerPools[len(p.Status.WorkerPools)-1].Informers
		}
		*informers = append(*informers, insightsv1alpha1.InformerPlanInsights{Name: "mco", Insights: []insightsv1alpha1.UpdatePlanInsight{insight}})
	}
	return p
}

// updateStatus is the UpdateStatus whose InformersAnswered condition has
// that status (none when empty), with the control plane's informers.
func updateStatus(answered metav1.ConditionStatus, informers ...insightsv1alpha1.InformerInsights) *insightsv1alpha1.UpdateStatus {
	s := &insightsv1alpha1.UpdateStatus{ObjectMeta: metav1.ObjectMeta{Name: insightsv1alpha1.UpdateStatusName}}
	if answered != "" {
		s.Status.Conditions = []metav1.Condition{{Type: updatestatus.ConditionInformersAnswered, Status: answered, Reason: "Test"}}
	}
	s.Status.ControlPlane.Informers = informers
	return s
}

func uids(uids ...string) []insightsv1alpha1.UpdateInsight {
	var out []insightsv1alpha1.UpdateInsight
	for _, uid := range uids {
		out = append(out, insightsv1alpha1.UpdateInsight{UID: uid, Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.WarningInsightLevel}})
	}
	return out
}

// Builders of the expected series.

// assessments are the assessment's series, 1 for current.
func assessments(current string) map[string]float64 {
	out := map[string]float64{}
	for _, a := range FleetAssessments {
		out[fmt.Sprintf("%s{assessment=%q}", ControlPlaneAssessmentMetric, a)] = boolValue(a == current)
	}
	return out
}

// poolNodeSeries are the pool_nodes series: counts by kind and phase,
// zero for the others.
func poolNodeSeries(counts map[string]map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for _, kind := range FleetPoolKinds {
		for _, phase := range FleetNodePhases {
			out[fmt.Sprintf("%s{phase=%q,pool=%q}", PoolNodesMetric, phase, kind)] = counts[kind][phase]
		}
	}
	return out
}

func poolRatios(ratios map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for kind, r := range ratios {
		out[fmt.Sprintf("%s{pool=%q}", PoolCompletionRatioMetric, kind)] = r
	}
	return out
}

// findingSeries are the plan_findings series, keyed by level then
// accepted.
func findingSeries(counts map[string]map[bool]float64) map[string]float64 {
	out := map[string]float64{}
	for _, level := range FleetFindingLevels {
		for _, accepted := range FleetAccepted {
			out[fmt.Sprintf("%s{accepted=%q,level=%q}", PlanFindingsMetric, accepted, level)] = counts[level][accepted == "true"]
		}
	}
	return out
}

func TestFleetControlPlane(t *testing.T) {
	soon, past := at(now.Add(30*time.Minute)), at(now.Add(-time.Minute))
	tests := []struct {
		name string
		in   fleetInput
		// want are the assessment, remaining and rollout series.
		want map[string]float64
	}{
		{
			name: "no insight is Unknown",
			want: merge(assessments(AssessmentUnknown), map[string]float64{ConfigRolloutInProgressMetric: 0}),
		},
		{
			name: "insight of another name is Unknown",
			in:   fleetInput{clusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{clusterVersion("other", insightsv1alpha1.ClusterVersionProgressInsightStatus{Assessment: insightsv1alpha1.ClusterVersionAssessmentCompleted})}},
			want: merge(assessments(AssessmentUnknown), map[string]float64{ConfigRolloutInProgressMetric: 0}),
		},
		{
			name: "progressing with an estimate",
			in:   fleetInput{clusterVersions: cvs(controlPlane(insightsv1alpha1.ClusterVersionAssessmentProgressing, soon))},
			want: merge(assessments(AssessmentProgressing), map[string]float64{ControlPlaneEstimatedRemainingMetric: 1800, ConfigRolloutInProgressMetric: 0}),
		},
		{
			name: "progressing past its estimate has 0 seconds left",
			in:   fleetInput{clusterVersions: cvs(controlPlane(insightsv1alpha1.ClusterVersionAssessmentProgressing, past))},
			want: merge(assessments(AssessmentProgressing), map[string]float64{ControlPlaneEstimatedRemainingMetric: 0, ConfigRolloutInProgressMetric: 0}),
		},
		{
			name: "progressing without an estimate has no remaining time",
			in:   fleetInput{clusterVersions: cvs(controlPlane(insightsv1alpha1.ClusterVersionAssessmentProgressing, nil))},
			want: merge(assessments(AssessmentProgressing), map[string]float64{ConfigRolloutInProgressMetric: 0}),
		},
		{
			name: "ProgressingSlow is Slow, 0 seconds left",
			in:   fleetInput{clusterVersions: cvs(controlPlane(insightsv1alpha1.ClusterVersionAssessmentProgressingSlow, past))},
			want: merge(assessments(AssessmentSlow), map[string]float64{ControlPlaneEstimatedRemainingMetric: 0, ConfigRolloutInProgressMetric: 0}),
		},
		{
			name: "Stalled, 0 seconds left",
			in:   fleetInput{clusterVersions: cvs(controlPlane(insightsv1alpha1.ClusterVersionAssessmentStalled, past))},
			want: merge(assessments(AssessmentStalled), map[string]float64{ControlPlaneEstimatedRemainingMetric: 0, ConfigRolloutInProgressMetric: 0}),
		},
		{
			// As oc assesses it: by the estimate, whatever the problems.
			name: "the control plane's health insights leave a Progressing update Progressing",
			in: fleetInput{
				clusterVersions: cvs(controlPlane(insightsv1alpha1.ClusterVersionAssessmentProgressing, soon)),
				health: []*insightsv1alpha1.UpdateHealthInsight{
					health("failing", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.UpdateStalledImpactType),
					health("slow", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.UpdateSpeedImpactType),
					health("api", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.APIAvailabilityImpactType),
				},
			},
			want: merge(assessments(AssessmentProgressing), map[string]float64{ControlPlaneEstimatedRemainingMetric: 1800, ConfigRolloutInProgressMetric: 0}),
		},
		{
			name: "a completed update is Completed, and has no remaining time",
			in:   fleetInput{clusterVersions: cvs(controlPlane(insightsv1alpha1.ClusterVersionAssessmentCompleted, soon))},
			want: merge(assessments(AssessmentCompleted), map[string]float64{ConfigRolloutInProgressMetric: 0}),
		},
		{
			name: "Degraded, which earlier versions wrote, is Stalled as status says it",
			in:   fleetInput{clusterVersions: cvs(controlPlane(insightsv1alpha1.ClusterVersionAssessmentDegraded, soon))},
			want: merge(assessments(AssessmentStalled), map[string]float64{ControlPlaneEstimatedRemainingMetric: 1800, ConfigRolloutInProgressMetric: 0}),
		},
		{
			name: "Unknown as the API says",
			in:   fleetInput{clusterVersions: cvs(controlPlane(insightsv1alpha1.ClusterVersionAssessmentUnknown, soon))},
			want: merge(assessments(AssessmentUnknown), map[string]float64{ConfigRolloutInProgressMetric: 0}),
		},
		{
			name: "an assessment this version does not know is Unknown",
			in:   fleetInput{clusterVersions: cvs(controlPlane("Exploding", soon))},
			want: merge(assessments(AssessmentUnknown), map[string]float64{ConfigRolloutInProgressMetric: 0}),
		},
		{
			name: "the API has no Slow: an insight saying it is Unknown",
			in:   fleetInput{clusterVersions: cvs(controlPlane(AssessmentSlow, soon))},
			want: merge(assessments(AssessmentUnknown), map[string]float64{ConfigRolloutInProgressMetric: 0}),
		},
		{
			name: "no assessment is Unknown",
			in:   fleetInput{clusterVersions: cvs(controlPlane("", soon))},
			want: merge(assessments(AssessmentUnknown), map[string]float64{ConfigRolloutInProgressMetric: 0}),
		},
		{
			name: "a pool rolling out a configuration after a completed update",
			in: fleetInput{
				clusterVersions: cvs(controlPlane(insightsv1alpha1.ClusterVersionAssessmentCompleted, nil)),
				pools:           []*insightsv1alpha1.MachineConfigPoolProgressInsight{pool("master", "Completed"), pool("worker", rollingOut)},
			},
			want: merge(assessments(AssessmentCompleted), map[string]float64{ConfigRolloutInProgressMetric: 1}),
		},
		{
			name: "a pool rolling out a configuration during an update is the update",
			in: fleetInput{
				clusterVersions: cvs(controlPlane(insightsv1alpha1.ClusterVersionAssessmentProgressing, nil)),
				pools:           []*insightsv1alpha1.MachineConfigPoolProgressInsight{pool("infra", rollingOut)},
			},
			want: merge(assessments(AssessmentProgressing), map[string]float64{ConfigRolloutInProgressMetric: 0}),
		},
		{
			name: "a pool still updating its nodes after the control plane completed is no configuration rollout",
			in: fleetInput{
				clusterVersions: cvs(controlPlane(insightsv1alpha1.ClusterVersionAssessmentCompleted, nil)),
				pools:           []*insightsv1alpha1.MachineConfigPoolProgressInsight{pool("worker", "Progressing"), pool("infra", "Paused")},
			},
			want: merge(assessments(AssessmentCompleted), map[string]float64{ConfigRolloutInProgressMetric: 0}),
		},
		{
			name: "without a control plane insight a rollout cannot be told from an update",
			in:   fleetInput{pools: []*insightsv1alpha1.MachineConfigPoolProgressInsight{pool("worker", rollingOut)}},
			want: merge(assessments(AssessmentUnknown), map[string]float64{ConfigRolloutInProgressMetric: 0}),
		},
		{
			name: "broken listers report Unknown",
			in:   fleetInput{broken: true},
			want: merge(assessments(AssessmentUnknown), map[string]float64{ConfigRolloutInProgressMetric: 0}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := only(scrape(t, tt.in.collectors(t)...), ControlPlaneAssessmentMetric, ControlPlaneEstimatedRemainingMetric, ConfigRolloutInProgressMetric)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("series (-want +got):\n%s", diff)
			}
		})
	}
}

func cvs(cv ...*insightsv1alpha1.ClusterVersionProgressInsight) []*insightsv1alpha1.ClusterVersionProgressInsight {
	return cv
}

func TestFleetPools(t *testing.T) {
	concat := func(groups ...[]*insightsv1alpha1.NodeProgressInsight) []*insightsv1alpha1.NodeProgressInsight {
		return slices.Concat(groups...)
	}
	tests := []struct {
		name string
		in   fleetInput
		want map[string]float64
	}{
		{
			name: "no pool and no node: every count zero, no ratio",
			want: poolNodeSeries(nil),
		},
		{
			name: "nodes of master, worker and two custom pools, by phase",
			in: fleetInput{nodes: concat(
				nodes("m-done", "master", insightsv1alpha1.NodeCompleted, 2, false),
				nodes("m-reboot", "master", insightsv1alpha1.NodeRebooting, 1, false),
				nodes("w-pending", "worker", insightsv1alpha1.NodePending, 3, false),
				nodes("w-drain", "worker", insightsv1alpha1.NodeDraining, 1, false),
				nodes("w-update", "worker", insightsv1alpha1.NodeUpdating, 1, false),
				nodes("w-paused", "worker", insightsv1alpha1.NodePaused, 2, false),
				nodes("w-done", "worker", insightsv1alpha1.NodeCompleted, 1, false),
				nodes("infra-done", "infra", insightsv1alpha1.NodeCompleted, 2, false),
				nodes("infra-stuck", "infra", insightsv1alpha1.NodeDraining, 1, true),
				nodes("gpu-done", "gpu", insightsv1alpha1.NodeCompleted, 1, false),
			)},
			want: merge(
				poolNodeSeries(map[string]map[string]float64{
					PoolMaster: {PhaseUpdated: 2, PhaseRebooting: 1},
					PoolWorker: {PhasePending: 3, PhaseDraining: 1, PhaseUpdating: 1, PhasePaused: 2, PhaseUpdated: 1},
					PoolCustom: {PhaseUpdated: 3, PhaseDegraded: 1},
				}),
				// custom: 3 of infra's and gpu's 4 nodes.
				poolRatios(map[string]float64{PoolMaster: 2.0 / 3, PoolWorker: 1.0 / 8, PoolCustom: 3.0 / 4}),
			),
		},
		{
			name: "a degraded node counts as Degraded but is updated when its phase says so",
			in: fleetInput{nodes: concat(
				nodes("w-done-degraded", "worker", insightsv1alpha1.NodeCompleted, 1, true),
				nodes("w-pending-degraded", "worker", insightsv1alpha1.NodePending, 1, true),
			)},
			want: merge(
				poolNodeSeries(map[string]map[string]float64{PoolWorker: {PhaseDegraded: 2}}),
				poolRatios(map[string]float64{PoolWorker: 0.5}),
			),
		},
		{
			name: "nodes of unknown phase count in no phase but in their pool's total",
			in: fleetInput{nodes: concat(
				nodes("w-cannot", "worker", insightsv1alpha1.NodeCannotDetermine, 1, false),
				nodes("w-garbage", "worker", "Exploding", 1, false),
				nodes("w-none", "worker", "", 1, false),
				nodes("w-done", "worker", insightsv1alpha1.NodeCompleted, 1, false),
			)},
			want: merge(
				poolNodeSeries(map[string]map[string]float64{PoolWorker: {PhaseUpdated: 1}}),
				poolRatios(map[string]float64{PoolWorker: 0.25}),
			),
		},
		{
			name: "pools' summaries count their nodes, as status reads them",
			in: fleetInput{
				pools: []*insightsv1alpha1.MachineConfigPoolProgressInsight{
					pool("master", "Completed", 3, 0),
					pool("worker", "Progressing", 10, 4),
					pool("infra", "Pending", 5, 5),
					pool("gpu", "Progressing", 5, 0),
				},
				nodes: concat(
					nodes("m", "master", insightsv1alpha1.NodeCompleted, 3, false),
					nodes("w", "worker", insightsv1alpha1.NodeUpdating, 2, false),
				),
			},
			want: merge(
				poolNodeSeries(map[string]map[string]float64{PoolMaster: {PhaseUpdated: 3}, PoolWorker: {PhaseUpdating: 2}}),
				poolRatios(map[string]float64{PoolMaster: 1, PoolWorker: 0.6, PoolCustom: 0.5}),
			),
		},
		{
			name: "a pool without summaries is counted from its nodes",
			in: fleetInput{
				pools: []*insightsv1alpha1.MachineConfigPoolProgressInsight{pool("worker", "Progressing")},
				nodes: concat(
					nodes("w-done", "worker", insightsv1alpha1.NodeCompleted, 1, false),
					nodes("w", "worker", insightsv1alpha1.NodeUpdating, 3, false),
				),
			},
			want: merge(
				poolNodeSeries(map[string]map[string]float64{PoolWorker: {PhaseUpdated: 1, PhaseUpdating: 3}}),
				poolRatios(map[string]float64{PoolWorker: 0.25}),
			),
		},
		{
			name: "a kind whose pools have no nodes has no ratio",
			in: fleetInput{
				pools: []*insightsv1alpha1.MachineConfigPoolProgressInsight{pool("master", "Completed", 3, 0), pool("infra", "Completed", 0, 0), pool("worker", "Completed")},
			},
			want: merge(poolNodeSeries(nil), poolRatios(map[string]float64{PoolMaster: 1})),
		},
		{
			name: "summaries out of bounds are clamped",
			in: fleetInput{
				pools: []*insightsv1alpha1.MachineConfigPoolProgressInsight{pool("worker", "Progressing", 4, 9), pool("infra", "Progressing", 4, -3)},
			},
			want: merge(poolNodeSeries(nil), poolRatios(map[string]float64{PoolWorker: 0, PoolCustom: 1})),
		},
		{
			name: "pools named neither master nor worker are custom, whatever their name",
			in: fleetInput{nodes: concat(
				nodes("a", "", insightsv1alpha1.NodeCompleted, 1, false),
				nodes("b", "Worker", insightsv1alpha1.NodePending, 1, false),
				nodes("c", "masters", insightsv1alpha1.NodePaused, 1, false),
			)},
			want: merge(
				poolNodeSeries(map[string]map[string]float64{PoolCustom: {PhaseUpdated: 1, PhasePending: 1, PhasePaused: 1}}),
				poolRatios(map[string]float64{PoolCustom: 1.0 / 3}),
			),
		},
		{
			name: "broken listers report zeros",
			in:   fleetInput{broken: true},
			want: poolNodeSeries(nil),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := only(scrape(t, tt.in.collectors(t)...), PoolNodesMetric, PoolCompletionRatioMetric)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("series (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFleetPlan(t *testing.T) {
	var (
		critical = insightsv1alpha1.CriticalInsightLevel
		errLevel = insightsv1alpha1.ErrorInsightLevel
		warning  = insightsv1alpha1.WarningInsightLevel
		info     = insightsv1alpha1.InfoInsightLevel
		status   = insightsv1alpha1.StatusInsightLevel
		yes, no  = metav1.ConditionTrue, metav1.ConditionFalse
		earlier  = started.Add(-time.Hour)
	)
	answeredNotReady := map[string]float64{PlanAnsweredMetric: 1, PlanReadyMetric: 0}
	tests := []struct {
		name string
		in   fleetInput
		want map[string]float64
	}{
		{
			name: "no plan: zero findings, not ready, no answered",
			want: merge(findingSeries(nil), map[string]float64{PlanReadyMetric: 0}),
		},
		{
			name: "findings by level and acceptance, status-level and unknown levels left out",
			in: fleetInput{plans: []*insightsv1alpha1.UpdatePlan{plan("4.16.3", started, yes, no,
				finding{level: critical, accepted: true},
				finding{level: errLevel}, finding{level: errLevel, pool: "worker"},
				finding{level: warning, accepted: true, pool: "infra"},
				finding{level: info},
				finding{level: status}, finding{level: status, accepted: true},
				finding{level: "Critical"}, finding{level: "fatal"}, finding{level: ""},
			)}},
			want: merge(findingSeries(map[string]map[bool]float64{
				"Critical": {true: 1},
				"Error":    {false: 2},
				"Warning":  {true: 1},
				"Info":     {false: 1},
			}), answeredNotReady),
		},
		{
			name: "answered with every finding accepted is ready",
			in: fleetInput{plans: []*insightsv1alpha1.UpdatePlan{plan("4.16.3", started, yes, yes,
				finding{level: warning, accepted: true}, finding{level: status})}},
			want: merge(findingSeries(map[string]map[bool]float64{"Warning": {true: 1}}), map[string]float64{PlanAnsweredMetric: 1, PlanReadyMetric: 1}),
		},
		{
			name: "accepted but not answered is not ready",
			in:   fleetInput{plans: []*insightsv1alpha1.UpdatePlan{plan("4.16.3", started, no, yes)}},
			want: merge(findingSeries(nil), map[string]float64{PlanAnsweredMetric: 0, PlanReadyMetric: 0}),
		},
		{
			name: "a plan without conditions is neither answered nor ready",
			in:   fleetInput{plans: []*insightsv1alpha1.UpdatePlan{plan("4.16.3", started, "", "")}},
			want: merge(findingSeries(nil), map[string]float64{PlanAnsweredMetric: 0, PlanReadyMetric: 0}),
		},
		{
			name: "a plan not yet evaluated again since its latest request is not answered",
			in: fleetInput{plans: []*insightsv1alpha1.UpdatePlan{func() *insightsv1alpha1.UpdatePlan {
				p := plan("4.16.3", started, yes, yes)
				p.Spec.EvaluationRequest = "2"
				return p
			}()}},
			want: merge(findingSeries(nil), map[string]float64{PlanAnsweredMetric: 0, PlanReadyMetric: 0}),
		},
		{
			name: "the newest plan is read, not the others",
			in: fleetInput{plans: []*insightsv1alpha1.UpdatePlan{
				plan("4.17.0", earlier, yes, yes, finding{level: critical, accepted: true}),
				plan("4.16.3", started, yes, no, finding{level: errLevel}),
				plan("4.16.2", earlier.Add(-time.Hour), yes, yes, finding{level: info, accepted: true}),
			}},
			want: merge(findingSeries(map[string]map[bool]float64{"Error": {false: 1}}), answeredNotReady),
		},
		{
			name: "of plans created in the same second, the last by name",
			in: fleetInput{plans: []*insightsv1alpha1.UpdatePlan{
				plan("4.16.10", started, yes, yes, finding{level: critical, accepted: true}),
				plan("4.16.9", started, yes, no, finding{level: warning}),
			}},
			want: merge(findingSeries(map[string]map[bool]float64{"Warning": {false: 1}}), answeredNotReady),
		},
		{
			name: "a broken lister is no plan",
			in:   fleetInput{broken: true},
			want: merge(findingSeries(nil), map[string]float64{PlanReadyMetric: 0}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := only(scrape(t, tt.in.collectors(t)...), PlanFindingsMetric, PlanAnsweredMetric, PlanReadyMetric)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("series (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFleetInformersOffline(t *testing.T) {
	builtin := func(insights ...insightsv1alpha1.UpdateInsight) insightsv1alpha1.InformerInsights {
		return insightsv1alpha1.InformerInsights{Name: updatestatus.BuiltinInformer, Insights: insights}
	}
	offline := func(name string) string { return updatestatus.OfflineUIDPrefix + name }
	tests := []struct {
		name string
		in   fleetInput
		want float64
	}{
		{name: "no UpdateStatus", want: 0},
		{
			name: "every informer answered",
			in:   fleetInput{statuses: []*insightsv1alpha1.UpdateStatus{updateStatus(metav1.ConditionTrue, builtin(uids("etcd-backup")...))}},
			want: 0,
		},
		{
			name: "no condition yet",
			in:   fleetInput{statuses: []*insightsv1alpha1.UpdateStatus{updateStatus("", builtin(uids(offline("mco"))...))}},
			want: 0,
		},
		{
			name: "the offline informers the operator reports, not other insights",
			in: fleetInput{statuses: []*insightsv1alpha1.UpdateStatus{updateStatus(metav1.ConditionFalse,
				builtin(uids("etcd-backup", offline("mco"), offline("olm"), offline("mco"))...),
				insightsv1alpha1.InformerInsights{Name: "mco", Stale: true, Insights: uids(offline("impostor"))},
			)}},
			want: 2,
		},
		{
			name: "offline informers whose insights were cut are at least one",
			in:   fleetInput{statuses: []*insightsv1alpha1.UpdateStatus{updateStatus(metav1.ConditionFalse, builtin(uids("etcd-backup")...))}},
			want: 1,
		},
		{
			name: "an UpdateStatus of another name is none",
			in: fleetInput{statuses: []*insightsv1alpha1.UpdateStatus{func() *insightsv1alpha1.UpdateStatus {
				s := updateStatus(metav1.ConditionFalse, builtin(uids(offline("mco"))...))
				s.Name = "other"
				return s
			}()}},
			want: 0,
		},
		{name: "a broken lister", in: fleetInput{broken: true}, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := only(scrape(t, tt.in.collectors(t)...), InformersOfflineMetric)
			if diff := cmp.Diff(map[string]float64{InformersOfflineMetric: tt.want}, got); diff != "" {
				t.Errorf("series (-want +got):\n%s", diff)
			}
		})
	}
}
