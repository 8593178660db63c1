// Package olm finds what the operators OLM installed say about a cluster
// update: for an UpdatePlan, those that would block the target release,
// wait for an administrator to approve their own update, are unhealthy
// already or are deprecated; while the cluster updates, those whose
// ClusterServiceVersion stopped succeeding. It is pure: OLM's objects and
// a clock reading in, insights in the protocol's shape out, under their
// own informer name, beside the operator's own.
package olm

import (
	"fmt"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// Informer names OLM's insights in UpdateStatus and UpdatePlans, as OLM
// names its own ClusterOperator.
const Informer = "operator-lifecycle-manager"

// Settle is how long a CSV may be out of Succeeded before it is reported.
// OLM moves a CSV through Failed and Pending on its own: a drain that
// reschedules an operator's pods makes its CSV Failed (ComponentUnhealthy)
// until the deployment is available again, and OLM retries a Failed CSV
// (Failed, Pending NeedsReinstall, Installing) and times out an install
// after 5 minutes. Twice that is past what recovers by itself.
const Settle = 10 * time.Minute

// What the API accepts of an insight.
const (
	maxUIDLength         = insightsv1alpha1.InsightUIDMaxLength
	maxSummaryLength     = insightsv1alpha1.InsightSummaryMaxLength
	maxDescriptionLength = insightsv1alpha1.InsightDescriptionMaxLength
)

// Cluster is what OLM holds: its CSVs, which may include the copies OLM
// makes in the namespaces an operator watches (they are skipped), and the
// Subscriptions and InstallPlans.
type Cluster struct {
	CSVs          []*operatorsv1alpha1.ClusterServiceVersion
	Subscriptions []*operatorsv1alpha1.Subscription
	InstallPlans  []*operatorsv1alpha1.InstallPlan
}

// installed are the CSVs that are not copies, by namespace and name.
// beingReplaced says whether OLM is replacing csv (Replacing, until its
// successor succeeds) or deleting it (Deleting, once the successor did), as
// transitionCSVState in pkg/controller/operators/olm/operator.go of
// operator-lifecycle-manager moves an old CSV. Such a CSV is on its way out
// and is not unhealthy: its successor's health is the operator's, and is
// reported as that CSV's.
func beingReplaced(csv *operatorsv1alpha1.ClusterServiceVersion) bool {
	return csv.Status.Phase == operatorsv1alpha1.CSVPhaseReplacing || csv.Status.Phase == operatorsv1alpha1.CSVPhaseDeleting
}

func (c Cluster) installed() []*operatorsv1alpha1.ClusterServiceVersion {
	var out []*operatorsv1alpha1.ClusterServiceVersion
	for _, csv := range c.CSVs {
		if !csv.IsCopied() {
			out = append(out, csv)
		}
	}
	slices.SortFunc(out, func(a, b *operatorsv1alpha1.ClusterServiceVersion) int {
		return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
	})
	return out
}

// subscriptionOf is the Subscription that installed csv, as OLM finds it
// (overrides/config.go findOwner): in the CSV's namespace, the one whose
// installed CSV it is, or else the one installing it. An old CSV OLM is
// replacing is neither once the Subscription has moved on to its
// successor; it keeps the component label OLM put on it as the
// Subscription's installed CSV, which names the Subscription's package.
func (c Cluster) subscriptionOf(csv *operatorsv1alpha1.ClusterServiceVersion) *operatorsv1alpha1.Subscription {
	var installing, labelled *operatorsv1alpha1.Subscription
	for _, s := range c.Subscriptions {
		if s.Namespace != csv.Namespace {
			continue
		}
		if s.Status.InstalledCSV == csv.Name {
			return s
		}
		if s.Status.CurrentCSV == csv.Name && installing == nil {
			installing = s
		}
		if _, ok := csv.Labels[ComponentLabel(s.Spec.Package, s.Namespace)]; ok && labelled == nil {
			labelled = s
		}
	}
	if installing != nil {
		return installing
	}
	return labelled
}

// ComponentLabelPrefix starts the label OLM puts on the components of an
// operator, its CSVs among them.
const ComponentLabelPrefix = "operators.coreos.com/"

// ComponentLabel is the key of the label OLM's adoption controller puts on
// the installed CSV of a Subscription to package in namespace
// (ReconcileSubscription in pkg/controller/operators/adoption_controller.go
// of operator-lifecycle-manager), with the value "": the operator's name
// "<package>.<namespace>", cut to 63 characters and then of its trailing
// dots, dashes and underscores (NewPackageOperator and ComponentLabelKey in
// pkg/controller/operators/decorators/operator.go). Empty when nothing is
// left, where OLM puts no label.
func ComponentLabel(pkg, namespace string) string {
	name := pkg + "." + namespace
	if len(name) > 63 {
		name = strings.TrimRight(name[:63], "._-")
	}
	if name == "" {
		return ""
	}
	return ComponentLabelPrefix + name
}

func (c Cluster) csv(namespace, name string) *operatorsv1alpha1.ClusterServiceVersion {
	for _, csv := range c.CSVs {
		if csv.Namespace == namespace && csv.Name == name && !csv.IsCopied() {
			return csv
		}
	}
	return nil
}

// waitingPlan is the InstallPlan sub points at when it waits for
// approval, else nil.
func (c Cluster) waitingPlan(sub *operatorsv1alpha1.Subscription) *operatorsv1alpha1.InstallPlan {
	if sub == nil || sub.Status.InstallPlanRef == nil {
		return nil
	}
	for _, p := range c.InstallPlans {
		if p.Namespace == sub.Namespace && p.Name == sub.Status.InstallPlanRef.Name && waitsForApproval(p) {
			return p
		}
	}
	return nil
}

// subscriptionsOn are the Subscriptions that point at plan, by name. OLM
// sets status.installPlanRef and status.installplan together
// (setIPReference in pkg/controller/operators/catalog/operator.go), so
// the first tells.
func (c Cluster) subscriptionsOn(plan *operatorsv1alpha1.InstallPlan) []*operatorsv1alpha1.Subscription {
	var out []*operatorsv1alpha1.Subscription
	for _, s := range sortedSubscriptions(c.Subscriptions) {
		if s.Namespace == plan.Namespace && s.Status.InstallPlanRef != nil && s.Status.InstallPlanRef.Name == plan.Name {
			out = append(out, s)
		}
	}
	return out
}

// waitsForApproval says whether OLM holds plan until an administrator
// approves it: a Manual plan, not approved, in the phase OLM creates a
// Manual plan in (createInstallPlan) and leaves once it is approved.
func waitsForApproval(plan *operatorsv1alpha1.InstallPlan) bool {
	return plan.Spec.Approval == operatorsv1alpha1.ApprovalManual && !plan.Spec.Approved &&
		plan.Status.Phase == operatorsv1alpha1.InstallPlanPhaseRequiresApproval
}

// approvalOf is sub's approval; unset is Automatic
// (Subscription.GetInstallPlanApproval).
func approvalOf(sub *operatorsv1alpha1.Subscription) operatorsv1alpha1.Approval {
	if sub.Spec.InstallPlanApproval == operatorsv1alpha1.ApprovalManual {
		return operatorsv1alpha1.ApprovalManual
	}
	return operatorsv1alpha1.ApprovalAutomatic
}

// notSucceededSince is when csv last left Succeeded, from its phase
// history; if the history holds no Succeeded entry, the oldest entry's
// time, and exact false when the history is full (OLM keeps 20 entries),
// so the CSV may have left Succeeded earlier still. Zero when nothing
// tells.
func notSucceededSince(csv *operatorsv1alpha1.ClusterServiceVersion) (since time.Time, exact bool) {
	history := csv.Status.Conditions
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Phase != operatorsv1alpha1.CSVPhaseSucceeded {
			continue
		}
		if i+1 < len(history) {
			return timeOf(history[i+1].LastTransitionTime), true
		}
		// The history ends Succeeded while the phase is not: the phase
		// changed without an entry, at the status' transition time.
		return timeOf(csv.Status.LastTransitionTime), true
	}
	if len(history) > 0 {
		return timeOf(history[0].LastTransitionTime), len(history) < historyLimit
	}
	return timeOf(csv.Status.LastTransitionTime), false
}

