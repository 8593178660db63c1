package hostedview_test

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// now is the clock every fixture is read at.
var now = time.Date(2026, 12, 2, 13, 0, 0, 0, time.UTC)

func ago(d time.Duration) *metav1.Time {
	t := metav1.NewTime(now.Add(-d))
	return &t
}

func in(d time.Duration) *metav1.Time { return ago(-d) }

func int32p(i int32) *int32 { return &i }

// The upstream messages the fixtures quote, in one place so that they can
// follow what the controllers come to write.
var (
	// drainStarted is when the held machine's drain started.
	drainStarted = ago(12 * time.Minute)
	// drainMessage is the message of the Machine's v1beta2 Deleting
	// condition, reason DrainingNode, while a budget refuses an eviction:
	// cluster-api core/reconcilers/machine/drain/drain.go
	// EvictionResult.ConditionMessage, quoting the API server's eviction
	// refusal and its cause (kubernetes pkg/registry/core/pod/storage/eviction.go).
	drainMessage = "Drain not completed yet (started at " + drainStarted.UTC().Format(time.RFC3339) + "):\n" +
		"* Pod ledger/api-0: cannot evict pod as it would violate the pod's disruption budget. The disruption budget api needs 2 healthy pods and has 2 currently"
	// drainProblem is what the NodePool insight says of the held drain.
	drainProblem = insightsv1alpha1.HostedProblem{
		Level:   insightsv1alpha1.WarningImpactLevel,
		Reason:  "DrainingNode",
		Message: "Machine workers-a-x7k2p has not drained its node for 12m: the PodDisruptionBudget ledger/api allows no disruption of pod ledger/api-0.",
		Since:   drainStarted,
	}
	// upgradeableProblem is the control plane's problem while HyperShift
	// refuses a minor update (hostedcluster_controller.go isUpgrading:
	// "cluster version is not upgradeable"), the guest's Upgradeable
	// condition as the cluster-version operator writes it for an admin
	// gate.
	upgradeableProblem = insightsv1alpha1.HostedProblem{
		Level:  insightsv1alpha1.ErrorImpactLevel,
		Reason: "ClusterVersionUpgradeable",
		Message: "HyperShift does not start the minor update to quay.io/openshift-release-dev/ocp-release:4.18.2-x86_64 while the guest cluster is not upgradeable: " +
			"ClusterVersionUpgradeable is False (reason AdminAckRequired): Kubernetes 1.31 and therefore OpenShift 4.18 remove several APIs which require admin consideration. " +
			"Resolve what it says in the guest cluster; patch updates are not held. To update anyway, accepting the risk, set the annotation " +
			"hypershift.openshift.io/force-upgrade-to=quay.io/openshift-release-dev/ocp-release:4.18.2-x86_64.",
		Since: ago(40 * time.Minute),
	}
	// noVersionStatus is the Updating condition of a HostedCluster that
	// does not say what its control plane runs.
	noVersionStatus = metav1.Condition{
		Type:    insightsv1alpha1.HostedProgressInsightUpdating,
		Status:  metav1.ConditionUnknown,
		Reason:  "NoVersionStatus",
		Message: "The HostedCluster has no status.version yet: HyperShift has not reported what the control plane runs",
	}
)

func hostedCluster(name string, status insightsv1alpha1.HostedClusterProgressInsightStatus) insightsv1alpha1.HostedClusterProgressInsight {
	return insightsv1alpha1.HostedClusterProgressInsight{
		TypeMeta:   metav1.TypeMeta{APIVersion: insightsv1alpha1.SchemeGroupVersion.String(), Kind: "HostedClusterProgressInsight"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "clusters", Name: name},
		Status:     status,
	}
}

func nodePool(cluster, name string, status insightsv1alpha1.NodePoolProgressInsightStatus) insightsv1alpha1.NodePoolProgressInsight {
	status.HostedCluster = cluster
	return insightsv1alpha1.NodePoolProgressInsight{
		TypeMeta:   metav1.TypeMeta{APIVersion: insightsv1alpha1.SchemeGroupVersion.String(), Kind: "NodePoolProgressInsight"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "clusters", Name: name},
		Status:     status,
	}
}

