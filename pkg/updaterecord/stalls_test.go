package updaterecord

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// healthInsight is a health insight of that level and summary about the
// pod a drain waits on, dated by started unless it is zero.
func healthInsight(name string, level insightsv1alpha1.InsightImpactLevel, summary string, started time.Time) insightsv1alpha1.UpdateHealthInsight {
	h := insightsv1alpha1.UpdateHealthInsight{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: insightsv1alpha1.UpdateHealthInsightStatus{
		Scope: insightsv1alpha1.InsightScope{Type: insightsv1alpha1.ScopeTypeWorkerPool, Resources: []insightsv1alpha1.ResourceRef{
			{Resource: "nodes", Name: "worker-a"}, {Resource: "pods", Namespace: "shop", Name: "api-0"},
		}},
		Impact: insightsv1alpha1.InsightImpact{Level: level, Type: insightsv1alpha1.UpdateStalledImpactType, Summary: summary},
	}}
	if !started.IsZero() {
		h.Status.StartedAt = at(started)
	}
	return h
}

func stall(name string, level insightsv1alpha1.InsightImpactLevel, summary string, startedAt *metav1.Time, firstSeen time.Time, endedAt *metav1.Time) insightsv1alpha1.UpdateStall {
	return insightsv1alpha1.UpdateStall{
		Name: name, Level: level, Impact: insightsv1alpha1.UpdateStalledImpactType, Scope: insightsv1alpha1.ScopeTypeWorkerPool,
		Resources: []insightsv1alpha1.ResourceRef{{Resource: "nodes", Name: "worker-a"}, {Resource: "pods", Namespace: "shop", Name: "api-0"}},
		Summary:   summary, StartedAt: startedAt, FirstSeenAt: at(firstSeen), EndedAt: endedAt,
	}
}

