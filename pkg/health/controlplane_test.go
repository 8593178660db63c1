package health

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

var (
	started = time.Date(2024, 8, 2, 9, 0, 0, 0, time.UTC)
	now     = started.Add(time.Hour)
)

func cvCondition(t string, status configv1.ConditionStatus, reason, message string, since time.Time) configv1.ClusterOperatorStatusCondition {
	return configv1.ClusterOperatorStatusCondition{Type: configv1.ClusterStatusConditionType(t), Status: status, Reason: reason, Message: message, LastTransitionTime: metav1.NewTime(since)}
}

func updatingCV(conditions ...configv1.ClusterOperatorStatusCondition) *configv1.ClusterVersion {
	return &configv1.ClusterVersion{
		ObjectMeta: metav1.ObjectMeta{Name: "version"},
		Status: configv1.ClusterVersionStatus{
			Conditions: conditions,
			History: []configv1.UpdateHistory{
				{Version: "4.16.0", State: configv1.PartialUpdate, StartedTime: metav1.NewTime(started)},
				{Version: "4.15.3", State: configv1.CompletedUpdate, StartedTime: metav1.NewTime(started.Add(-48 * time.Hour))},
			},
		},
	}
}

var notFailing = cvCondition("Failing", configv1.ConditionFalse, "", "", started)

func progressing(eta time.Time) *insightsv1alpha1.ClusterVersionProgressInsightStatus {
	return &insightsv1alpha1.ClusterVersionProgressInsightStatus{
		Assessment:           insightsv1alpha1.ClusterVersionAssessmentProgressing,
		Versions:             insightsv1alpha1.ControlPlaneUpdateVersions{Target: insightsv1alpha1.Version{Version: "4.16.0"}},
		CompletionPercent:    40,
		EstimatedCompletedAt: &metav1.Time{Time: eta},
	}
}

func operatorWith(conditions ...configv1.ClusterOperatorStatusCondition) *configv1.ClusterOperator {
	return &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{Name: "etcd"}, Status: configv1.ClusterOperatorStatus{Conditions: conditions}}
}

// summary is what a test checks of an insight.
type summary struct {
	Problem string
	Level   insightsv1alpha1.InsightImpactLevel
	Type    insightsv1alpha1.InsightImpactType
	Summary string
	Since   time.Time
}

func summarize(insights []Insight) []summary {
	var out []summary
	for _, i := range insights {
		out = append(out, summary{Problem: i.Problem, Level: i.Status.Impact.Level, Type: i.Status.Impact.Type, Summary: i.Status.Impact.Summary, Since: i.Status.StartedAt.Time})
	}
	return out
}