func versions(previous, target string) insightsv1alpha1.ControlPlaneUpdateVersions {
	v := insightsv1alpha1.ControlPlaneUpdateVersions{Target: insightsv1alpha1.Version{Version: target}}
	if previous != "" {
		v.Previous = &insightsv1alpha1.Version{Version: previous}
	}
	return v
}

// completed is a patch update that completed, control plane and NodePool.
func completed() ([]insightsv1alpha1.HostedClusterProgressInsight, []insightsv1alpha1.NodePoolProgressInsight) {
	return []insightsv1alpha1.HostedClusterProgressInsight{hostedCluster("payments", insightsv1alpha1.HostedClusterProgressInsightStatus{
			Assessment:        insightsv1alpha1.HostedClusterAssessmentCompleted,
			Versions:          versions("4.17.8", "4.17.9"),
			CompletionPercent: 100,
			StartedAt:         ago(3 * time.Hour),
			CompletedAt:       ago(2*time.Hour + 14*time.Minute),
			NodePools:         insightsv1alpha1.NodePoolsSummary{Total: 1, Updated: 1},
		})}, []insightsv1alpha1.NodePoolProgressInsight{nodePool("payments", "payments-workers", insightsv1alpha1.NodePoolProgressInsightStatus{
			UpgradeType:       insightsv1alpha1.NodePoolUpgradeReplace,
			Assessment:        insightsv1alpha1.PoolCompleted,
			Versions:          insightsv1alpha1.NodePoolVersions{Current: "4.17.9", Target: "4.17.9"},
			CompletionPercent: 100,
			Machines:          insightsv1alpha1.MachinesSummary{Desired: 3, Updated: 3, Source: insightsv1alpha1.MachinesFromNodesInfo},
			MinorsBehind:      int32p(0),
		})}
}

// midUpdate is a patch update whose control plane is past half way, and
// whose Replace NodePool has 3 of 7 machines new, one old one's drain held
// by a budget.
func midUpdate() ([]insightsv1alpha1.HostedClusterProgressInsight, []insightsv1alpha1.NodePoolProgressInsight) {
	return []insightsv1alpha1.HostedClusterProgressInsight{hostedCluster("ledger", insightsv1alpha1.HostedClusterProgressInsightStatus{
			Assessment:           insightsv1alpha1.HostedClusterAssessmentProgressing,
			Versions:             versions("4.17.8", "4.17.9"),
			CompletionPercent:    62,
			StartedAt:            ago(34 * time.Minute),
			EstimatedCompletedAt: in(20 * time.Minute),
			NodePools:            insightsv1alpha1.NodePoolsSummary{Total: 1, Updating: 1},
		})}, []insightsv1alpha1.NodePoolProgressInsight{nodePool("ledger", "workers-a", insightsv1alpha1.NodePoolProgressInsightStatus{
			UpgradeType:       insightsv1alpha1.NodePoolUpgradeReplace,
			Assessment:        insightsv1alpha1.PoolProgressing,
			Versions:          insightsv1alpha1.NodePoolVersions{Current: "4.17.8", Target: "4.17.9"},
			CompletionPercent: 42,
			Machines:          insightsv1alpha1.MachinesSummary{Desired: 7, Updated: 3, Source: insightsv1alpha1.MachinesFromMachines},
			HoldingMachine: &insightsv1alpha1.HoldingMachine{
				Name:    "workers-a-x7k2p",
				Node:    "ip-10-0-141-23.ec2.internal",
				Reason:  "DrainingNode",
				Message: drainMessage,
				Since:   drainStarted,
			},
			MinorsBehind:         int32p(0),
			StartedAt:            ago(25 * time.Minute),
			EstimatedCompletedAt: in(41 * time.Minute),
			Problems:             []insightsv1alpha1.HostedProblem{drainProblem},
		})}
}