// historyLimit is how many entries of its phase history OLM keeps
// (ConditionsLengthLimit).
const historyLimit = 20

func timeOf(t *metav1.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.Time
}

// uid is an insight's uid of kind for an object: stable for as long as
// the object is, hashed when the names are too long for the API.
func uid(kind, namespace, name string) string {
	return text.Bounded(kind+"/"+namespace+"/"+name, maxUIDLength)
}

func csvResource(csv *operatorsv1alpha1.ClusterServiceVersion) insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Group: operatorsv1alpha1.GroupName, Kind: "ClusterServiceVersion", Namespace: csv.Namespace, Name: csv.Name}
}

func subscriptionResource(s *operatorsv1alpha1.Subscription) insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Group: operatorsv1alpha1.GroupName, Kind: "Subscription", Namespace: s.Namespace, Name: s.Name}
}

func installPlanResource(p *operatorsv1alpha1.InstallPlan) insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Group: operatorsv1alpha1.GroupName, Kind: "InstallPlan", Namespace: p.Namespace, Name: p.Name}
}

// finding is an insight before it is bounded as the API stores it.
type finding struct {
	uid         string
	level       insightsv1alpha1.UpdateInsightLevel
	impact      insightsv1alpha1.InsightImpactType
	resources   []insightsv1alpha1.InsightResource
	summary     string
	description string
	acquired    time.Time
}