func TestStalls(t *testing.T) {
	m := time.Minute
	warn, errl := insightsv1alpha1.WarningImpactLevel, insightsv1alpha1.ErrorImpactLevel
	withStalls := func(observedUntil time.Time, s ...insightsv1alpha1.UpdateStall) *insightsv1alpha1.UpdateRecordStatus {
		r := record(observedUntil)
		r.Stalls = s
		return r
	}
	tests := []struct {
		name     string
		health   []insightsv1alpha1.UpdateHealthInsight
		previous *insightsv1alpha1.UpdateRecordStatus
		resumed  bool
		want     []insightsv1alpha1.UpdateStall
	}{{
		name: "a Warning is a stall from its insight's start; an Info is not; an empty insight is not yet",
		health: []insightsv1alpha1.UpdateHealthInsight{
			healthInsight("drain", warn, "Drain of worker-a held by shop/api-0", now.Add(-14*m)),
			healthInsight("forced", insightsv1alpha1.InfoImpactLevel, "Forced health insight", now),
			{ObjectMeta: metav1.ObjectMeta{Name: "new"}},
		},
		want: []insightsv1alpha1.UpdateStall{stall("drain", warn, "Drain of worker-a held by shop/api-0", atp(now.Add(-14*m)), now, nil)},
	}, {
		name:     "one still active keeps its first sight, takes its new words and its worst level",
		health:   []insightsv1alpha1.UpdateHealthInsight{healthInsight("drain", warn, "Drain held for 20m", now.Add(-20*m))},
		previous: withStalls(now.Add(-m), stall("drain", errl, "Drain held", atp(now.Add(-20*m)), now.Add(-10*m), nil)),
		want:     []insightsv1alpha1.UpdateStall{stall("drain", errl, "Drain held for 20m", atp(now.Add(-20*m)), now.Add(-10*m), nil)},
	}, {
		name:     "an undated insight keeps no start: its first sight stands for it",
		health:   []insightsv1alpha1.UpdateHealthInsight{healthInsight("paused", warn, "Pool worker is paused", time.Time{})},
		previous: withStalls(now.Add(-m), stall("paused", warn, "Pool worker is paused", nil, now.Add(-10*m), nil)),
		want:     []insightsv1alpha1.UpdateStall{stall("paused", warn, "Pool worker is paused", nil, now.Add(-10*m), nil)},
	}, {
		name:     "one gone while watched ends now",
		previous: withStalls(now.Add(-m), stall("drain", warn, "Drain held", atp(now.Add(-20*m)), now.Add(-10*m), nil)),
		want:     []insightsv1alpha1.UpdateStall{stall("drain", warn, "Drain held", atp(now.Add(-20*m)), now.Add(-10*m), atp(now))},
	}, {
		name:     "one gone while no operator ran ends when last seen, said to be so",
		previous: withStalls(now.Add(-40*m), stall("drain", warn, "Drain held", atp(now.Add(-50*m)), now.Add(-45*m), nil)),
		resumed:  true,
		want: func() []insightsv1alpha1.UpdateStall {
			s := stall("drain", warn, "Drain held", atp(now.Add(-50*m)), now.Add(-45*m), atp(now.Add(-40*m)))
			s.EndNotObserved = true
			return []insightsv1alpha1.UpdateStall{s}
		}(),
	}, {
		name:     "one that ended is kept as it ended",
		previous: withStalls(now.Add(-m), stall("drain", warn, "Drain held", atp(now.Add(-20*m)), now.Add(-10*m), atp(now.Add(-5*m)))),
		want:     []insightsv1alpha1.UpdateStall{stall("drain", warn, "Drain held", atp(now.Add(-20*m)), now.Add(-10*m), atp(now.Add(-5*m)))},
	}, {
		name:     "one that returns is reopened from its first sight",
		health:   []insightsv1alpha1.UpdateHealthInsight{healthInsight("drain", warn, "Drain held again", now.Add(-2*m))},
		previous: withStalls(now.Add(-m), stall("drain", warn, "Drain held", atp(now.Add(-20*m)), now.Add(-10*m), atp(now.Add(-5*m)))),
		want:     []insightsv1alpha1.UpdateStall{stall("drain", warn, "Drain held again", atp(now.Add(-20*m)), now.Add(-10*m), nil)},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Next(Input{ClusterVersion: updating(), Health: tt.health, Previous: tt.previous, Resumed: tt.resumed, Now: now})
			if diff := cmp.Diff(tt.want, got.Stalls); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestStallsAreBounded(t *testing.T) {
	previous := record(now.Add(-time.Minute))
	for i := 0; i < insightsv1alpha1.UpdateRecordMaxStalls+2; i++ {
		// Ended ones, the i-th lasting i minutes.
		previous.Stalls = append(previous.Stalls, stall(fmt.Sprintf("ended-%02d", i), insightsv1alpha1.WarningImpactLevel, "held",
			atp(started), started, atp(started.Add(time.Duration(i)*time.Minute))))
	}
	health := []insightsv1alpha1.UpdateHealthInsight{healthInsight("active", insightsv1alpha1.ErrorImpactLevel, "degraded", time.Time{})}
	got := Next(Input{ClusterVersion: updating(), Health: health, Previous: previous, Now: now})
	if n, omitted := len(got.Stalls), got.StallsOmitted; n != insightsv1alpha1.UpdateRecordMaxStalls || omitted != 3 {
		t.Fatalf("%d stalls, %d omitted; want %d and 3", n, omitted, insightsv1alpha1.UpdateRecordMaxStalls)
	}
	kept := map[string]bool{}
	for _, s := range got.Stalls {
		kept[s.Name] = true
	}
	for name, want := range map[string]bool{"active": true, "ended-00": false, "ended-01": false, "ended-02": false, "ended-03": true, "ended-65": true} {
		if kept[name] != want {
			t.Errorf("stall %s kept: %t, want %t (the shortest that ended go first)", name, kept[name], want)
		}
	}
}

func TestStallResourcesAreBounded(t *testing.T) {
	h := healthInsight("many", insightsv1alpha1.WarningImpactLevel, "many nodes", now)
	for i := 0; i < 10; i++ {
		h.Status.Scope.Resources = append(h.Status.Scope.Resources, insightsv1alpha1.ResourceRef{Resource: "nodes", Name: fmt.Sprintf("n-%d", i)})
	}
	got := Next(Input{ClusterVersion: updating(), Health: []insightsv1alpha1.UpdateHealthInsight{h}, Now: now})
	if n := len(got.Stalls[0].Resources); n != insightsv1alpha1.UpdateRecordMaxStallResources {
		t.Errorf("%d resources, want the first %d", n, insightsv1alpha1.UpdateRecordMaxStallResources)
	}
}

func TestStallDuration(t *testing.T) {
	m := time.Minute
	for _, tt := range []struct {
		name  string
		stall insightsv1alpha1.UpdateStall
		want  time.Duration
	}{
		{"dated and ended", stall("a", "Warning", "s", atp(now.Add(-20*m)), now.Add(-10*m), atp(now.Add(-6*m))), 14 * m},
		{"undated and active: from first sight", stall("a", "Warning", "s", nil, now.Add(-10*m), nil), 10 * m},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := StallDuration(&tt.stall, now); got != tt.want {
				t.Errorf("%s, want %s", got, tt.want)
			}
		})
	}
}
