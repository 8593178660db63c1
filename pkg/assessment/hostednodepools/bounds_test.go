package hostednodepools

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
	"github.com/update-insights/update-insights-operator/pkg/internal/apivalidation"
)

// garbage makes strings the API server would store in the objects read:
// long, empty, not UTF-8, versions of every shape.
type garbage struct{ r *rand.Rand }

func (g garbage) str() string {
	switch g.r.Intn(9) {
	case 0:
		return ""
	case 1:
		return strings.Repeat("é", 5000+g.r.Intn(3000))
	case 2:
		return "\xff\xfe" + strings.Repeat("x", g.r.Intn(300))
	case 3:
		return fmt.Sprintf("%d.%d.%d", g.r.Intn(7), g.r.Intn(40), g.r.Intn(20))
	case 4:
		return "4.99999999999999999999.1"
	case 5:
		return "not a reason, with spaces\nand lines"
	case 6:
		return newVersion
	case 7:
		return "Updating version in progress. Target version: " + strings.Repeat("9", 400)
	}
	return "Nodepool update in progress. Target Config version: x. Total Nodes: 99999999999. Upgraded: 99999999999"
}

func (g garbage) n() *int32 {
	switch g.r.Intn(4) {
	case 0:
		return nil
	case 1:
		return ptr.To(int32(-g.r.Intn(1000)))
	case 2:
		return ptr.To(int32(2147483647))
	}
	return ptr.To(int32(g.r.Intn(10)))
}

func (g garbage) when() metav1.Time {
	return metav1.Time{Time: now.Add(time.Duration(g.r.Int63n(int64(400*24*time.Hour))) - 200*24*time.Hour)}
}

func (g garbage) intstr() *intstr.IntOrString {
	switch g.r.Intn(4) {
	case 0:
		return nil
	case 1:
		return ptr.To(intstr.FromString(g.str()))
	case 2:
		return ptr.To(intstr.FromString(fmt.Sprintf("%d%%", g.r.Intn(300))))
	}
	return ptr.To(intstr.FromInt32(int32(g.r.Intn(2000) - 1000)))
}

