package hostedclusters

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
)

// summary is what a case checks of a status: the values a person reads,
// and each problem's level and reason.
type summary struct {
	Assessment        insightsv1alpha1.HostedClusterAssessment
	CompletionPercent int32
	Target, Previous  string
	Updating, Healthy string
	Problems          []string
	HasETA            bool
}

func summarise(s insightsv1alpha1.HostedClusterProgressInsightStatus) summary {
	out := summary{
		Assessment:        s.Assessment,
		CompletionPercent: s.CompletionPercent,
		Target:            s.Versions.Target.Version,
		HasETA:            s.EstimatedCompletedAt != nil,
	}
	if s.Versions.Previous != nil {
		out.Previous = s.Versions.Previous.Version
	}
	for _, c := range s.Conditions {
		v := string(c.Status) + " " + c.Reason
		switch c.Type {
		case insightsv1alpha1.HostedProgressInsightUpdating:
			out.Updating = v
		case insightsv1alpha1.HostedProgressInsightHealthy:
			out.Healthy = v
		}
	}
	for _, p := range s.Problems {
		out.Problems = append(out.Problems, string(p.Level)+" "+p.Reason)
	}
	return out
}

const (
	upgradeableFalseMessage = "Cluster operator kube-apiserver should not be upgraded between minor versions: KubeletMinorVersionUpgradeable: Kubelet minor versions on 1 nodes are behind the expected API server version"
	// cvo412of829 is a count whose percentage (%.0f of a truncated
	// float32) and exact share agree: 49.7% reads 49.
	cvo412of829 = "Working towards 4.17.1: 412 of 829 done (49% complete)"
)

