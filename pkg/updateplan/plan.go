// Package updateplan computes an UpdatePlan's status from the findings of
// the operator's pre-checks and of the informers that handle plans: placed
// where their scopes say and bounded as UpdateStatus' insights are, each
// with its identity and whether the plan's spec accepts it, and conditions
// that say whether every informer answered and every finding is accepted.
// It is pure: answers and a clock reading in, a status out.
package updateplan

import (
	"fmt"
	"iter"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/text"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// ReasonPruned is the reason of the Event that says why the operator
// deleted a plan: `pre-checks` reads it when a plan it waits for is gone.
const ReasonPruned = "UpdatePlanPruned"

// OneOffTTL is how long a one-off check's plan (labelled
// insightsv1alpha1.OneOffCheckLabel) is kept when no one touches it:
// pre-checks deletes it within its --timeout, so one still there after an
// hour is left by a command that was killed.
const OneOffTTL = time.Hour

// The plan's conditions and their reasons.
const (
	ConditionAnswered = "Answered"
	ConditionAccepted = "Accepted"

	ReasonAllAnswered         = "AllAnswered"
	ReasonWaitingForInformers = "WaitingForInformers"
	ReasonInformersOffline    = "InformersOffline"
	ReasonAllAccepted         = "AllAccepted"
	ReasonNothingToAccept     = "NothingToAccept"
	ReasonNotAccepted         = "FindingsNotAccepted"
	// ReasonInsightsCut says the plan could not hold every finding: those
	// cut cannot be accepted, so the plan cannot be fully accepted.
	ReasonInsightsCut = "FindingsCut"

	// maxListed is how many unaccepted identities a condition message names.
	maxListed        = 20
	maxMessageLength = 32768
)

// Input is what a plan's status is computed from.
type Input struct {
	Plan *insightsv1alpha1.UpdatePlan
	// Answers are each informer's findings: the operator's own (the
	// built-in informer's) and those of the informers that handle plans,
	// with Offline set for an informer that could not be heard.
	Answers []updatestatus.Answer
	// Expected are the informers that handle plans: the plan is answered
	// once each has an answer, or is offline.
	Expected []string
	// Pools are the worker pools, by name; NodePools maps a node's name to
	// its pool's. On a hosted control plane (Topology hosted.Hosted) they
	// are HyperShift NodePools, else MachineConfigPools.
	Pools     []string
	NodePools map[string]string
	Topology  hosted.Topology
	// EvaluatedAt is when the findings were made; Observed the spec's
	// evaluationRequest they answer.
	EvaluatedAt time.Time
	Observed    string
	Now         time.Time
}

// Compute returns the plan's status.
func Compute(in Input) insightsv1alpha1.UpdatePlanStatus {
	return Evaluate(in).Status
}

// Evaluated is a plan's status and, by informer, what of its answer the
// plan left out or shortened, which the informer's own status says too.
type Evaluated struct {
	Status insightsv1alpha1.UpdatePlanStatus
	Notes  map[string]string
}

// Evaluate computes the plan's status. A finding left out of the plan (one
// the API would refuse, one over the count or size bounds, or one of an
// answer the API server refused) keeps the plan from being accepted, and
// the Accepted condition says what was left out; a summary or description
// shortened does not, as the finding is there to read and accept, and is
// only counted in the notes.
func Evaluate(in Input) Evaluated {
	accepted, acquired := acceptedIdentities(in.Plan), acquisitionTimes(in.Plan)
	placed := updatestatus.Place(withUnanswered(in), in.Pools, in.NodePools)
	evaluated := metav1.NewTime(in.EvaluatedAt.Truncate(time.Second))
	parts := []updatestatus.Part{{Where: "the control plane", Answers: placed.Bounded(placed.ControlPlane, updatestatus.MaxControlPlaneInsights, "control plane")}}
	var pools []string
	for _, pool := range slices.Sorted(slices.Values(in.Pools)) {
		if answers := placed.Pools[pool]; len(answers) > 0 {
			pools = append(pools, pool)
			parts = append(parts, updatestatus.Part{Where: "pool " + pool, Answers: placed.Bounded(answers, updatestatus.MaxWorkerPoolInsights, "pool "+pool)})
		}
	}
	parts = placed.Fit(parts, findingSize, "the plan")
	status := insightsv1alpha1.UpdatePlanStatus{
		ObservedEvaluationRequest: in.Observed,
		EvaluatedAt:               &evaluated,
		ControlPlane:              insightsv1alpha1.ControlPlanePlan{Informers: planInsights(parts[0].Answers, accepted, acquired)},
	}
	for i, pool := range pools {
		if len(parts[1+i].Answers) == 0 {
			continue
		}
		status.WorkerPools = append(status.WorkerPools, insightsv1alpha1.WorkerPoolPlan{
			Resource:  poolResource(in.Topology, pool),
			Informers: planInsights(parts[1+i].Answers, accepted, acquired),
		})
	}
	var previous []metav1.Condition
	if in.Plan != nil {
		previous = in.Plan.Status.Conditions
	}
	cut, notes := leftOut(in.Answers, placed)
	for _, c := range []metav1.Condition{answered(in), acceptance(&status, cut)} {
		if old := meta.FindStatusCondition(previous, c.Type); old != nil && old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		} else {
			c.LastTransitionTime = metav1.NewTime(in.Now.Truncate(time.Second))
		}
		c.Message = text.Truncate(c.Message, maxMessageLength)
		status.Conditions = append(status.Conditions, c)
	}
	return Evaluated{Status: status, Notes: notes}
}