func (g garbage) input() Input {
	upgrade := []string{hypershift.UpgradeTypeReplace, hypershift.UpgradeTypeInPlace, g.str()}[g.r.Intn(3)]
	np := &hypershift.NodePool{ObjectMeta: metav1.ObjectMeta{Namespace: g.str(), Name: g.str()}}
	np.Spec.ClusterName = g.str()
	np.Spec.Release.Image = g.str()
	np.Spec.Replicas = g.n()
	np.Spec.Management.UpgradeType = upgrade
	np.Spec.Management.Replace = &hypershift.ReplaceUpgrade{RollingUpdate: &hypershift.RollingUpdate{MaxSurge: g.intstr(), MaxUnavailable: g.intstr()}}
	np.Spec.Management.InPlace = &hypershift.InPlaceUpgrade{MaxUnavailable: g.intstr()}
	if g.r.Intn(2) == 0 {
		np.Spec.AutoScaling = &hypershift.NodePoolAutoScaling{Max: 5}
	}
	if g.r.Intn(3) == 0 {
		np.Spec.PausedUntil = ptr.To(g.str())
	}
	np.Status.Version = g.str()
	np.Status.Replicas = int32(g.r.Intn(5))
	for range g.r.Intn(4) {
		np.Status.NodesInfo.NodeVersions = append(np.Status.NodesInfo.NodeVersions, hypershift.NodeVersion{OCPVersion: g.str(), ReadyNodeCount: g.n(), UnreadyNodeCount: g.n()})
	}
	for _, t := range []string{hypershift.NodePoolUpdatingVersion, hypershift.NodePoolValidReleaseImage, hypershift.NodePoolValidGeneratedPayload, hypershift.NodePoolSupportedVersionSkew} {
		status := []corev1.ConditionStatus{corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionUnknown}[g.r.Intn(3)]
		np.Status.Conditions = append(np.Status.Conditions, hypershift.NodePoolCondition{Type: t, Status: status, Reason: g.str(), Message: g.str(), LastTransitionTime: g.when()})
	}
	in := Input{NodePool: np, Now: now, PerMachine: time.Duration(g.r.Int63n(int64(48 * time.Hour)))}
	if g.r.Intn(3) > 0 {
		in.HostedCluster = &hypershift.HostedCluster{}
		in.HostedCluster.Status.Version = &hypershift.ClusterVersionStatus{Desired: hypershift.DesiredRelease{Version: g.str(), Image: np.Spec.Release.Image}}
		for range g.r.Intn(3) {
			in.HostedCluster.Status.Version.History = append(in.HostedCluster.Status.Version.History, configv1.UpdateHistory{State: configv1.CompletedUpdate, Version: g.str(), Image: g.str()})
		}
	}
	if g.r.Intn(2) == 0 {
		md := &hypershift.MachineDeployment{}
		md.Spec.Replicas = g.n()
		md.Spec.Template.ObjectMeta.Annotations = map[string]string{hypershift.ReleaseVersionAnnotation: g.str()}
		md.Spec.Rollout.Strategy.RollingUpdate = hypershift.MachineDeploymentRollingUpdate{MaxSurge: g.intstr(), MaxUnavailable: g.intstr()}
		md.Status.UpToDateReplicas = g.n()
		in.MachineDeployment = md
	}
	for range g.r.Intn(3) {
		ms := &hypershift.MachineSet{ObjectMeta: metav1.ObjectMeta{Namespace: g.str(), Name: g.str(), Annotations: map[string]string{
			hypershift.UpgradeInProgressTrueAnnotation: g.str(), hypershift.UpgradeInProgressFalseAnnotation: g.str()}}}
		ms.Spec.Replicas = g.n()
		ms.Status.UpToDateReplicas = g.n()
		in.MachineSets = append(in.MachineSets, ms, nil)
	}
	for range g.r.Intn(6) {
		m := &hypershift.Machine{ObjectMeta: metav1.ObjectMeta{Namespace: g.str(), Name: g.str(), CreationTimestamp: g.when(),
			Annotations: map[string]string{hypershift.ReleaseVersionAnnotation: g.str()}}}
		if g.r.Intn(2) == 0 {
			m.DeletionTimestamp = ptr.To(g.when())
			m.Status.Deletion = &hypershift.MachineDeletionStatus{NodeDrainStartTime: ptr.To(g.when())}
		}
		if g.r.Intn(2) == 0 {
			m.Status.NodeRef = &hypershift.MachineNodeReference{Name: g.str()}
		}
		m.Status.Phase = g.str()
		for _, t := range []string{machineDeleting, machineInfrastructureReady, machineNodeHealthy} {
			m.Status.Conditions = append(m.Status.Conditions, metav1.Condition{Type: t, Status: metav1.ConditionStatus([]string{"True", "False", "Unknown"}[g.r.Intn(3)]),
				Reason: []string{deletingDrainingNode, g.str()}[g.r.Intn(2)], Message: g.str()})
		}
		in.Machines = append(in.Machines, m, nil)
	}
	if g.r.Intn(2) == 0 {
		prev := Assess(Input{NodePool: np, Now: now.Add(-time.Hour)})
		prev.Versions.Target = g.str()
		prev.StartedAt = ptr.To(g.when())
		in.Previous = &prev
	}
	return in
}

// TestAssessGarbage checks that the API server accepts whatever Assess
// returns, whatever the objects read hold.
func TestAssessGarbage(t *testing.T) {
	schema := apivalidation.Status("NodePoolProgressInsight")
	g := garbage{r: rand.New(rand.NewSource(1))}
	for i := range 500 {
		in := g.input()
		st := Assess(in)
		if errs := schema.Validate(st); len(errs) > 0 {
			t.Fatalf("input %d: the API server would refuse %v", i, errs.ToAggregate())
		}
		if st.EstimatedCompletedAt != nil && st.EstimatedCompletedAt.Before(&metav1.Time{Time: now}) {
			t.Fatalf("input %d: an estimate in the past, %v", i, st.EstimatedCompletedAt)
		}
	}
	if errs := schema.Validate(Assess(Input{Now: now})); len(errs) > 0 {
		t.Errorf("no NodePool: the API server would refuse %v", errs.ToAggregate())
	}
}