func TestAssess(t *testing.T) {
	notUpgradeable := withCondition(cond(hypershift.ClusterVersionUpgradeable, metav1.ConditionFalse, "ClusterOperatorsNotUpgradeable", upgradeableFalseMessage))
	startedAgo := func(d time.Duration) hcOption {
		return func(hc *hypershift.HostedCluster) { hc.Status.Version.History[0].StartedTime = ago(d) }
	}
	for _, tc := range []struct {
		name string
		in   Input
		want summary
	}{{
		name: "completed",
		in:   Input{HostedCluster: completedAt416()},
		want: summary{Assessment: "Completed", CompletionPercent: 100, Target: "4.16.2", Previous: "4.15.3", Updating: "False Completed", Healthy: "True AsExpected"},
	}, {
		name: "installing: the bootstrap entry computeClusterVersionStatus writes, no version yet",
		in: Input{HostedCluster: hostedCluster(image416, hypershift.DesiredRelease{Image: image416},
			[]configv1.UpdateHistory{{State: configv1.PartialUpdate, Image: image416, StartedTime: metav1.NewTime(started)}})},
		want: summary{Assessment: "Progressing", Updating: "True Progressing", Healthy: "True AsExpected", HasETA: true},
	}, {
		name: "in progress, the CVO's count",
		in:   Input{HostedCluster: updatingTo417(cvo412of829)},
		want: summary{Assessment: "Progressing", CompletionPercent: 49, Target: "4.17.1", Previous: "4.16.2", Updating: "True Progressing", Healthy: "True AsExpected", HasETA: true},
	}, {
		name: "in progress, the CVO's count while it waits on an operator (pkg/cvo/status.go, skipFailure)",
		in:   Input{HostedCluster: updatingTo417("Working towards 4.17.1: 700 of 829 done (84% complete), waiting on kube-apiserver")},
		want: summary{Assessment: "Progressing", CompletionPercent: 84, Target: "4.17.1", Previous: "4.16.2", Updating: "True Progressing", Healthy: "True AsExpected", HasETA: true},
	}, {
		name: "in progress, a count still for the previous release is not this update's",
		in:   Input{HostedCluster: updatingTo417("Working towards 4.16.2: 829 of 829 done (100% complete)")},
		want: summary{Assessment: "Progressing", Target: "4.17.1", Previous: "4.16.2", Updating: "True Progressing", Healthy: "True AsExpected", HasETA: true},
	}, {
		name: "in progress, no count: the previous completion of the same update is kept",
		in: Input{HostedCluster: updatingTo417("Working towards 4.17.1"), Previous: &insightsv1alpha1.HostedClusterProgressInsightStatus{
			Assessment: "Progressing", CompletionPercent: 40, StartedAt: mtime(started), LastObservedProgress: mtime(now.Add(-time.Minute)),
			Versions: insightsv1alpha1.ControlPlaneUpdateVersions{Target: insightsv1alpha1.Version{Version: "4.17.1"}}}},
		want: summary{Assessment: "Progressing", CompletionPercent: 40, Target: "4.17.1", Previous: "4.16.2", Updating: "True Progressing", Healthy: "True AsExpected", HasETA: true},
	}, {
		name: "blocked: ValidReleaseImage False (support/supportedversion/version.go IsValidReleaseVersion)",
		in: Input{HostedCluster: blockedAt416(image417, `ValidReleaseImage condition is false: the latest version supported is: "4.16". Attempting to use: "4.17.1"`,
			withCondition(cond(hypershift.ValidReleaseImage, metav1.ConditionFalse, "InvalidImage", `the latest version supported is: "4.16". Attempting to use: "4.17.1"`)))},
		want: summary{Assessment: "Blocked", Previous: "4.16.2", Updating: "True Blocked", Healthy: "False ValidReleaseImage", Problems: []string{"Error ValidReleaseImage"}},
	}, {
		name: "blocked: SupportedHostedCluster False",
		in: Input{HostedCluster: blockedAt416(image417, "SupportedHostedCluster condition is false: unsupported",
			withCondition(cond(hypershift.SupportedHostedCluster, metav1.ConditionFalse, "UnsupportedHostedCluster", "unsupported")))},
		want: summary{Assessment: "Blocked", Previous: "4.16.2", Updating: "True Blocked", Healthy: "False SupportedHostedCluster", Problems: []string{"Error SupportedHostedCluster"}},
	}, {
		name: "blocked: ValidConfiguration False",
		in: Input{HostedCluster: blockedAt416(image417, "ValidConfiguration condition is false: invalid",
			withCondition(cond(hypershift.ValidHostedClusterConfiguration, metav1.ConditionFalse, "InvalidConfiguration", "invalid")))},
		want: summary{Assessment: "Blocked", Previous: "4.16.2", Updating: "True Blocked", Healthy: "False ValidConfiguration", Problems: []string{"Error ValidConfiguration"}},
	}, {
		name: "blocked: ReconciliationActive False (support/util/pausereconcile.go)",
		in: Input{HostedCluster: blockedAt416(image417, "ReconciliationActive condition is false: Reconciliation paused until field removed",
			withCondition(cond(hypershift.ReconciliationActive, metav1.ConditionFalse, "ReconciliationPaused", "Reconciliation paused until field removed")))},
		want: summary{Assessment: "Blocked", Previous: "4.16.2", Updating: "True Blocked", Healthy: "False ReconciliationActive", Problems: []string{"Error ReconciliationActive"}},
	}, {
		name: "blocked: a minor update while the guest is not upgradeable (isUpgrading)",
		in:   Input{HostedCluster: blockedAt416(image417, "ClusterVersionUpgradeable condition is false: cluster version is not upgradeable", notUpgradeable)},
		want: summary{Assessment: "Blocked", Previous: "4.16.2", Updating: "True Blocked", Healthy: "False ClusterVersionUpgradeable", Problems: []string{"Error ClusterVersionUpgradeable"}},
	}, {
		name: "blocked: the force-upgrade-to annotation names another image",
		in: Input{HostedCluster: blockedAt416(image417, "ClusterVersionUpgradeable condition is false: force upgrade annotation is present but does not match desired release image",
			notUpgradeable, withAnnotation(hypershift.ForceUpgradeToAnnotation, image415))},
		want: summary{Assessment: "Blocked", Previous: "4.16.2", Updating: "True Blocked", Healthy: "False ForceUpgradeAnnotationMismatch", Problems: []string{"Error ForceUpgradeAnnotationMismatch"}},
	}, {
		name: "blocked: a release image that cannot be looked up (lookupReleaseImage's error)",
		in:   Input{HostedCluster: blockedAt416(image417, "failed to lookup release image: unauthorized")},
		want: summary{Assessment: "Blocked", Previous: "4.16.2", Updating: "True Blocked", Healthy: "False Blocked", Problems: []string{"Error Blocked"}},
	}, {
		name: "blocked mid-update: reconciliation paused while the guest updates; no estimate while held",
		in: Input{HostedCluster: updatingTo417(cvo412of829,
			withCondition(cond(hypershift.HostedClusterProgressing, metav1.ConditionFalse, hypershift.BlockedReason, "ReconciliationActive condition is false: Reconciliation paused until field removed")),
			withCondition(cond(hypershift.ReconciliationActive, metav1.ConditionFalse, "ReconciliationPaused", "Reconciliation paused until field removed")))},
		want: summary{Assessment: "Blocked", CompletionPercent: 49, Target: "4.17.1", Previous: "4.16.2", Updating: "True Blocked", Healthy: "False ReconciliationActive", Problems: []string{"Error ReconciliationActive"}},
	}, {
		name: "a patch update while not upgradeable is exempt: it runs, the next minor one would be held",
		in: Input{HostedCluster: func() *hypershift.HostedCluster {
			hc := updatingTo417("Working towards 4.16.3: 100 of 829 done (12% complete)", notUpgradeable)
			hc.Status.Version.Desired.Version, hc.Status.Version.History[0].Version = "4.16.3", "4.16.3"
			return hc
		}()},
		want: summary{Assessment: "Progressing", CompletionPercent: 12, Target: "4.16.3", Previous: "4.16.2", Updating: "True Progressing", Healthy: "True AsExpected", Problems: []string{"Info ClusterVersionUpgradeable"}, HasETA: true},
	}, {
		name: "a minor update forced by the annotation runs, at a risk",
		in:   Input{HostedCluster: updatingTo417(cvo412of829, notUpgradeable, withAnnotation(hypershift.ForceUpgradeToAnnotation, image417))},
		want: summary{Assessment: "Progressing", CompletionPercent: 49, Target: "4.17.1", Previous: "4.16.2", Updating: "True Progressing", Healthy: "True AsExpected", Problems: []string{"Warning ClusterVersionUpgradeable"}, HasETA: true},
	}, {
		name: "completed, not upgradeable: only the next minor update is held",
		in:   Input{HostedCluster: func() *hypershift.HostedCluster { hc := completedAt416(); notUpgradeable(hc); return hc }()},
		want: summary{Assessment: "Completed", CompletionPercent: 100, Target: "4.16.2", Previous: "4.15.3", Updating: "False Completed", Healthy: "True AsExpected", Problems: []string{"Info ClusterVersionUpgradeable"}},
	}, {
		name: "completed and paused, nothing requested: not blocked",
		in: Input{HostedCluster: blockedAt416(image416, "ReconciliationActive condition is false: Reconciliation paused until field removed",
			withCondition(cond(hypershift.ReconciliationActive, metav1.ConditionFalse, "ReconciliationPaused", "Reconciliation paused until field removed")))},
		want: summary{Assessment: "Completed", CompletionPercent: 100, Target: "4.16.2", Previous: "4.15.3", Updating: "False Completed", Healthy: "True AsExpected", Problems: []string{"Info ReconciliationActive"}},
	}, {
		name: "failing: ClusterVersionSucceeding False, the CVO's Failing inverted",
		in: Input{HostedCluster: updatingTo417("Unable to apply 4.17.1: the cluster operator kube-apiserver is degraded",
			withCondition(cond(hypershift.ClusterVersionSucceeding, metav1.ConditionFalse, "ClusterOperatorDegraded", "Cluster operator kube-apiserver is degraded")))},
		want: summary{Assessment: "Failing", Target: "4.17.1", Previous: "4.16.2", Updating: "True Failing", Healthy: "False ClusterVersionFailing", Problems: []string{"Error ClusterVersionFailing"}, HasETA: true},
	}, {
		name: "stalled: no progress for hours, long past the estimate",
		in: Input{HostedCluster: updatingTo417("Working towards 4.17.1: 500 of 829 done (60% complete)", startedAgo(4*time.Hour)),
			Previous: &insightsv1alpha1.HostedClusterProgressInsightStatus{
				Assessment: "Progressing", CompletionPercent: 60, StartedAt: mtime(now.Add(-4 * time.Hour)), LastObservedProgress: mtime(now.Add(-3 * time.Hour)),
				Versions: insightsv1alpha1.ControlPlaneUpdateVersions{Target: insightsv1alpha1.Version{Version: "4.17.1"}}}},
		want: summary{Assessment: "Stalled", CompletionPercent: 60, Target: "4.17.1", Previous: "4.16.2", Updating: "True Stalled", Healthy: "True AsExpected", Problems: []string{"Warning UpdateStalled"}, HasETA: true},
	}, {
		name: "long past the baseline but no count: no evidence of a stall",
		in:   Input{HostedCluster: updatingTo417("Working towards 4.17.1", startedAgo(4*time.Hour))},
		want: summary{Assessment: "Progressing", Target: "4.17.1", Previous: "4.16.2", Updating: "True Progressing", Healthy: "True AsExpected", HasETA: true},
	}, {
		name: "unknown: no status.version yet",
		in:   Input{HostedCluster: &hypershift.HostedCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "clusters", Name: "guest"}}},
		want: summary{Assessment: "Unknown", Updating: "Unknown NoVersionStatus", Healthy: "Unknown CannotDetermineHealth"},
	}, {
		name: "components not rolled out within the estimate",
		in: Input{HostedCluster: updatingTo417(cvo412of829), Components: []*hypershift.ControlPlaneComponent{
			component("kube-apiserver", "4.16.2", false), component("etcd", "4.17.1", true), component("kube-controller-manager", "", false)}},
		want: summary{Assessment: "Progressing", CompletionPercent: 49, Target: "4.17.1", Previous: "4.16.2", Updating: "True Progressing", Healthy: "True AsExpected", Problems: []string{"Info ControlPlaneComponentsNotRolledOut"}, HasETA: true},
	}, {
		name: "components not rolled out past the estimate, and controlPlaneVersion Partial",
		in: Input{HostedCluster: updatingTo417("Working towards 4.17.1", startedAgo(4*time.Hour), func(hc *hypershift.HostedCluster) {
			hc.Status.ControlPlaneVersion = hypershift.ControlPlaneVersionStatus{Desired: hypershift.DesiredRelease{Version: "4.17.1", Image: image417},
				History: []hypershift.ControlPlaneUpdateHistory{{State: configv1.PartialUpdate, StartedTime: ago(4 * time.Hour), Version: "4.17.1", Image: image417}}}
		}), Components: []*hypershift.ControlPlaneComponent{component("kube-apiserver", "4.16.2", false)}},
		want: summary{Assessment: "Progressing", Target: "4.17.1", Previous: "4.16.2", Updating: "True Progressing", Healthy: "True AsExpected", Problems: []string{"Warning ControlPlaneComponentsNotRolledOut"}, HasETA: true},
	}, {
		name: "completed: components are not judged",
		in:   Input{HostedCluster: completedAt416(), Components: []*hypershift.ControlPlaneComponent{component("kube-apiserver", "4.15.3", false)}},
		want: summary{Assessment: "Completed", CompletionPercent: 100, Target: "4.16.2", Previous: "4.15.3", Updating: "False Completed", Healthy: "True AsExpected"},
	}, {
		name: "the worst NodePool problem is named, and does not make the control plane unhealthy",
		in: Input{HostedCluster: completedAt416(), NodePools: []insightsv1alpha1.NodePoolProgressInsightStatus{
			nodePool("4.16.2", metav1.ConditionFalse, metav1.ConditionTrue),
			nodePool("4.15.3", metav1.ConditionTrue, metav1.ConditionTrue, insightsv1alpha1.HostedProblem{Level: "Warning", Reason: "SlowDrain", Message: "slow"}),
			nodePool("4.15.3", metav1.ConditionFalse, metav1.ConditionFalse, insightsv1alpha1.HostedProblem{Level: "Error", Reason: "MachineFailed", Message: "failed"}),
		}},
		want: summary{Assessment: "Completed", CompletionPercent: 100, Target: "4.16.2", Previous: "4.15.3", Updating: "False Completed", Healthy: "True AsExpected", Problems: []string{"Error MachineFailed"}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.Now = now
			got := Assess(tc.in)
			if diff := cmp.Diff(tc.want, summarise(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if errs := statusSchema().Validate(got); len(errs) > 0 {
				t.Errorf("the API server would refuse it: %v", errs)
			}
		})
	}
}

