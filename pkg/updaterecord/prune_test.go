package updaterecord

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// history is records of updates to the versions given, the oldest first,
// a day apart; a version ending in "!" was abandoned.
func history(versions ...string) []insightsv1alpha1.UpdateRecord {
	var out []insightsv1alpha1.UpdateRecord
	for i, v := range versions {
		state := insightsv1alpha1.UpdateRecordCompleted
		if v[len(v)-1] == '!' {
			v, state = v[:len(v)-1], insightsv1alpha1.UpdateRecordAbandoned
		}
		start := started.Add(time.Duration(i) * 24 * time.Hour)
		out = append(out, insightsv1alpha1.UpdateRecord{
			ObjectMeta: metav1.ObjectMeta{Name: Name(v, start)},
			Status:     insightsv1alpha1.UpdateRecordStatus{To: insightsv1alpha1.Version{Version: v}, State: state, StartedAt: metav1.NewTime(start)},
		})
	}
	return out
}

func versionsOf(records []insightsv1alpha1.UpdateRecord, pruned map[string]string) []string {
	var out []string
	for _, r := range records {
		if _, gone := pruned[r.Name]; !gone {
			out = append(out, r.Status.To.Version)
		}
	}
	return out
}

func TestPruned(t *testing.T) {
	for _, tt := range []struct {
		name     string
		versions []string
		max      int
		want     []string
	}{{
		name:     "at or under the limit: none",
		versions: []string{"4.15.1", "4.15.2"},
		max:      2,
		want:     []string{"4.15.1", "4.15.2"},
	}, {
		name: "a partial update within a z-stream goes first, then the oldest of less importance; the first, the newest five and the last of each minor stay",
		versions: []string{
			"4.14.0", "4.14.1", "4.14.2", "4.14.3!", "4.14.3", "4.14.4", "4.15.0", "4.15.1", "4.15.2", "4.15.3", "4.15.4", "4.15.5",
		},
		max:  9,
		want: []string{"4.14.0", "4.14.3", "4.14.4", "4.15.0", "4.15.1", "4.15.2", "4.15.3", "4.15.4", "4.15.5"},
	}, {
		name:     "the newest completed stays however old, behind abandoned ones",
		versions: []string{"4.15.0", "4.15.1", "4.15.2", "4.15.3!", "4.15.4!", "4.15.5!", "4.15.6!", "4.15.7!", "4.15.8!"},
		max:      7,
		want:     []string{"4.15.0", "4.15.2", "4.15.4", "4.15.5", "4.15.6", "4.15.7", "4.15.8"},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			records := history(tt.versions...)
			pruned := Pruned(records, tt.max)
			if diff := cmp.Diff(tt.want, versionsOf(records, pruned)); diff != "" {
				t.Errorf("kept (-want +got):\n%s\npruned: %v", diff, pruned)
			}
			for name, why := range pruned {
				if why == "" {
					t.Errorf("%s is pruned without a reason", name)
				}
			}
		})
	}
}

func TestPrunedKeepsMaxRecords(t *testing.T) {
	var versions []string
	for i := 0; i < MaxRecords+20; i++ {
		versions = append(versions, fmt.Sprintf("4.%d.%d", 10+i/10, i%10))
	}
	records := history(versions...)
	pruned := Pruned(records, MaxRecords)
	if kept := len(records) - len(pruned); kept != MaxRecords {
		t.Errorf("%d kept, want %d", kept, MaxRecords)
	}
	for _, name := range []string{records[0].Name, records[len(records)-1].Name} {
		if _, gone := pruned[name]; gone {
			t.Errorf("%s, the first or the newest, was pruned", name)
		}
	}
}