// blocked is a minor update HyperShift refuses to start while the guest
// is not upgradeable, beside an InPlace NodePool that rolls out the patch
// release its control plane runs, counted by the in-place upgrader.
func blocked() ([]insightsv1alpha1.HostedClusterProgressInsight, []insightsv1alpha1.NodePoolProgressInsight) {
	return []insightsv1alpha1.HostedClusterProgressInsight{hostedCluster("billing", insightsv1alpha1.HostedClusterProgressInsightStatus{
			// pkg/assessment/hostedclusters assessVersion: a refused
			// release has no target version or start yet, the control
			// plane's completed version its previous.
			Assessment: insightsv1alpha1.HostedClusterAssessmentBlocked,
			Versions:   insightsv1alpha1.ControlPlaneUpdateVersions{Previous: &insightsv1alpha1.Version{Version: "4.17.9"}},
			NodePools:  insightsv1alpha1.NodePoolsSummary{Total: 1, Updating: 1},
			Problems:   []insightsv1alpha1.HostedProblem{upgradeableProblem},
		})}, []insightsv1alpha1.NodePoolProgressInsight{nodePool("billing", "billing-inplace", insightsv1alpha1.NodePoolProgressInsightStatus{
			UpgradeType:          insightsv1alpha1.NodePoolUpgradeInPlace,
			Assessment:           insightsv1alpha1.PoolProgressing,
			Versions:             insightsv1alpha1.NodePoolVersions{Current: "4.17.8", Target: "4.17.9"},
			CompletionPercent:    33,
			Machines:             insightsv1alpha1.MachinesSummary{Desired: 3, Updated: 1, Source: insightsv1alpha1.MachinesFromInPlaceUpgrader},
			MinorsBehind:         int32p(0),
			StartedAt:            ago(15 * time.Minute),
			EstimatedCompletedAt: in(28 * time.Minute),
		})}
}

// unknown is a HostedCluster that does not say what it runs, and a
// NodePool whose HostedCluster's insight was not read.
func unknown() ([]insightsv1alpha1.HostedClusterProgressInsight, []insightsv1alpha1.NodePoolProgressInsight) {
	return []insightsv1alpha1.HostedClusterProgressInsight{hostedCluster("staging", insightsv1alpha1.HostedClusterProgressInsightStatus{
			Conditions: []metav1.Condition{noVersionStatus},
			Assessment: insightsv1alpha1.HostedClusterAssessmentUnknown,
		})}, []insightsv1alpha1.NodePoolProgressInsight{nodePool("analytics", "analytics-workers", insightsv1alpha1.NodePoolProgressInsightStatus{
			UpgradeType:       insightsv1alpha1.NodePoolUpgradeReplace,
			Assessment:        insightsv1alpha1.PoolProgressing,
			Versions:          insightsv1alpha1.NodePoolVersions{Current: "4.16.20", Target: "4.16.21"},
			CompletionPercent: 50,
			Machines:          insightsv1alpha1.MachinesSummary{Desired: 2, Updated: 1, Source: insightsv1alpha1.MachinesFromMachineSets},
			StartedAt:         ago(9 * time.Minute),
		})}
}

type fixture func() ([]insightsv1alpha1.HostedClusterProgressInsight, []insightsv1alpha1.NodePoolProgressInsight)

// fleet is every fixture together, as a management cluster holds them.
func fleet() ([]insightsv1alpha1.HostedClusterProgressInsight, []insightsv1alpha1.NodePoolProgressInsight) {
	var clusters []insightsv1alpha1.HostedClusterProgressInsight
	var pools []insightsv1alpha1.NodePoolProgressInsight
	for _, f := range []fixture{completed, midUpdate, blocked, unknown} {
		c, p := f()
		clusters, pools = append(clusters, c...), append(pools, p...)
	}
	return clusters, pools
}