// The details a person reads: times, and problems' messages quoting
// HyperShift's and saying what to do.
func TestAssessDetails(t *testing.T) {
	t.Run("completed", func(t *testing.T) {
		got := Assess(Input{HostedCluster: completedAt416(), Now: now})
		want := mtime(now.Add(-3*time.Hour + 50*time.Minute))
		if diff := cmp.Diff(want, got.CompletedAt); diff != "" {
			t.Errorf("completedAt (-want +got):\n%s", diff)
		}
		if got.EstimatedCompletedAt != nil || got.LastObservedProgress != nil {
			t.Errorf("a completed update has an estimate %v or a last progress %v", got.EstimatedCompletedAt, got.LastObservedProgress)
		}
	})
	t.Run("the estimate is from the cluster's own last update", func(t *testing.T) {
		// Progress was seen 4 minutes in, under the 5 the estimate needs
		// to project from it, so it is the baseline: the last update,
		// 4.16.2's, took 50 minutes; 30 in, 20 are left, padded by 1.2.
		got := Assess(Input{HostedCluster: updatingTo417(cvo412of829), Now: now,
			Previous: &insightsv1alpha1.HostedClusterProgressInsightStatus{CompletionPercent: 49, StartedAt: mtime(started), LastObservedProgress: mtime(started.Add(4 * time.Minute)),
				Versions: insightsv1alpha1.ControlPlaneUpdateVersions{Target: insightsv1alpha1.Version{Version: "4.17.1"}}}})
		if diff := cmp.Diff(mtime(now.Add(24*time.Minute)), got.EstimatedCompletedAt); diff != "" {
			t.Errorf("estimatedCompletedAt (-want +got):\n%s", diff)
		}
	})
	t.Run("a blocked minor update says what to do", func(t *testing.T) {
		got := Assess(Input{HostedCluster: blockedAt416(image417, upgradeableBlockedPrefix+"cluster version is not upgradeable",
			withCondition(cond(hypershift.ClusterVersionUpgradeable, metav1.ConditionFalse, "ClusterOperatorsNotUpgradeable", upgradeableFalseMessage))), Now: now})
		want := "HyperShift does not start the minor update to " + image417 + " while the guest cluster is not upgradeable: ClusterVersionUpgradeable is False (reason ClusterOperatorsNotUpgradeable): " +
			upgradeableFalseMessage + ". Resolve what it says in the guest cluster; patch updates are not held. To update anyway, accepting the risk, set the annotation hypershift.openshift.io/force-upgrade-to=" + image417 + "."
		if diff := cmp.Diff(want, got.Problems[0].Message); diff != "" {
			t.Errorf("message (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(mtime(now.Add(-2*time.Hour)), got.Problems[0].Since); diff != "" {
			t.Errorf("since, the condition's transition (-want +got):\n%s", diff)
		}
	})
	t.Run("a minor update held since it was requested, the guest not upgradeable for a month, quoted with one full stop", func(t *testing.T) {
		// The cluster-version operator's admin-gate message ends with its
		// own full stop (pkg/cvo/upgradeable.go).
		message := "Kubernetes 1.31 and therefore OpenShift 4.18 remove several APIs which require admin consideration. Please see the knowledge article https://access.redhat.com/articles/7031404 for details and instructions."
		upgradeable := cond(hypershift.ClusterVersionUpgradeable, metav1.ConditionFalse, "AdminAckRequired", message)
		upgradeable.LastTransitionTime = ago(30 * 24 * time.Hour)
		got := Assess(Input{HostedCluster: blockedAt416(image417, upgradeableBlockedPrefix+"cluster version is not upgradeable", withCondition(upgradeable)), Now: now})
		want := "HyperShift does not start the minor update to " + image417 + " while the guest cluster is not upgradeable: ClusterVersionUpgradeable is False (reason AdminAckRequired): " +
			strings.TrimSuffix(message, ".") + ". Resolve what it says in the guest cluster; patch updates are not held. To update anyway, accepting the risk, set the annotation hypershift.openshift.io/force-upgrade-to=" + image417 + "."
		if diff := cmp.Diff(want, got.Problems[0].Message); diff != "" {
			t.Errorf("message (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(mtime(now.Add(-2*time.Hour)), got.Problems[0].Since); diff != "" {
			t.Errorf("since, Progressing's turn to Blocked, not Upgradeable's a month before (-want +got):\n%s", diff)
		}
	})
	t.Run("components named, with HyperShift's messages", func(t *testing.T) {
		got := Assess(Input{HostedCluster: updatingTo417(cvo412of829), Now: now, Components: []*hypershift.ControlPlaneComponent{
			component("kube-apiserver", "4.16.2", false), component("etcd", "4.17.1", true)}})
		want := "1 of 2 control plane components have not rolled out 4.17.1: kube-apiserver: at 4.16.2, RolloutComplete=False (WaitingForRolloutComplete): Waiting for deployment kube-apiserver rollout to finish: 1 out of 3 new replicas have been updated."
		if diff := cmp.Diff(want, got.Problems[0].Message); diff != "" {
			t.Errorf("message (-want +got):\n%s", diff)
		}
	})
	t.Run("NodePools counted against the control plane's target", func(t *testing.T) {
		got := Assess(Input{HostedCluster: completedAt416(), Now: now, NodePools: []insightsv1alpha1.NodePoolProgressInsightStatus{
			nodePool("4.16.2", metav1.ConditionFalse, metav1.ConditionTrue),
			nodePool("4.15.3", metav1.ConditionTrue, metav1.ConditionTrue),
			nodePool("4.15.3", metav1.ConditionFalse, metav1.ConditionFalse),
		}})
		if diff := cmp.Diff(insightsv1alpha1.NodePoolsSummary{Total: 3, Updated: 1, Updating: 1, Degraded: 1}, got.NodePools); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}