// poolResource refers to a worker pool of the plan.
func poolResource(topology hosted.Topology, pool string) insightsv1alpha1.ResourceRef {
	if topology == hosted.Hosted {
		return hosted.NodePool(pool)
	}
	return insightsv1alpha1.ResourceRef{Group: "machineconfiguration.openshift.io", Resource: "machineconfigpools", Name: pool}
}

// leftOut is what the plan left out of the answers, an informer a line,
// and by informer what it left out or shortened: the findings an answer
// held that the API would refuse (its Problem, when it was heard) or that
// the API server refused, and those placing and bounding cut.
func leftOut(answers []updatestatus.Answer, placed updatestatus.Placement) ([]string, map[string]string) {
	var cut []string
	byInformer := map[string][]string{}
	for _, a := range answers {
		if (a.Offline == "" || a.Refused) && a.Problem != "" {
			cut = append(cut, a.Informer+": "+a.Problem)
			byInformer[a.Informer] = append(byInformer[a.Informer], a.Problem)
		}
	}
	cut = append(cut, placed.Cut...)
	for informer, n := range placed.Notes {
		byInformer[informer] = append(byInformer[informer], n...)
	}
	for informer, short := range placed.Shortened {
		byInformer[informer] = append(byInformer[informer], short)
	}
	notes := map[string]string{}
	for informer, n := range byInformer {
		notes[informer] = strings.Join(n, "; ")
	}
	return cut, notes
}

// findingSize is the bytes of JSON a finding takes in a plan: the insight,
// its identity and whether it is accepted, and its acquisition time, which
// the plan may add.
func findingSize(informer string, i insightsv1alpha1.UpdateInsight) int {
	if i.AcquisitionTime == nil {
		i.AcquisitionTime = &metav1.Time{Time: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)}
	}
	return updatestatus.JSONSize(insightsv1alpha1.UpdatePlanInsight{UpdateInsight: i, Identity: Identity(informer, i), Accepted: true}) + 1
}