func (f finding) insight() insightsv1alpha1.UpdateInsight {
	i := insightsv1alpha1.UpdateInsight{
		UID:   f.uid,
		Scope: insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane, Resources: f.resources},
		Impact: insightsv1alpha1.UpdateInsightImpact{
			Level:       f.level,
			Type:        insightsv1alpha1.UpdateInsightImpactType(f.impact),
			Summary:     text.OneLine(f.summary, maxSummaryLength),
			Description: text.Truncate(f.description, maxDescriptionLength),
		},
	}
	if !f.acquired.IsZero() {
		acquired := metav1.NewTime(f.acquired.Truncate(time.Second))
		i.AcquisitionTime = &acquired
	}
	return i
}

// operatorName is how an insight names the operator of csv: its display
// name and version when it has them, with the CSV's namespace and name.
func operatorName(csv *operatorsv1alpha1.ClusterServiceVersion) string {
	name := csv.Spec.DisplayName
	if name == "" {
		return fmt.Sprintf("%s/%s", csv.Namespace, csv.Name)
	}
	if csv.Spec.Version != "" {
		name += " " + csv.Spec.Version
	}
	return fmt.Sprintf("%s (%s/%s)", name, csv.Namespace, csv.Name)
}

// state describes csv's phase, reason and message, and what OLM last
// found of its requirements that is not met.
func state(csv *operatorsv1alpha1.ClusterServiceVersion) string {
	var b strings.Builder
	phase := string(csv.Status.Phase)
	if phase == "" {
		phase = "without a phase"
	}
	fmt.Fprintf(&b, "Phase %s", phase)
	if csv.Status.Reason != "" {
		fmt.Fprintf(&b, " (%s)", csv.Status.Reason)
	}
	if csv.Status.Message != "" {
		fmt.Fprintf(&b, ": %s", csv.Status.Message)
	}
	if !strings.HasSuffix(b.String(), ".") {
		b.WriteString(".")
	}
	for _, r := range unmet(csv) {
		fmt.Fprintf(&b, "\nRequirement not met: %s", r)
	}
	return b.String()
}

// unmet are the CSV's requirements OLM found missing or unsatisfied.
func unmet(csv *operatorsv1alpha1.ClusterServiceVersion) []string {
	var out []string
	for _, r := range csv.Status.RequirementStatus {
		name := r.Kind + " " + r.Name
		// OLM writes Present of a met requirement, and DeploymentFound
		// of an owned APIService whose deployment exists
		// (olm/requirements.go).
		if r.Status != "Present" && r.Status != "DeploymentFound" {
			line := fmt.Sprintf("%s is %s", name, r.Status)
			if r.Message != "" {
				line += ": " + r.Message
			}
			out = append(out, line)
		}
		for _, d := range r.Dependents {
			if d.Status != "Satisfied" {
				out = append(out, fmt.Sprintf("%s needs %s %s: %s", name, d.Kind, d.Status, d.Message))
			}
		}
	}
	return out
}

func sortedPlans(plans []*operatorsv1alpha1.InstallPlan) []*operatorsv1alpha1.InstallPlan {
	out := slices.Clone(plans)
	slices.SortFunc(out, func(a, b *operatorsv1alpha1.InstallPlan) int {
		return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
	})
	return out
}

func sortedSubscriptions(subs []*operatorsv1alpha1.Subscription) []*operatorsv1alpha1.Subscription {
	out := slices.Clone(subs)
	slices.SortFunc(out, func(a, b *operatorsv1alpha1.Subscription) int {
		return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
	})
	return out
}
