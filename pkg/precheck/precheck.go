// Package precheck finds what might go wrong if the cluster updated to a
// release: the operator's own findings for an UpdatePlan, before the
// informers' are added. Each check is a function of what the cluster looks
// like now; the package reads no cluster and no clock: inputs in, findings
// out, in the protocol's insight shape so that they sit beside the
// informers' and are accepted the same way.
package precheck

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"time"

	apiserverv1 "github.com/openshift/api/apiserver/v1"
	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// What the UpdatePlan API accepts of a finding.
const (
	maxSummaryLength = insightsv1alpha1.InsightSummaryMaxLength
	// maxUIDLength bounds a finding's uid, which names PodDisruptionBudgets,
	// alerts, nodes, operators and pools: names any user may make long.
	maxUIDLength         = insightsv1alpha1.InsightUIDMaxLength
	maxDescriptionLength = insightsv1alpha1.InsightDescriptionMaxLength
	maxReferenceLength   = insightsv1alpha1.RemediationReferenceMaxLength
	// maxResources bounds a finding's resources: a budget may cover pods on
	// hundreds of nodes, and the first few say enough.
	maxResources = 16
)

// Input is what the checks look at.
type Input struct {
	// ClusterVersion is the cluster's; nil when it has none.
	ClusterVersion *configv1.ClusterVersion
	// Target is the version the plan is for.
	Target string
	// Topology is how the control plane runs; the zero value is
	// hosted.Standalone's checks.
	Topology         hosted.Topology
	ClusterOperators []*configv1.ClusterOperator
	Nodes            []*corev1.Node
	Pools            []*machineconfigurationv1.MachineConfigPool
	// MachineOSConfigs and MachineOSBuilds are those of the image-mode
	// pools (pkg/assessment/imagemode), whose update waits on an OS image
	// build; none where the cluster does not serve them, and then no pool
	// is image-mode.
	MachineOSConfigs []*machineconfigurationv1.MachineOSConfig
	MachineOSBuilds  []*machineconfigurationv1.MachineOSBuild
	// Budgets are the cluster's PodDisruptionBudgets, each that may refuse
	// an eviction on its own (drain.MayRefuse) with the pods it selects
	// (drain.Selector). The caller reads the pods of those budgets only: a
	// cluster's pods are too many to cache for a pre-check. The other
	// budgets count where they select one of those pods too.
	Budgets []Budget
	// Alerts are those firing and pending; AlertsUnreadable says why they
	// were not read (no address to read them from, or the read failed), and
	// then Alerts is not looked at.
	Alerts           []alerts.Alert
	AlertsUnreadable error
	// AdminGates and AdminAcks are the ConfigMaps
	// openshift-config-managed/admin-gates and openshift-config/admin-acks,
	// nil when missing. APIRequestCounts are the cluster's requests by
	// resource, and CloudCredential the cloud-credential operator's
	// configuration (nil when missing); each Unreadable says why they could
	// not be read (the cluster does not serve their API), and then they are
	// not looked at.
	AdminGates, AdminAcks      *corev1.ConfigMap
	APIRequestCounts           []*apiserverv1.APIRequestCount
	APIRequestCountsUnreadable error
	CloudCredential            *operatorv1.CloudCredential
	CloudCredentialUnreadable  error
	// BuiltinsUnchecked are the findings, each worded by its informer, of
	// the built-in informers whose findings could not be made (OLM's, on a
	// cluster that serves OLM's API); none when they were made, or when the
	// cluster does not serve what they read and there is nothing to check.
	BuiltinsUnchecked []insightsv1alpha1.UpdateInsight
	// PerNode is how long a node of a pool takes to update, by pool name,
	// as the node controller learned it; a pool without an entry takes
	// nodes.DefaultPerNodeTime.
	PerNode map[string]time.Duration
	// PerNodeP90 is, for a pool whose PerNode is the median of its nodes
	// in the last recorded update (nodes.PerNodeTimes.Learned), their 90th
	// percentile then: the estimate is a range.
	PerNodeP90 map[string]time.Duration
	// Now is when the findings are made: their acquisition time.
	Now time.Time

	// membership is worked out from Nodes and Pools at the first check
	// that needs it, and so are the budgets that hold up a drain and the
	// image-mode state of each pool.
	membership *members
	blocked    *[]blockedBudget
	imagePools map[string]*imagePool
}