// Largest is the informer whose findings take the most of a plan's
// status, as updatestatus.LargestOf says: the one to leave out when the
// API server refuses the plan without naming an informer.
func Largest(status *insightsv1alpha1.UpdatePlanStatus) (informer string, size int, ok bool) {
	sizes, withInsights := map[string]int{}, map[string]bool{}
	for _, entry := range Informers(status) {
		sizes[entry.Name] += updatestatus.JSONSize(entry) + 1
		withInsights[entry.Name] = withInsights[entry.Name] || len(entry.Insights) > 0
	}
	return updatestatus.LargestOf(sizes, withInsights)
}

// InformerAt names the informer at an index of status' control plane
// (pool -1) or of a worker pool, for updatestatus.RefusedInformers.
func InformerAt(status *insightsv1alpha1.UpdatePlanStatus) func(pool, informer int) (string, bool) {
	return updatestatus.IndexedInformers(status.ControlPlane.Informers, status.WorkerPools,
		func(p insightsv1alpha1.WorkerPoolPlan) []insightsv1alpha1.InformerPlanInsights { return p.Informers },
		func(i insightsv1alpha1.InformerPlanInsights) string { return i.Name })
}

// Identity is a finding's identity by the protocol: what an administrator
// accepts it by.
func Identity(informer string, i insightsv1alpha1.UpdateInsight) string {
	insight := protocol.Insight{UID: i.UID, Scope: protocol.Scope{Type: protocol.ScopeType(i.Scope.Type)}}
	for _, r := range i.Scope.Resources {
		insight.Scope.Resources = append(insight.Scope.Resources, protocol.Resource{Group: r.Group, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name})
	}
	return protocol.Identity(informer, insight)
}

// NeedsAcceptance says whether a finding must be accepted before the
// update: every finding but a status-level one, which tells how the update
// would go rather than what might go wrong.
func NeedsAcceptance(level insightsv1alpha1.UpdateInsightLevel) bool {
	return level != insightsv1alpha1.StatusInsightLevel
}

// acceptedIdentities are the identities the plan's spec accepts, by
// informer.
func acceptedIdentities(plan *insightsv1alpha1.UpdatePlan) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	if plan == nil {
		return out
	}
	for _, a := range plan.Spec.AcceptedInsights {
		if !a.Accepted {
			continue
		}
		if out[a.UpdateInformer] == nil {
			out[a.UpdateInformer] = map[string]bool{}
		}
		out[a.UpdateInformer][a.UID] = true
	}
	return out
}

// planInsights are answers as a plan holds them. A finding the plan held
// before keeps its acquisition time: it was found then, and an evaluation
// that finds it again does not make it new (nor rewrites the plan).
func planInsights(answers []updatestatus.Answer, accepted map[string]map[string]bool, acquired map[string]*metav1.Time) []insightsv1alpha1.InformerPlanInsights {
	out := make([]insightsv1alpha1.InformerPlanInsights, 0, len(answers))
	for _, a := range answers {
		p := insightsv1alpha1.InformerPlanInsights{Name: a.Informer, Stale: a.Stale}
		for _, i := range a.Insights {
			id := Identity(a.Informer, i)
			if t, ok := acquired[id]; ok {
				i.AcquisitionTime = t
			}
			p.Insights = append(p.Insights, insightsv1alpha1.UpdatePlanInsight{UpdateInsight: i, Identity: id, Accepted: accepted[a.Informer][id]})
		}
		out = append(out, p)
	}
	return out
}

// Informers yields each informer's findings a plan's status holds, with
// the name of the worker pool they are about, empty for the control plane.
func Informers(status *insightsv1alpha1.UpdatePlanStatus) iter.Seq2[string, insightsv1alpha1.InformerPlanInsights] {
	return func(yield func(string, insightsv1alpha1.InformerPlanInsights) bool) {
		for _, informer := range status.ControlPlane.Informers {
			if !yield("", informer) {
				return
			}
		}
		for _, p := range status.WorkerPools {
			for _, informer := range p.Informers {
				if !yield(p.Resource.Name, informer) {
					return
				}
			}
		}
	}
}

