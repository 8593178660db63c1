package drain

import (
	"testing"
	"time"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// A block is a Warning after MCO's first refused attempt and an Error once
// MCO would raise its drain error.
func TestLevel(t *testing.T) {
	block := Pod{Verdict: Blocking, Reason: BudgetAtLimit, Since: started}
	precheck := Policy{WarnAfter: 0}
	for _, tc := range []struct {
		name   string
		pod    Pod
		policy Policy
		at     time.Time
		want   insightsv1alpha1.InsightImpactLevel
	}{
		{"not blocking", Pod{Verdict: Evicted}, MCO, started.Add(2 * time.Hour), ""},
		{"skipped", Pod{Verdict: Skipped, Reason: DaemonSetPod}, MCO, started.Add(2 * time.Hour), ""},
		{"within the first attempt", block, MCO, started.Add(89 * time.Second), ""},
		{"the first attempt refused", block, MCO, started.Add(90 * time.Second), insightsv1alpha1.WarningImpactLevel},
		{"short of the drain error", block, MCO, started.Add(59 * time.Minute), insightsv1alpha1.WarningImpactLevel},
		{"the drain error", block, MCO, started.Add(time.Hour), insightsv1alpha1.ErrorImpactLevel},
		{"a clock behind the block", block, MCO, started.Add(-time.Hour), ""},
		{"a block whose start is not known has just begun", Pod{Verdict: Blocking}, MCO, started, ""},
		{"no wait warns at once", Pod{Verdict: Blocking}, precheck, started, insightsv1alpha1.WarningImpactLevel},
		{"no ErrorAfter never errs", block, precheck, started.Add(24 * time.Hour), insightsv1alpha1.WarningImpactLevel},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.pod.Level(tc.policy, tc.at); got != tc.want {
				t.Errorf("Level = %q, want %q", got, tc.want)
			}
		})
	}
}