func TestForControlPlane(t *testing.T) {
	later := now.Add(time.Hour)
	testCases := []struct {
		name      string
		cv        *configv1.ClusterVersion
		operators []*configv1.ClusterOperator
		progress  *insightsv1alpha1.ClusterVersionProgressInsightStatus
		want      []summary
		wantNext  time.Time
	}{
		{
			name:     "a healthy update: nothing",
			cv:       updatingCV(notFailing),
			progress: progressing(later),
		},
		{
			name:     "ClusterVersion failing",
			cv:       updatingCV(cvCondition("Failing", "True", "ClusterOperatorsDegraded", "Cluster operators etcd are degraded", started.Add(30*time.Minute))),
			progress: progressing(later),
			want: []summary{{Problem: ClusterVersionFailing, Level: "Warning", Type: "Update Stalled", Since: started.Add(30 * time.Minute),
				Summary: "Cluster Version version is failing to proceed with the update (ClusterOperatorsDegraded)"}},
		},
		{
			name:     "ClusterVersion Failing=Unknown: may be failing",
			cv:       updatingCV(cvCondition("Failing", "Unknown", "Unsure", "", started)),
			progress: progressing(later),
			want: []summary{{Problem: ClusterVersionMayBeFailing, Level: "Warning", Type: "Update Stalled", Since: started,
				Summary: "Cluster Version version may be failing to proceed with the update (Unsure)"}},
		},
		{
			name:     "no Failing condition while updating",
			cv:       updatingCV(),
			progress: progressing(later),
			want: []summary{{Problem: ClusterVersionNoFailing, Level: "Warning", Type: "Update Stalled",
				Summary: "Cluster Version version does not say whether the update is failing"}},
		},
		{
			name: "no Failing condition when not updating: nothing",
			cv:   updatingCV(),
			progress: &insightsv1alpha1.ClusterVersionProgressInsightStatus{
				Assessment: insightsv1alpha1.ClusterVersionAssessmentCompleted,
			},
		},
		{
			name: "update started over a partial one",
			cv: func() *configv1.ClusterVersion {
				cv := updatingCV(notFailing)
				cv.Status.History = []configv1.UpdateHistory{
					{Version: "4.15.0-ec.2", State: configv1.PartialUpdate, StartedTime: metav1.NewTime(started)},
					{Version: "4.14.1", State: configv1.PartialUpdate},
					{Version: "4.14.0-rc.7", State: configv1.CompletedUpdate},
				}
				return cv
			}(),
			progress: progressing(later),
			want: []summary{{Problem: PreviousUpdatePartial, Level: "Warning", Type: "None", Since: started,
				Summary: "Previous update to 4.14.1 never completed, last complete update was 4.14.0-rc.7"}},
		},
		{
			name:      "operator unavailable under 5 minutes: not yet, woken at 5",
			cv:        updatingCV(notFailing),
			operators: []*configv1.ClusterOperator{operatorWith(cvCondition("Available", "False", "Down", "", now.Add(-4*time.Minute)))},
			progress:  progressing(later),
			wantNext:  now.Add(time.Minute),
		},
		{
			name:      "operator unavailable 5 minutes: Warning, woken at 20",
			cv:        updatingCV(notFailing),
			operators: []*configv1.ClusterOperator{operatorWith(cvCondition("Available", "False", "Down", "", now.Add(-5*time.Minute)))},
			progress:  progressing(later),
			want: []summary{{Problem: ClusterOperatorUnavailable, Level: "Warning", Type: "API Availability", Since: now.Add(-5 * time.Minute),
				Summary: "Cluster Operator etcd is unavailable (Down)"}},
			wantNext: now.Add(15 * time.Minute),
		},
		{
			name:      "operator unavailable 20 minutes: Error",
			cv:        updatingCV(notFailing),
			operators: []*configv1.ClusterOperator{operatorWith(cvCondition("Available", "False", "Down", "", now.Add(-20*time.Minute)), cvCondition("Degraded", "True", "Broken", "", now.Add(-time.Hour)))},
			progress:  progressing(later),
			want: []summary{{Problem: ClusterOperatorUnavailable, Level: "Error", Type: "API Availability", Since: now.Add(-20 * time.Minute),
				Summary: "Cluster Operator etcd is unavailable (Down)"}},
		},
		{
			name:      "operator degraded 39 minutes: Warning, woken at 40",
			cv:        updatingCV(notFailing),
			operators: []*configv1.ClusterOperator{operatorWith(cvCondition("Available", "True", "", "", started), cvCondition("Degraded", "True", "Broken", "", now.Add(-39*time.Minute)))},
			progress:  progressing(later),
			want: []summary{{Problem: ClusterOperatorDegraded, Level: "Warning", Type: "API Availability", Since: now.Add(-39 * time.Minute),
				Summary: "Cluster Operator etcd is degraded (Broken)"}},
			wantNext: now.Add(time.Minute),
		},
		{
			name:      "operator degraded 40 minutes: Error",
			cv:        updatingCV(notFailing),
			operators: []*configv1.ClusterOperator{operatorWith(cvCondition("Degraded", "True", "Broken", "", now.Add(-40*time.Minute)))},
			progress:  progressing(later),
			want: []summary{{Problem: ClusterOperatorDegraded, Level: "Error", Type: "API Availability", Since: now.Add(-40 * time.Minute),
				Summary: "Cluster Operator etcd is degraded (Broken)"}},
		},
		{
			name:      "operator problems are not update problems when nothing updates",
			cv:        updatingCV(notFailing),
			operators: []*configv1.ClusterOperator{operatorWith(cvCondition("Degraded", "True", "Broken", "", now.Add(-time.Hour)))},
			progress:  &insightsv1alpha1.ClusterVersionProgressInsightStatus{Assessment: insightsv1alpha1.ClusterVersionAssessmentCompleted},
		},
		{
			// The assessment says it, as oc does.
			name: "over 10 minutes past the estimate, Stalled: no insight of its own",
			cv:   updatingCV(notFailing),
			progress: func() *insightsv1alpha1.ClusterVersionProgressInsightStatus {
				p := progressing(now.Add(-11 * time.Minute))
				p.Assessment = insightsv1alpha1.ClusterVersionAssessmentStalled
				return p
			}(),
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			insights, next := ForControlPlane(tc.cv, tc.operators, tc.progress, now)
			if diff := cmp.Diff(tc.want, summarize(insights)); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
			if !next.Equal(tc.wantNext) {
				t.Errorf("next change at %v, want %v", next, tc.wantNext)
			}
			for _, i := range insights {
				if i.Status.Remediation.Reference == "" || i.Status.Scope.Type != insightsv1alpha1.ScopeTypeControlPlane || len(i.Status.Scope.Resources) != 1 {
					t.Errorf("insight %s lacks a reference or a control plane scope naming its object: %+v", i.Name, i.Status)
				}
			}
		})
	}
}