// acquisitionTimes are the acquisition times of the findings a plan holds,
// by identity.
func acquisitionTimes(plan *insightsv1alpha1.UpdatePlan) map[string]*metav1.Time {
	out := map[string]*metav1.Time{}
	if plan == nil {
		return out
	}
	for _, informer := range Informers(&plan.Status) {
		for _, i := range informer.Insights {
			out[i.Identity] = i.AcquisitionTime
		}
	}
	return out
}

// answered says whether every informer that handles plans answered.
func answered(in Input) metav1.Condition {
	heard := map[string]string{}
	for _, a := range in.Answers {
		heard[a.Informer] = a.Offline
	}
	var waiting, offline []string
	for _, name := range in.Expected {
		switch reason, ok := heard[name]; {
		case !ok:
			waiting = append(waiting, name)
		case reason != "":
			offline = append(offline, fmt.Sprintf("%s (%s)", name, reason))
		}
	}
	slices.Sort(waiting)
	slices.Sort(offline)
	switch {
	case len(waiting) > 0:
		return metav1.Condition{Type: ConditionAnswered, Status: metav1.ConditionFalse, Reason: ReasonWaitingForInformers,
			Message: "Waiting for the findings of " + strings.Join(waiting, ", ") + "."}
	case len(offline) > 0:
		return metav1.Condition{Type: ConditionAnswered, Status: metav1.ConditionFalse, Reason: ReasonInformersOffline,
			Message: "Could not be heard, so their findings are missing or old: " + strings.Join(offline, ", ") + "."}
	}
	return metav1.Condition{Type: ConditionAnswered, Status: metav1.ConditionTrue, Reason: ReasonAllAnswered,
		Message: fmt.Sprintf("The operator's pre-checks and every informer that handles plans (%d) answered.", len(in.Expected))}
}

// acceptance says whether every finding that needs it is accepted. A plan
// that had to cut findings is not: what was cut cannot be seen, let alone
// accepted.
func acceptance(status *insightsv1alpha1.UpdatePlanStatus, cut []string) metav1.Condition {
	var total int
	var unaccepted []string
	for _, informer := range Informers(status) {
		for _, i := range informer.Insights {
			if !NeedsAcceptance(i.Impact.Level) {
				continue
			}
			total++
			if !i.Accepted {
				unaccepted = append(unaccepted, i.Identity)
			}
		}
	}
	switch {
	case len(cut) > 0:
		return metav1.Condition{Type: ConditionAccepted, Status: metav1.ConditionFalse, Reason: ReasonInsightsCut,
			Message: "The plan could not hold every finding, so not all can be accepted: " + strings.Join(cut, "; ")}
	case len(unaccepted) > 0:
		listed := unaccepted[:min(len(unaccepted), maxListed)]
		message := notAccepted(len(unaccepted), total) + ": " + strings.Join(listed, ", ")
		if more := len(unaccepted) - len(listed); more > 0 {
			message += fmt.Sprintf(" and %d more", more)
		}
		return metav1.Condition{Type: ConditionAccepted, Status: metav1.ConditionFalse, Reason: ReasonNotAccepted, Message: message + "."}
	case total == 0:
		return metav1.Condition{Type: ConditionAccepted, Status: metav1.ConditionTrue, Reason: ReasonNothingToAccept, Message: "No finding needs accepting."}
	}
	message := fmt.Sprintf("All %d findings are accepted.", total)
	if total == 1 {
		message = "The 1 finding is accepted."
	}
	return metav1.Condition{Type: ConditionAccepted, Status: metav1.ConditionTrue, Reason: ReasonAllAccepted, Message: message}
}

// notAccepted says how many of total findings are not accepted.
func notAccepted(unaccepted, total int) string {
	switch {
	case total == 1:
		return "1 finding is not accepted"
	case unaccepted == 1:
		return fmt.Sprintf("1 of %d findings is not accepted", total)
	}
	return fmt.Sprintf("%d of %d findings are not accepted", unaccepted, total)
}