// Budget is a PodDisruptionBudget and, when it may refuse an eviction, the
// pods it selects.
type Budget struct {
	PodDisruptionBudget *policyv1.PodDisruptionBudget
	Pods                []*corev1.Pod
}

// check is one pre-check: the findings it makes of the input.
type check func(in *Input) []insightsv1alpha1.UpdateInsight

// checks are every pre-check, in the order their findings are listed.
var checks = []check{
	clusterVersionMissing,
	clusterFailing,
	updateInProgress,
	notUpgradeable,
	notOffered,
	adminGates,
	removedAPIs,
	manualCloudCredentials,
	clusterOperators,
	disruptionBudgets,
	nodeProblems,
	pausedPools,
	imageBuilds,
	firingAlerts,
	builtinsUnchecked,
	duration,
}

// hostedChecks are the pre-checks of a hosted control plane. Its update
// moves the control plane only: no node is drained or rebooted by it, and
// there are no MachineConfigPools, so the checks of the pools' nodes and
// budgets do not apply; what the NodePools are told instead is nodePools'.
var hostedChecks = []check{
	clusterVersionMissing,
	clusterFailing,
	updateInProgress,
	notUpgradeable,
	notOffered,
	adminGates,
	removedAPIs,
	manualCloudCredentials,
	clusterOperators,
	nodePools,
	firingAlerts,
	builtinsUnchecked,
	hostedDuration,
}

// Run returns the findings of every check of the cluster's topology.
func Run(in Input) []insightsv1alpha1.UpdateInsight {
	all := checks
	if in.Topology == hosted.Hosted {
		all = hostedChecks
	}
	var out []insightsv1alpha1.UpdateInsight
	for _, c := range all {
		out = append(out, c(&in)...)
	}
	return out
}

// finding is a finding as the API stores it: strings bounded, the
// reference dropped when it is not a URL the API accepts.
type finding struct {
	uid         string
	level       insightsv1alpha1.UpdateInsightLevel
	impact      insightsv1alpha1.InsightImpactType
	scope       insightsv1alpha1.UpdateInsightScope
	summary     string
	description string
	reference   string
}

var referencePattern = regexp.MustCompile(`^https?://[^\s]+$`)

func (f finding) insight(now time.Time) insightsv1alpha1.UpdateInsight {
	acquired := metav1.NewTime(now.Truncate(time.Second))
	i := insightsv1alpha1.UpdateInsight{
		UID:             text.Bounded(f.uid, maxUIDLength),
		AcquisitionTime: &acquired,
		Scope:           f.scope,
		Impact: insightsv1alpha1.UpdateInsightImpact{
			Level:       f.level,
			Type:        insightsv1alpha1.UpdateInsightImpactType(f.impact),
			Summary:     text.OneLine(f.summary, maxSummaryLength),
			Description: text.Truncate(f.description, maxDescriptionLength),
		},
	}
	if len(f.reference) <= maxReferenceLength && referencePattern.MatchString(f.reference) {
		i.Remediation.Reference = f.reference
	}
	return i
}

// controlPlane is the scope of a finding about the cluster as a whole or
// its control plane, naming these resources.
func controlPlane(resources ...insightsv1alpha1.InsightResource) insightsv1alpha1.UpdateInsightScope {
	return insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane, Resources: resources}
}

// clusterOperatorResource names the ClusterOperator of a component, which
// reports what a check that could not run is about.
func clusterOperatorResource(name string) insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Group: configv1.GroupName, Kind: "ClusterOperator", Name: name}
}

func clusterVersionResource() insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Group: configv1.GroupName, Kind: "ClusterVersion", Name: "version"}
}

// shortHash names what has no short name of its own (an alert's label
// set) in a finding's uid, stably.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}