func TestAProblemKeepsItsNameAsItWorsens(t *testing.T) {
	warning, _ := ForControlPlane(updatingCV(notFailing), []*configv1.ClusterOperator{operatorWith(cvCondition("Degraded", "True", "Broken", "", now.Add(-10*time.Minute)))}, progressing(now.Add(time.Hour)), now)
	errorLevel, _ := ForControlPlane(updatingCV(notFailing), []*configv1.ClusterOperator{operatorWith(cvCondition("Degraded", "True", "NewReason", "", now.Add(-50*time.Minute)))}, progressing(now.Add(time.Hour)), now)
	if len(warning) != 1 || len(errorLevel) != 1 {
		t.Fatalf("got %d and %d insights, want one each", len(warning), len(errorLevel))
	}
	if warning[0].Name != errorLevel[0].Name {
		t.Errorf("the same operator's degradation is named %s as a Warning and %s as an Error", warning[0].Name, errorLevel[0].Name)
	}
}

func TestSummariesFitTheAPI(t *testing.T) {
	long := cvCondition("Degraded", "True", "Reason\nwith a newline and "+string(make([]byte, 300)), "", now.Add(-time.Hour))
	insights, _ := ForControlPlane(updatingCV(notFailing), []*configv1.ClusterOperator{operatorWith(long)}, progressing(now.Add(time.Hour)), now)
	if s := insights[0].Status.Impact.Summary; len(s) > 256 || len(s) == 0 {
		t.Errorf("summary of %d bytes, want 1..256", len(s))
	}
}

// A health insight quotes the condition behind it whole, up to a Kubernetes
// condition message's bound; beyond it, the cut is said and the condition
// named, so that the whole message can always be read.
func TestDescriptionsQuoteConditionsWholeOrSayWhere(t *testing.T) {
	// machine-config's recorded Available message is 1,700 bytes; a long
	// list of invalid fields runs to many more.
	field := "status.controllerCertificates[0].notAfter: Required value, "
	testCases := []struct {
		name    string
		message string
		want    string
	}{
		{name: "a long message, whole", message: strings.Repeat(field, 100), want: strings.Repeat(field, 100)},
		{name: "longer than a condition may be: cut, saying where", message: strings.Repeat(field, 1000),
			want: strings.Repeat(field, 1000)[:32663] + "… (cut at 32663 of 59000 bytes; the whole text is in ClusterOperator/etcd status.conditions[Available])"},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			unavailable := operatorWith(cvCondition("Available", "False", "Down", tc.message, now.Add(-time.Hour)))
			insights, _ := ForControlPlane(updatingCV(notFailing), []*configv1.ClusterOperator{unavailable}, progressing(now.Add(time.Hour)), now)
			if len(insights) != 1 {
				t.Fatalf("%d insights, want 1", len(insights))
			}
			if got := insights[0].Status.Impact.Description; got != tc.want {
				t.Errorf("description of %d bytes ends %q, want %d bytes ending %q", len(got), got[max(0, len(got)-120):], len(tc.want), tc.want[len(tc.want)-120:])
			}
		})
	}
}
