package updatestatus

import (
	"fmt"
	"slices"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// The protocol's bounds on what one informer contributes, so that the
// UpdateStatus stays well under the API server's object size limit.
const (
	MaxControlPlaneInsights = 128
	MaxWorkerPoolInsights   = insightsv1alpha1.InformerInsightsMaxItems
	maxSummaryLength        = insightsv1alpha1.InsightSummaryMaxLength
	maxDescriptionLength    = insightsv1alpha1.InsightDescriptionMaxLength
	// MaxUIDLength bounds an insight's uid.
	MaxUIDLength = insightsv1alpha1.InsightUIDMaxLength
)

// boundedUID is uid within MaxUIDLength: the operator's uids carry names
// (of nodes, pools, health insights, UpdateInformers) of up to 253
// characters after their prefix.
func boundedUID(uid string) string {
	return text.Bounded(uid, MaxUIDLength)
}

// The aggregator's own conditions, on the UpdateStatus.
const (
	// ConditionInsightsComplete is False when insights were cut, could not
	// be placed, or were left out of an informer's answer because the API
	// would refuse them, saying how many and whose.
	ConditionInsightsComplete = "InsightsComplete"
	// ConditionInformersAnswered is False while an informer could not be
	// heard, naming each and why: what UpdateStatus says may then be
	// incomplete or old.
	ConditionInformersAnswered = "InformersAnswered"
)

// Answer is what an informer last contributed.
type Answer struct {
	// Informer names the UpdateInformer.
	Informer string
	// Stale says its last call failed and these are from its last good one.
	Stale    bool
	Insights []insightsv1alpha1.UpdateInsight
	// Offline, when set, says why the informer could not be heard (the
	// reason of its Online=False) and Problem what went wrong: the
	// aggregator reports it as an insight of its own. Without Offline,
	// Problem says which insights of its answer were left out.
	Offline, Problem string
	// Refused says that the API server refused a status holding its
	// insights, which are left out (see Refusals).
	Refused bool
}

// Input is what the UpdateStatus is computed from.
type Input struct {
	ClusterVersion *configv1.ClusterVersion
	// Pools are the pools' insights; those of worker pools have a place in
	// the status.
	Pools []*insightsv1alpha1.MachineConfigPoolProgressInsight
	// NodePools maps a node's name to its pool's, which places an insight
	// scoped to a worker pool by the nodes it names.
	NodePools map[string]string
	Answers   []Answer
	// Previous is the status as last written, which keeps conditions'
	// transition times.
	Previous *insightsv1alpha1.UpdateStatusStatus
	Now      time.Time
}

// Compute returns the UpdateStatus' status.
func Compute(in Input) insightsv1alpha1.UpdateStatusStatus {
	return Aggregate(in).Status
}

// Aggregated is the UpdateStatus' status and, by informer, what of its
// answer was cut or left out, which its own status says too.
type Aggregated struct {
	Status insightsv1alpha1.UpdateStatusStatus
	Notes  map[string]string
}

// Aggregate computes the UpdateStatus' status: each informer's insights
// placed, bounded in count per part, the parts' informers bounded as the
// API bounds them, and the whole within the size budget (see fit).
func Aggregate(in Input) Aggregated {
	var previous insightsv1alpha1.UpdateStatusStatus
	if in.Previous != nil {
		previous = *in.Previous
	}
	pools := workerPools(in.Pools)
	var poolNames []string
	for _, pool := range pools {
		poolNames = append(poolNames, pool.Name)
	}
	placed := Place(withOfflineInformers(in).Answers, poolNames, in.NodePools)

	parts := []part{{where: "the control plane", answers: placed.Bounded(placed.ControlPlane, MaxControlPlaneInsights, "control plane")}}
	for _, pool := range pools {
		parts = append(parts, part{where: "pool " + pool.Name, answers: placed.Bounded(placed.Pools[pool.Name], MaxWorkerPoolInsights, "pool "+pool.Name)})
	}
	placed.fit(parts, insightSize, "UpdateStatus")

	controlPlaneHeld := awaitingWindow(placed.ControlPlane)
	pending, active := controlPlaneConditions(in.ClusterVersion, controlPlaneHeld)
	status := insightsv1alpha1.UpdateStatusStatus{
		ControlPlane: insightsv1alpha1.ControlPlaneUpdateStatus{
			Conditions: withTransitionTimes([]metav1.Condition{pending, active}, previous.ControlPlane.Conditions, in.Now),
			Informers:  informerInsights(parts[0].answers),
		},
	}
	for i, pool := range pools {
		held := awaitingWindow(placed.Pools[pool.Name])
		var poolPending, poolActive metav1.Condition
		if hosted.IsNodePool(pool.Status.Resource) {
			// A NodePool's update is its own: neither the control plane's
			// update nor a schedule of it holds it.
			poolPending, poolActive = nodePoolConditions(pool, held)
		} else {
			if held == nil {
				held = controlPlaneHeld
			}
			poolPending, poolActive = poolConditions(pool, pending.Status == metav1.ConditionTrue, held)
		}
		status.WorkerPools = append(status.WorkerPools, insightsv1alpha1.WorkerPoolUpdateStatus{
			Resource:   poolRef(pool),
			Conditions: withTransitionTimes([]metav1.Condition{poolPending, poolActive}, previousPool(previous, pool.Name), in.Now),
			Informers:  informerInsights(parts[1+i].answers),
		})
	}
	cut := placed.Cut
	notes := map[string]string{}
	for informer, n := range placed.Notes {
		notes[informer] = strings.Join(n, "; ")
	}
	for _, a := range in.Answers {
		if (a.Offline == "" || a.Refused) && a.Problem != "" {
			cut = append(cut, a.Informer+": "+a.Problem)
		}
		if short := placed.Shortened[a.Informer]; short != "" {
			cut = append(cut, a.Informer+": "+short)
			notes[a.Informer] = strings.Join(slices.DeleteFunc([]string{short, notes[a.Informer]}, func(s string) bool { return s == "" }), "; ")
		}
	}
	status.Conditions = withTransitionTimes([]metav1.Condition{completeness(cut), answered(in.Answers)}, previous.Conditions, in.Now)
	return Aggregated{Status: status, Notes: notes}
}

// OfflineUIDPrefix starts the UID of the built-in informer's insight about
// an informer that could not be heard.
const OfflineUIDPrefix = "informer/"

// withOfflineInformers adds to the built-in informer's answer a warning for
// each informer that could not be heard: an administrator learns that its
// insights are missing or old, not only that they are.
func withOfflineInformers(in Input) Input {
	var offline []insightsv1alpha1.UpdateInsight
	for _, a := range in.Answers {
		if a.Offline == "" {
			continue
		}
		summary := fmt.Sprintf("Update informer %s is offline (%s)", a.Informer, a.Offline)
		if a.Stale {
			summary += ": its insights are from its last good answer"
		}
		offline = append(offline, insightsv1alpha1.UpdateInsight{
			UID:    boundedUID(OfflineUIDPrefix + a.Informer),
			Scope:  insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane, Resources: []insightsv1alpha1.InsightResource{{Group: insightsv1alpha1.GroupName, Kind: "UpdateInformer", Name: a.Informer}}},
			Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.WarningInsightLevel, Type: insightsv1alpha1.UpdateInsightImpactType(insightsv1alpha1.UnknownImpactType), Summary: summary, Description: a.Problem},
		})
	}
	if len(offline) == 0 {
		return in
	}
	answers := slices.Clone(in.Answers)
	for i := range answers {
		if answers[i].Informer == BuiltinInformer {
			answers[i].Insights = append(slices.Clone(answers[i].Insights), offline...)
			in.Answers = answers
			return in
		}
	}
	in.Answers = append(answers, Answer{Informer: BuiltinInformer, Insights: offline})
	return in
}

