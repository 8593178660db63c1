package nodes

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestPerNodeTimesLearnFromTheRecordsUntilANodeFinishes(t *testing.T) {
	past := func(pool string) (time.Duration, time.Duration, bool) {
		if pool != "worker" {
			return 0, 0, false
		}
		return 12 * time.Minute, 19 * time.Minute, true
	}
	tests := []struct {
		name     string
		times    *PerNodeTimes
		observed []time.Duration
		pool     string
		want     []any
	}{
		{name: "no record, no node: the default", times: &PerNodeTimes{}, pool: "worker", want: []any{DefaultPerNodeTime, false}},
		{name: "a record: its median, a range", times: &PerNodeTimes{Past: past}, pool: "worker", want: []any{12 * time.Minute, true}},
		{name: "a pool no record timed: the default", times: &PerNodeTimes{Past: past}, pool: "infra", want: []any{DefaultPerNodeTime, false}},
		{name: "a node seen to finish: what this update shows", times: &PerNodeTimes{Past: past}, observed: []time.Duration{7 * time.Minute}, pool: "worker",
			want: []any{7 * time.Minute, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, d := range tt.observed {
				tt.times.Observe(tt.pool, d)
			}
			_, _, learned := tt.times.Learned(tt.pool)
			if diff := cmp.Diff(tt.want, []any{tt.times.Expected(tt.pool), learned}); diff != "" {
				t.Errorf("expected, learned (-want +got):\n%s", diff)
			}
		})
	}
}
