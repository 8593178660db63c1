package metrics

import (
	"cmp"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/component-base/metrics"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	problems "github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// The fleet metrics are what a hub (Red Hat ACM's observability) federates
// from every managed cluster: a fixed set of series per cluster, whatever
// its number of nodes, operators or insights, so that a fleet of thousands
// of clusters stays cheap. Every label value is one of the closed sets
// below, each iterated at scrape time so that every series is always
// present, at zero when nothing counts; only the series documented as
// absent ever are.

// The fleet metrics' names.
const (
	ControlPlaneAssessmentMetric         = "update_insights_control_plane_assessment"
	ControlPlaneCompletionRatioMetric    = "update_insights_control_plane_completion_ratio"
	ControlPlaneEstimatedRemainingMetric = "update_insights_control_plane_estimated_remaining_seconds"
	PoolCompletionRatioMetric            = "update_insights_pool_completion_ratio"
	PoolNodesMetric                      = "update_insights_pool_nodes"
	HealthInsightsMetric                 = "update_insights_health_insights"
	InformersOfflineMetric               = "update_insights_informers_offline"
	PlanFindingsMetric                   = "update_insights_plan_findings"
	PlanAnsweredMetric                   = "update_insights_plan_answered"
	PlanReadyMetric                      = "update_insights_plan_ready"
	ConfigRolloutInProgressMetric        = "update_insights_config_rollout_in_progress"
	NodesDrainHeldMetric                 = "update_insights_nodes_drain_held"
	DrainHeldLongestMetric               = "update_insights_drain_held_longest_seconds"
	LastUpdateControlPlaneDurationMetric = "update_insights_last_update_control_plane_duration_seconds"
	LastUpdateStallMetric                = "update_insights_last_update_stall_seconds"
	LastUpdateEstimateLateMetric         = "update_insights_last_update_estimate_late_seconds"
)

// FleetMetricNames are the metrics meant for the fleet: those of the fleet
// collector, and the control plane's completion ratio and the health
// insights by level, which the update collector serves.
var FleetMetricNames = []string{
	ControlPlaneAssessmentMetric,
	ControlPlaneCompletionRatioMetric,
	ControlPlaneEstimatedRemainingMetric,
	PoolCompletionRatioMetric,
	PoolNodesMetric,
	HealthInsightsMetric,
	InformersOfflineMetric,
	PlanFindingsMetric,
	PlanAnsweredMetric,
	PlanReadyMetric,
	ConfigRolloutInProgressMetric,
	NodesDrainHeldMetric,
	DrainHeldLongestMetric,
	LastUpdateControlPlaneDurationMetric,
	LastUpdateStallMetric,
	LastUpdateEstimateLateMetric,
}

// The control plane's assessments, the API's: Slow is its ProgressingSlow.
const (
	AssessmentProgressing = string(insightsv1alpha1.ClusterVersionAssessmentProgressing)
	AssessmentCompleted   = string(insightsv1alpha1.ClusterVersionAssessmentCompleted)
	AssessmentSlow        = "Slow"
	AssessmentStalled     = string(insightsv1alpha1.ClusterVersionAssessmentStalled)
	AssessmentUnknown     = string(insightsv1alpha1.ClusterVersionAssessmentUnknown)
)

// The kinds of pools: the control plane's, the default worker pool, and
// every other pool together; on a cluster whose control plane is hosted,
// every HyperShift NodePool together, whatever its name (a NodePool may be
// named worker).
const (
	PoolMaster   = names.MasterPool
	PoolWorker   = names.WorkerPool
	PoolCustom   = "custom"
	PoolNodePool = "nodepool"
)

// The phases nodes are counted in: the phases `status` reads from a node
// insight's Updating reason (Completed reads Updated), and Degraded, which
// counts a node whose Degraded condition is True instead of its phase.
const (
	PhasePending   = "Pending"
	PhaseDraining  = "Draining"
	PhaseUpdating  = "Updating"
	PhaseRebooting = "Rebooting"
	PhasePaused    = "Paused"
	PhaseUpdated   = "Updated"
	PhaseDegraded  = statusview.NodeDegraded
)

// The label values, each set declared once: the collector iterates them, and
// FleetLabelValues says them.
var (
	FleetAssessments = []string{AssessmentProgressing, AssessmentCompleted, AssessmentSlow, AssessmentStalled, AssessmentUnknown}
	FleetPoolKinds   = []string{PoolMaster, PoolWorker, PoolCustom}
	// FleetNodePoolKinds are the pool kinds of a cluster whose control
	// plane is hosted, which has no MachineConfigPool: its series take the
	// place of FleetPoolKinds' there.
	FleetNodePoolKinds = []string{PoolNodePool}
	FleetNodePhases    = []string{PhasePending, PhaseDraining, PhaseUpdating, PhaseRebooting, PhasePaused, PhaseUpdated, PhaseDegraded}
	// FleetHealthLevels are those of update_insights_health_insights.
	FleetHealthLevels = healthLevelValues()
	// FleetFindingLevels are the levels of the findings that need
	// acceptance; a status-level finding needs none.
	FleetFindingLevels = []string{FindingCritical, FindingError, FindingWarning, FindingInfo}
	FleetAccepted      = []string{"true", "false"}
	// FleetEstimatePercents are the control plane completions an
	// UpdateRecord keeps an estimate at.
	FleetEstimatePercents = []string{"25", "50", "75"}
)

// The levels of a plan's findings, as status prints the protocol's.
const (
	FindingCritical = "Critical"
	FindingError    = "Error"
	FindingWarning  = "Warning"
	FindingInfo     = "Info"
)

// FleetLabelValues are every value each label of each fleet metric can
// take, by metric and label name. A metric without labels has an empty map.
var FleetLabelValues = map[string]map[string][]string{
	ControlPlaneAssessmentMetric:         {"assessment": FleetAssessments},
	ControlPlaneCompletionRatioMetric:    {},
	ControlPlaneEstimatedRemainingMetric: {},
	PoolCompletionRatioMetric:            {"pool": slices.Concat(FleetPoolKinds, FleetNodePoolKinds)},
	PoolNodesMetric:                      {"pool": slices.Concat(FleetPoolKinds, FleetNodePoolKinds), "phase": FleetNodePhases},
	HealthInsightsMetric:                 {"level": FleetHealthLevels},
	InformersOfflineMetric:               {},
	PlanFindingsMetric:                   {"level": FleetFindingLevels, "accepted": FleetAccepted},
	PlanAnsweredMetric:                   {},
	PlanReadyMetric:                      {},
	ConfigRolloutInProgressMetric:        {},
	NodesDrainHeldMetric:                 {},
	DrainHeldLongestMetric:               {},
	LastUpdateControlPlaneDurationMetric: {},
	LastUpdateStallMetric:                {},
	LastUpdateEstimateLateMetric:         {"percent": FleetEstimatePercents},
}

// ACMReservedLabel says whether Red Hat ACM's metrics collector sets or
// drops a label of that name on what it federates to the hub, which would
// overwrite or lose a fleet metric's label of that name there.
func ACMReservedLabel(name string) bool {
	switch name {
	case "cluster", "clusterID", "clusterType", "id":
		return true
	}
	return strings.HasPrefix(name, "managed_cluster") || strings.HasPrefix(name, "prometheus")
}

func healthLevelValues() []string {
	out := make([]string, 0, len(impactLevels))
	for _, l := range impactLevels {
		out = append(out, string(l))
	}
	return out
}

// findingLevels are the fleet's levels of the protocol's levels that need
// acceptance.
var findingLevels = map[insightsv1alpha1.UpdateInsightLevel]string{
	insightsv1alpha1.CriticalInsightLevel: FindingCritical,
	insightsv1alpha1.ErrorInsightLevel:    FindingError,
	insightsv1alpha1.WarningInsightLevel:  FindingWarning,
	insightsv1alpha1.InfoInsightLevel:     FindingInfo,
}

var (
	assessmentDesc = metrics.NewDesc(ControlPlaneAssessmentMetric,
		"The control plane update's assessment, one-hot: 1 for the current one, 0 for the others. Slow is past its estimated completion, Stalled over 10 minutes past it; Unknown without a ClusterVersion insight.",
		[]string{"assessment"}, nil, metrics.ALPHA, "")
	estimatedRemainingDesc = metrics.NewDesc(ControlPlaneEstimatedRemainingMetric,
		"Seconds until the control plane update in progress is expected to complete, 0 once past the estimate; absent when no update is in progress or it has no estimate.",
		nil, nil, metrics.ALPHA, "")
	poolCompletionDesc = metrics.NewDesc(PoolCompletionRatioMetric,
		"Share (0 to 1) of the nodes of the pools of a kind (master, worker, custom for every other pool) that are updated; absent for a kind with no pool that has nodes.",
		[]string{"pool"}, nil, metrics.ALPHA, "")
	poolNodesDesc = metrics.NewDesc(PoolNodesMetric,
		"Number of nodes of the pools of a kind by update phase; a degraded node counts as Degraded instead of its phase, one whose phase is unknown in none.",
		[]string{"pool", "phase"}, nil, metrics.ALPHA, "")
	informersOfflineDesc = metrics.NewDesc(InformersOfflineMetric,
		"Number of UpdateInformers not heard at their last call, whose insights are missing or old.",
		nil, nil, metrics.ALPHA, "")
	planFindingsDesc = metrics.NewDesc(PlanFindingsMetric,
		"Number of findings of the newest UpdatePlan that need acceptance, by level and whether they are accepted.",
		[]string{"level", "accepted"}, nil, metrics.ALPHA, "")
	planAnsweredDesc = metrics.NewDesc(PlanAnsweredMetric,
		"1 when the newest UpdatePlan answers its latest evaluation request and every informer that handles plans answered, 0 otherwise; absent without a plan.",
		nil, nil, metrics.ALPHA, "")
	planReadyDesc = metrics.NewDesc(PlanReadyMetric,
		"1 when the newest UpdatePlan is answered and every finding that needs it is accepted, 0 otherwise (without a plan too).",
		nil, nil, metrics.ALPHA, "")
	configRolloutDesc = metrics.NewDesc(ConfigRolloutInProgressMetric,
		"1 when a pool rolls out a new configuration while no update is in progress (the control plane update Completed), 0 otherwise.",
		nil, nil, metrics.ALPHA, "")
	nodesDrainHeldDesc = metrics.NewDesc(NodesDrainHeldMetric,
		"Number of nodes whose drain a pod holds, as the health insights about pods holding a drain say (one per pod, once it has held the drain past the machine-config controller's first attempt), each node once; 0 when none.",
		nil, nil, metrics.ALPHA, "")
	drainHeldLongestDesc = metrics.NewDesc(DrainHeldLongestMetric,
		"Seconds from the earliest startedAt of the health insights about pods holding a drain to the scrape: how long the longest-held drain has been held; 0 when no drain is held.",
		nil, nil, metrics.ALPHA, "")
)

// FleetListers are the caches the fleet collector reads.
type FleetListers struct {
	ClusterVersions insightslisters.ClusterVersionProgressInsightLister
	Pools           insightslisters.MachineConfigPoolProgressInsightLister
	Nodes           insightslisters.NodeProgressInsightLister
	Health          insightslisters.UpdateHealthInsightLister
	UpdateStatuses  insightslisters.UpdateStatusLister
	UpdatePlans     insightslisters.UpdatePlanLister
	UpdateRecords   insightslisters.UpdateRecordLister
}

// fleetCollector reads the insights at scrape time, as updateCollector does.
type fleetCollector struct {
	metrics.BaseStableCollector

	listers FleetListers
	// poolKinds are the pool kinds whose series are reported: those of
	// the cluster's topology.
	poolKinds []string
	clock     clock.PassiveClock
}

// NewFleetCollector returns the collector of the fleet metrics but the two
// the update collector serves, on a cluster of the topology given.
func NewFleetCollector(listers FleetListers, topology hosted.Topology, clock clock.PassiveClock) metrics.StableCollector {
	kinds := FleetPoolKinds
	if topology == hosted.Hosted {
		kinds = FleetNodePoolKinds
	}
	return &fleetCollector{listers: listers, poolKinds: kinds, clock: clock}
}

func (c *fleetCollector) DescribeWithStability(ch chan<- *metrics.Desc) {
	ch <- assessmentDesc
	ch <- estimatedRemainingDesc
	ch <- poolCompletionDesc
	ch <- poolNodesDesc
	ch <- informersOfflineDesc
	ch <- planFindingsDesc
	ch <- planAnsweredDesc
	ch <- planReadyDesc
	ch <- configRolloutDesc
	ch <- nodesDrainHeldDesc
	ch <- drainHeldLongestDesc
	ch <- lastUpdateDurationDesc
	ch <- lastUpdateStallDesc
	ch <- lastUpdateEstimateLateDesc
}

func (c *fleetCollector) CollectWithStability(ch chan<- metrics.Metric) {
	assessment := c.collectControlPlane(ch)
	rollingOut := c.collectPools(ch)
	ch <- metrics.NewLazyConstMetric(configRolloutDesc, metrics.GaugeValue, boolValue(assessment == AssessmentCompleted && rollingOut))
	c.collectInformers(ch)
	c.collectPlan(ch)
	c.collectDrainsHeld(ch)
	c.collectLastUpdate(ch)
}

// collectControlPlane reports the assessment and the time remaining, and
// returns the assessment.
func (c *fleetCollector) collectControlPlane(ch chan<- metrics.Metric) string {
	assessment := AssessmentUnknown
	insight, err := c.listers.ClusterVersions.Get(names.ClusterVersion)
	switch {
	case apierrors.IsNotFound(err):
	case err != nil:
		klog.ErrorS(err, "Reporting the control plane's assessment as Unknown", "clusterVersionProgressInsight", names.ClusterVersion)
	default:
		assessment = fleetAssessment(insight.Status.Assessment)
		if assessment != AssessmentCompleted && assessment != AssessmentUnknown && insight.Status.EstimatedCompletedAt != nil {
			remaining := max(0, insight.Status.EstimatedCompletedAt.Sub(c.clock.Now()).Seconds())
			ch <- metrics.NewLazyConstMetric(estimatedRemainingDesc, metrics.GaugeValue, remaining)
		}
	}
	for _, a := range FleetAssessments {
		ch <- metrics.NewLazyConstMetric(assessmentDesc, metrics.GaugeValue, boolValue(a == assessment), a)
	}
	return assessment
}

// fleetAssessment is the fleet's word for the API's assessment: Slow for
// ProgressingSlow, Stalled for Degraded (which earlier versions wrote where
// `status` says Stalled), and Unknown for one this version does not know.
func fleetAssessment(api insightsv1alpha1.ClusterVersionAssessment) string {
	switch api {
	case insightsv1alpha1.ClusterVersionAssessmentProgressing, insightsv1alpha1.ClusterVersionAssessmentCompleted,
		insightsv1alpha1.ClusterVersionAssessmentStalled:
		return string(api)
	case insightsv1alpha1.ClusterVersionAssessmentProgressingSlow:
		return AssessmentSlow
	case insightsv1alpha1.ClusterVersionAssessmentDegraded:
		return AssessmentStalled
	}
	return AssessmentUnknown
}

// poolKind is the kind of a pool: a NodePool by its resource, a
// MachineConfigPool by its name.
func poolKind(pool poolKey) string {
	if pool.nodePool {
		return PoolNodePool
	}
	switch pool.name {
	case names.MasterPool, names.WorkerPool:
		return pool.name
	}
	return PoolCustom
}

// poolKey tells a pool: a NodePool and a MachineConfigPool of the same name
// are two.
type poolKey struct {
	nodePool bool
	name     string
}

// poolNodes counts one pool's nodes: total and updated for its completion,
// by phase for the fleet.
type poolNodes struct {
	total, updated int64
	phases         map[string]int
}

// collectPools reports the nodes by pool kind and phase and each kind's
// completion, and says whether a pool rolls out a new configuration.
func (c *fleetCollector) collectPools(ch chan<- metrics.Metric) bool {
	byPool := map[poolKey]*poolNodes{}
	pool := func(key poolKey) *poolNodes {
		if byPool[key] == nil {
			byPool[key] = &poolNodes{phases: map[string]int{}}
		}
		return byPool[key]
	}

	nodes, err := c.listers.Nodes.List(labels.Everything())
	if err != nil {
		klog.ErrorS(err, "Reporting no node in the pool metrics")
		nodes = nil
	}
	for _, n := range nodes {
		p := pool(poolKey{nodePool: hosted.IsNodePool(&n.Status.PoolResource), name: n.Status.PoolResource.Name})
		node := statusview.NodeOf(&n.Status)
		p.total++
		if node.Phase == PhaseUpdated {
			p.updated++
		}
		// As status counts them: a degraded node is Degraded whatever its
		// phase, and one of an unknown phase is in no phase.
		switch {
		case node.Assessment == statusview.NodeDegraded:
			p.phases[PhaseDegraded]++
		case node.Phase != statusview.NodeUnknown:
			p.phases[node.Phase]++
		}
	}

	rollingOut := false
	pools, err := c.listers.Pools.List(labels.Everything())
	if err != nil {
		klog.ErrorS(err, "Reporting the pools' completion from their nodes only")
		pools = nil
	}
	for _, mcp := range pools {
		s := &mcp.Status
		if updating := meta.FindStatusCondition(s.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightUpdating); updating != nil &&
			updating.Status == metav1.ConditionFalse && updating.Reason == insightsv1alpha1.MachineConfigPoolRollingOutConfiguration {
			rollingOut = true
		}
		// As status does, a pool's summaries, when it has any, count its
		// nodes rather than its node insights.
		if len(s.Summaries) == 0 {
			continue
		}
		p := pool(poolKey{nodePool: hosted.IsNodePool(s.Resource), name: cmp.Or(s.Name, mcp.Name)})
		var total, outdated int64
		for _, summary := range s.Summaries {
			switch summary.Type {
			case insightsv1alpha1.NodesTotal:
				total = int64(summary.Count)
			case insightsv1alpha1.NodesOutdated:
				outdated = int64(summary.Count)
			}
		}
		p.total = max(0, total)
		p.updated = min(p.total, max(0, total-outdated))
	}

	type kindNodes struct {
		total, updated int64
		phases         map[string]int
	}
	kinds := map[string]*kindNodes{}
	for key, p := range byPool {
		kind := poolKind(key)
		k := kinds[kind]
		if k == nil {
			k = &kindNodes{phases: map[string]int{}}
			kinds[kind] = k
		}
		k.total += p.total
		k.updated += p.updated
		for phase, n := range p.phases {
			k.phases[phase] += n
		}
	}
	for _, kind := range c.poolKinds {
		k := kinds[kind]
		if k != nil && k.total > 0 {
			ch <- metrics.NewLazyConstMetric(poolCompletionDesc, metrics.GaugeValue, float64(k.updated)/float64(k.total), kind)
		}
		for _, phase := range FleetNodePhases {
			var n int
			if k != nil {
				n = k.phases[phase]
			}
			ch <- metrics.NewLazyConstMetric(poolNodesDesc, metrics.GaugeValue, float64(n), kind, phase)
		}
	}
	return rollingOut
}

// collectInformers reports how many informers were not heard at their last
// call: none while the UpdateStatus says every informer answered, else the
// informers the operator's own insights say are offline, at least one.
func (c *fleetCollector) collectInformers(ch chan<- metrics.Metric) {
	offline := 0
	s, err := c.listers.UpdateStatuses.Get(insightsv1alpha1.UpdateStatusName)
	switch {
	case apierrors.IsNotFound(err):
	case err != nil:
		klog.ErrorS(err, "Reporting no informer offline, not knowing", "updateStatus", insightsv1alpha1.UpdateStatusName)
	default:
		offline = offlineInformers(s)
	}
	ch <- metrics.NewLazyConstMetric(informersOfflineDesc, metrics.GaugeValue, float64(offline))
}

func offlineInformers(s *insightsv1alpha1.UpdateStatus) int {
	answered := meta.FindStatusCondition(s.Status.Conditions, updatestatus.ConditionInformersAnswered)
	if answered == nil || answered.Status != metav1.ConditionFalse {
		return 0
	}
	// The condition names them in a message that may be cut short; the
	// operator's own informer reports each as an insight of its own, as
	// status reads them.
	offline := map[string]bool{}
	for _, informer := range s.Status.ControlPlane.Informers {
		if informer.Name != updatestatus.BuiltinInformer {
			continue
		}
		for _, i := range informer.Insights {
			if strings.HasPrefix(i.UID, updatestatus.OfflineUIDPrefix) {
				offline[i.UID] = true
			}
		}
	}
	return max(1, len(offline))
}

// collectDrainsHeld reports how many nodes have a drain held, and for how
// long the longest has been, from the node controller's health insights
// about the pods that hold them (one per pod, so a node held by several
// pods counts once). A drain is held since its insight's startedAt, when
// the pod began to hold it; an insight without one counts its node but no
// time. The node and pod names stay out of the labels: they are no closed
// set.
func (c *fleetCollector) collectDrainsHeld(ch chan<- metrics.Metric) {
	insights, err := c.listers.Health.List(labels.Everything())
	if err != nil {
		klog.ErrorS(err, "Reporting no drain held")
		insights = nil
	}
	held := map[string]bool{}
	var oldest time.Time
	for _, h := range insights {
		node, _, _, ok := problems.DrainHeld(h.Status.Scope.Resources)
		if !ok {
			continue
		}
		held[node] = true
		if started := h.Status.StartedAt.Time; !started.IsZero() && (oldest.IsZero() || started.Before(oldest)) {
			oldest = started
		}
	}
	var longest float64
	if !oldest.IsZero() {
		longest = max(0, c.clock.Since(oldest).Seconds())
	}
	ch <- metrics.NewLazyConstMetric(nodesDrainHeldDesc, metrics.GaugeValue, float64(len(held)))
	ch <- metrics.NewLazyConstMetric(drainHeldLongestDesc, metrics.GaugeValue, longest)
}

// collectPlan reports the newest plan's findings, and whether it is
// answered and ready.
func (c *fleetCollector) collectPlan(ch chan<- metrics.Metric) {
	plans, err := c.listers.UpdatePlans.List(labels.Everything())
	if err != nil {
		klog.ErrorS(err, "Reporting no UpdatePlan")
		plans = nil
	}
	plan := newestPlan(plans)

	counts := map[string]map[bool]int{}
	answered, ready := false, false
	if plan != nil {
		for _, informer := range updateplan.Informers(&plan.Status) {
			for _, i := range informer.Insights {
				level, ok := findingLevels[i.Impact.Level]
				if !ok || !updateplan.NeedsAcceptance(i.Impact.Level) {
					continue
				}
				if counts[level] == nil {
					counts[level] = map[bool]int{}
				}
				counts[level][i.Accepted]++
			}
		}
		answered = plan.Status.ObservedEvaluationRequest == plan.Spec.EvaluationRequest &&
			meta.IsStatusConditionTrue(plan.Status.Conditions, updateplan.ConditionAnswered)
		ready = answered && meta.IsStatusConditionTrue(plan.Status.Conditions, updateplan.ConditionAccepted)
		ch <- metrics.NewLazyConstMetric(planAnsweredDesc, metrics.GaugeValue, boolValue(answered))
	}
	for _, level := range FleetFindingLevels {
		for _, accepted := range FleetAccepted {
			ch <- metrics.NewLazyConstMetric(planFindingsDesc, metrics.GaugeValue, float64(counts[level][accepted == "true"]), level, accepted)
		}
	}
	ch <- metrics.NewLazyConstMetric(planReadyDesc, metrics.GaugeValue, boolValue(ready))
}

// newestPlan is the plan created last, of those created in the same second
// the last by name; nil without any.
func newestPlan(plans []*insightsv1alpha1.UpdatePlan) *insightsv1alpha1.UpdatePlan {
	var newest *insightsv1alpha1.UpdatePlan
	for _, p := range plans {
		if newest == nil {
			newest = p
			continue
		}
		if c := p.CreationTimestamp.Compare(newest.CreationTimestamp.Time); c > 0 || c == 0 && p.Name > newest.Name {
			newest = p
		}
	}
	return newest
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
