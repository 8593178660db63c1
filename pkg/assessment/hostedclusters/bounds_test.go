package hostedclusters

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
	"github.com/update-insights/update-insights-operator/pkg/internal/apivalidation"
)

func statusSchema() *apivalidation.Schema {
	return apivalidation.Status("HostedClusterProgressInsight")
}

// Whatever the HostedCluster holds, the API server accepts the status:
// huge messages and reasons, a hundred conditions, absurd versions and
// times, more problems than the API takes.
func TestAssessBoundsGarbage(t *testing.T) {
	huge := strings.Repeat("é<>\n\"", 20000)
	absurd := strings.Repeat("4.", 5000) + "∞"
	garbage := func(hc *hypershift.HostedCluster) {
		hc.Name = strings.Repeat("n", 253)
		hc.Annotations = map[string]string{hypershift.ForceUpgradeToAnnotation: huge}
		hc.Spec.Release.Image = huge
		for i := 0; i < 100; i++ {
			hc.Status.Conditions = append(hc.Status.Conditions, metav1.Condition{Type: fmt.Sprintf("Garbage%d", i), Status: "False", Reason: huge, Message: huge})
		}
		for _, t := range []string{hypershift.ValidReleaseImage, hypershift.SupportedHostedCluster, hypershift.ValidHostedClusterConfiguration, hypershift.ReconciliationActive, hypershift.ClusterVersionUpgradeable, hypershift.ClusterVersionSucceeding} {
			withCondition(metav1.Condition{Type: t, Status: metav1.ConditionFalse, Reason: huge, Message: huge})(hc)
		}
		withCondition(metav1.Condition{Type: hypershift.ClusterVersionProgressing, Status: metav1.ConditionTrue, Reason: huge,
			Message: "Working towards " + absurd + ": 999999999 of 999999999 done (100% complete)" + huge})(hc)
		hc.Status.ControlPlaneVersion = hypershift.ControlPlaneVersionStatus{Desired: hypershift.DesiredRelease{Version: absurd},
			History: []hypershift.ControlPlaneUpdateHistory{{State: configv1.PartialUpdate, Version: huge, StartedTime: metav1.NewTime(time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC))}}}
	}
	var components []*hypershift.ControlPlaneComponent
	for i := 0; i < 500; i++ {
		c := component(fmt.Sprintf("component-%03d-%s", i, strings.Repeat("x", 200)), huge, false)
		c.Status.Conditions[0].Message = huge
		components = append(components, c)
	}
	var pools []insightsv1alpha1.NodePoolProgressInsightStatus
	for i := 0; i < 50; i++ {
		pools = append(pools, nodePool(absurd, metav1.ConditionTrue, metav1.ConditionFalse,
			insightsv1alpha1.HostedProblem{Level: "Error", Reason: strings.Repeat("R", 1024), Message: strings.Repeat("m", 4096)}))
	}
	for _, tc := range []struct {
		name string
		hc   *hypershift.HostedCluster
	}{
		{"updating", updatingTo417("", garbage, func(hc *hypershift.HostedCluster) {
			hc.Status.Version.Desired = hypershift.DesiredRelease{Version: absurd, Image: huge}
			hc.Status.Version.History[0].Version = absurd
			hc.Status.Version.History[0].StartedTime = metav1.NewTime(time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC))
		})},
		{"updating, no count", updatingTo417("", garbage, withCondition(metav1.Condition{Type: hypershift.ClusterVersionProgressing, Status: metav1.ConditionTrue, Reason: "R", Message: "Working towards 4.17.1"}))},
		{"blocked", blockedAt416(huge, upgradeableBlockedPrefix+"cluster version is not upgradeable", garbage)},
		{"completed", func() *hypershift.HostedCluster { hc := completedAt416(); garbage(hc); return hc }()},
		{"an unknown history state", updatingTo417("", garbage, func(hc *hypershift.HostedCluster) { hc.Status.Version.History[0].State = configv1.UpdateState(huge) })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Assess(Input{HostedCluster: tc.hc, Components: components, NodePools: pools, Now: now,
				Previous: &insightsv1alpha1.HostedClusterProgressInsightStatus{CompletionPercent: 1000, LastObservedProgress: mtime(time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC))}})
			again := Assess(Input{HostedCluster: tc.hc, Now: now, Previous: &insightsv1alpha1.HostedClusterProgressInsightStatus{
				CompletionPercent: 1000, Versions: got.Versions, StartedAt: got.StartedAt}})
			if errs := statusSchema().Validate(again); len(errs) > 0 {
				t.Errorf("with a garbage previous status, the API server would refuse it: %v", errs)
			}
			if errs := statusSchema().Validate(got); len(errs) > 0 {
				t.Errorf("the API server would refuse it: %v", errs)
			}
			if len(got.Problems) > maxProblems {
				t.Errorf("%d problems, more than %d", len(got.Problems), maxProblems)
			}
		})
	}
}

// Beyond the 16 problems the API takes, the 16th says what was cut, at the
// level of the worst cut; the most serious come first.
func TestBound(t *testing.T) {
	var ps []insightsv1alpha1.HostedProblem
	for i := 0; i < 20; i++ {
		level := insightsv1alpha1.InfoImpactLevel
		if i%4 == 0 {
			level = insightsv1alpha1.ErrorImpactLevel
		}
		ps = append(ps, insightsv1alpha1.HostedProblem{Level: level, Reason: fmt.Sprintf("R%d", i), Message: "m"})
	}
	got := bound(ps)
	var summary []string
	for _, p := range got {
		summary = append(summary, string(p.Level)+" "+p.Reason)
	}
	want := []string{"Error R0", "Error R4", "Error R8", "Error R12", "Error R16",
		"Info R1", "Info R2", "Info R3", "Info R5", "Info R6", "Info R7", "Info R9", "Info R10", "Info R11", "Info R13", "Info MoreProblems"}
	if diff := cmp.Diff(want, summary); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if msg := got[15].Message; msg != "5 more problems not shown, of reasons: R14, R15, R17, R18, R19" {
		t.Errorf("marker message %q", msg)
	}
}
