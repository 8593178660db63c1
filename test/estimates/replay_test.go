package estimates

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestTheRecordsMakeTheEstimatesBetter(t *testing.T) {
	with, without := Replay(true), Replay(false)
	if with.Updates != 15 || without.Updates != 15 {
		t.Fatalf("replayed %d and %d updates, want 15 each: 6 of each of 3 profiles, the first of each with no update before it", with.Updates, without.Updates)
	}
	for _, p := range Percents {
		if with.ControlPlane[p] >= without.ControlPlane[p] {
			t.Errorf("at %d%%: %.1f minutes off with the records, %.1f without; want fewer with", p, with.ControlPlane[p], without.ControlPlane[p])
		}
	}
	if with.Workers >= without.Workers {
		t.Errorf("the workers: %.1f minutes off with the records, %.1f without; want fewer with", with.Workers, without.Workers)
	}
}

func TestPlayIsTheProfile(t *testing.T) {
	p := Profile{Levels: [][]time.Duration{{10 * time.Minute}, {5 * time.Minute, 5 * time.Minute}}, Workers: 2, PerNode: 10 * time.Minute}
	updates := Play(p, 3, 1)
	for i, u := range updates {
		if len(u.Operators) != 3 || len(u.Nodes) != 2 {
			t.Fatalf("update %d: %d operators and %d nodes, want 3 and 2", i, len(u.Operators), len(u.Nodes))
		}
		// The second level starts when the first completes: its operators
		// complete after it, within 20% of their times.
		low, high := time.Duration(float64(u.Operators[0])+0.8*float64(5*time.Minute)), time.Duration(float64(u.Operators[0])+1.2*float64(5*time.Minute))
		if i == 2 {
			low, high = low+20*time.Minute, high+20*time.Minute
		}
		if u.Operators[1] < low || u.Operators[2] > high || u.ControlPlane != u.Operators[2] {
			t.Errorf("update %d: operators at %v, want the last two within [%s, %s] and the control plane done with the last", i, u.Operators, low, high)
		}
	}
	r := updates[0].Record()
	if diff := cmp.Diff([]any{len(r.ClusterOperators), r.Durations.ControlPlane.Duration, r.Pools[0].NodeTimes.Timed}, []any{3, updates[0].ControlPlane, int32(2)}); diff != "" {
		t.Errorf("the record (-want +got):\n%s", diff)
	}
}