func TestBoundProblems(t *testing.T) {
	var problems []insightsv1alpha1.HostedProblem
	for i := range 40 {
		level := insightsv1alpha1.WarningImpactLevel
		if i == 39 {
			level = insightsv1alpha1.ErrorImpactLevel
		}
		problems = append(problems, insightsv1alpha1.HostedProblem{Level: level, Reason: fmt.Sprintf("R%d", i), Message: strings.Repeat("m", 5000)})
	}
	got := boundProblems(problems)
	if len(got) != maxProblems {
		t.Fatalf("%d problems, want %d", len(got), maxProblems)
	}
	if got[0].Reason != "R39" {
		t.Errorf("first problem %s, want the Error one, R39", got[0].Reason)
	}
	if last := got[maxProblems-1]; last.Reason != reasonMoreProblems || last.Message != "25 more problems, no more serious than those above" {
		t.Errorf("last problem %s %q, want the marker", last.Reason, last.Message)
	}
	if n := len([]rune(got[1].Message)); n != maxMessageLength || !strings.HasSuffix(got[1].Message, cutMarker) {
		t.Errorf("message of %d characters, want %d ending %q", n, maxMessageLength, cutMarker)
	}
}

func TestChanged(t *testing.T) {
	base := func() *insightsv1alpha1.NodePoolProgressInsightStatus {
		return &insightsv1alpha1.NodePoolProgressInsightStatus{
			HostedCluster: "hc1", UpgradeType: insightsv1alpha1.NodePoolUpgradeReplace, Assessment: insightsv1alpha1.PoolProgressing,
			Machines:             insightsv1alpha1.MachinesSummary{Desired: 3, Updated: 1},
			EstimatedCompletedAt: &metav1.Time{Time: now.Add(time.Hour)},
		}
	}
	for _, tc := range []struct {
		name   string
		change func(*insightsv1alpha1.NodePoolProgressInsightStatus) *insightsv1alpha1.NodePoolProgressInsightStatus
		want   bool
	}{
		{name: "same", change: func(s *insightsv1alpha1.NodePoolProgressInsightStatus) *insightsv1alpha1.NodePoolProgressInsightStatus {
			return s
		}},
		{name: "estimate a minute later", change: func(s *insightsv1alpha1.NodePoolProgressInsightStatus) *insightsv1alpha1.NodePoolProgressInsightStatus {
			s.EstimatedCompletedAt = &metav1.Time{Time: now.Add(time.Hour + time.Minute)}
			return s
		}},
		{name: "estimate ten minutes earlier", want: true, change: func(s *insightsv1alpha1.NodePoolProgressInsightStatus) *insightsv1alpha1.NodePoolProgressInsightStatus {
			s.EstimatedCompletedAt = &metav1.Time{Time: now.Add(50 * time.Minute)}
			return s
		}},
		{name: "estimate gone", want: true, change: func(s *insightsv1alpha1.NodePoolProgressInsightStatus) *insightsv1alpha1.NodePoolProgressInsightStatus {
			s.EstimatedCompletedAt = nil
			return s
		}},
		{name: "a machine more", want: true, change: func(s *insightsv1alpha1.NodePoolProgressInsightStatus) *insightsv1alpha1.NodePoolProgressInsightStatus {
			s.Machines.Updated = 2
			return s
		}},
		{name: "none written", want: true, change: func(*insightsv1alpha1.NodePoolProgressInsightStatus) *insightsv1alpha1.NodePoolProgressInsightStatus {
			return nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Changed(tc.change(base()), base()); got != tc.want {
				t.Errorf("Changed = %v, want %v", got, tc.want)
			}
		})
	}
}