// workerPools are the insights of the worker pools, by name.
func workerPools(pools []*insightsv1alpha1.MachineConfigPoolProgressInsight) []*insightsv1alpha1.MachineConfigPoolProgressInsight {
	workers := slices.DeleteFunc(slices.Clone(pools), func(p *insightsv1alpha1.MachineConfigPoolProgressInsight) bool {
		return p.Status.ScopeType != insightsv1alpha1.ScopeTypeWorkerPool
	})
	slices.SortFunc(workers, func(a, b *insightsv1alpha1.MachineConfigPoolProgressInsight) int {
		return strings.Compare(a.Name, b.Name)
	})
	return workers
}

// poolRef is the pool an insight is about: the NodePool its status names,
// or else the MachineConfigPool of its name.
func poolRef(pool *insightsv1alpha1.MachineConfigPoolProgressInsight) insightsv1alpha1.ResourceRef {
	if pool.Status.Resource != nil {
		return *pool.Status.Resource
	}
	return insightsv1alpha1.ResourceRef{Group: machineconfigurationv1.GroupName, Resource: "machineconfigpools", Name: pool.Name}
}

func previousPool(previous insightsv1alpha1.UpdateStatusStatus, name string) []metav1.Condition {
	for _, p := range previous.WorkerPools {
		if p.Resource.Name == name {
			return p.Conditions
		}
	}
	return nil
}

// informerInsights are answers as UpdateStatus holds them.
func informerInsights(answers []Answer) []insightsv1alpha1.InformerInsights {
	out := make([]insightsv1alpha1.InformerInsights, 0, len(answers))
	for _, a := range answers {
		out = append(out, insightsv1alpha1.InformerInsights{Name: a.Informer, Stale: a.Stale, Insights: a.Insights})
	}
	return out
}

// awaitingWindow is the first status-level Awaiting Window insight: a
// schedule that holds the update of its scope.
func awaitingWindow(answers []Answer) *insightsv1alpha1.UpdateInsight {
	for _, a := range answers {
		for i := range a.Insights {
			insight := &a.Insights[i]
			if insight.Impact.Level == insightsv1alpha1.StatusInsightLevel && insight.Impact.Type == insightsv1alpha1.AwaitingWindowImpactType {
				return insight
			}
		}
	}
	return nil
}

// answered says whether every informer was heard at its last call.
func answered(answers []Answer) metav1.Condition {
	var offline []string
	for _, a := range answers {
		if a.Offline != "" {
			offline = append(offline, fmt.Sprintf("%s (%s)", a.Informer, a.Offline))
		}
	}
	if len(offline) == 0 {
		return metav1.Condition{Type: ConditionInformersAnswered, Status: metav1.ConditionTrue, Reason: "AllAnswered", Message: "Every informer answered its last call."}
	}
	slices.Sort(offline)
	return metav1.Condition{
		Type: ConditionInformersAnswered, Status: metav1.ConditionFalse, Reason: "InformersOffline",
		Message: text.Truncate("Not heard at their last call, their insights missing or old: "+strings.Join(offline, ", ")+".", 32768),
	}
}

// completeness says whether every insight made it into the status.
func completeness(cut []string) metav1.Condition {
	if len(cut) == 0 {
		return metav1.Condition{Type: ConditionInsightsComplete, Status: metav1.ConditionTrue, Reason: "AllInsightsKept", Message: "Every informer's insights are kept."}
	}
	return metav1.Condition{
		Type: ConditionInsightsComplete, Status: metav1.ConditionFalse, Reason: "InsightsCut",
		Message: text.Truncate(strings.Join(cut, "\n"), 32768),
	}
}
