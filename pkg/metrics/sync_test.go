package metrics

import (
	"errors"
	"strings"
	"testing"
	"time"

	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/testutil"
)

func TestObserveSync(t *testing.T) {
	type observation struct {
		controller string
		took       time.Duration
		err        error
	}
	tests := []struct {
		name  string
		syncs []observation
		want  string
	}{
		{
			name: "no sync",
			want: "",
		},
		{
			name: "errors counted per controller, durations whatever the outcome",
			syncs: []observation{
				{controller: "a", took: 250 * time.Millisecond},
				{controller: "a", took: 2 * time.Second, err: errors.New("conflict")},
				{controller: "b", took: 500 * time.Millisecond},
			},
			want: `
# HELP update_insights_controller_sync_duration_seconds [ALPHA] Time one sync of a controller took, whether or not it succeeded.
# TYPE update_insights_controller_sync_duration_seconds histogram
update_insights_controller_sync_duration_seconds_bucket{controller="a",le="0.001"} 0
update_insights_controller_sync_duration_seconds_bucket{controller="a",le="0.002"} 0
update_insights_controller_sync_duration_seconds_bucket{controller="a",le="0.004"} 0
update_insights_controller_sync_duration_seconds_bucket{controller="a",le="0.008"} 0
update_insights_controller_sync_duration_seconds_bucket{controller="a",le="0.016"} 0
update_insights_controller_sync_duration_seconds_bucket{controller="a",le="0.032"} 0
update_insights_controller_sync_duration_seconds_bucket{controller="a",le="0.064"} 0
update_insights_controller_sync_duration_seconds_bucket{controller="a",le="0.128"} 0
update_insights_controller_sync_duration_seconds_bucket{controller="a",le="0.256"} 1
update_insights_controller_sync_duration_seconds_bucket{controller="a",le="0.512"} 1
update_insights_controller_sync_duration_seconds_bucket{controller="a",le="1.024"} 1
update_insights_controller_sync_duration_seconds_bucket{controller="a",le="2.048"} 2
update_insights_controller_sync_duration_seconds_bucket{controller="a",le="4.096"} 2
update_insights_controller_sync_duration_seconds_bucket{controller="a",le="8.192"} 2
update_insights_controller_sync_duration_seconds_bucket{controller="a",le="16.384"} 2
update_insights_controller_sync_duration_seconds_bucket{controller="a",le="32.768"} 2
update_insights_controller_sync_duration_seconds_bucket{controller="a",le="+Inf"} 2
update_insights_controller_sync_duration_seconds_sum{controller="a"} 2.25
update_insights_controller_sync_duration_seconds_count{controller="a"} 2
update_insights_controller_sync_duration_seconds_bucket{controller="b",le="0.001"} 0
update_insights_controller_sync_duration_seconds_bucket{controller="b",le="0.002"} 0
update_insights_controller_sync_duration_seconds_bucket{controller="b",le="0.004"} 0
update_insights_controller_sync_duration_seconds_bucket{controller="b",le="0.008"} 0
update_insights_controller_sync_duration_seconds_bucket{controller="b",le="0.016"} 0
update_insights_controller_sync_duration_seconds_bucket{controller="b",le="0.032"} 0
update_insights_controller_sync_duration_seconds_bucket{controller="b",le="0.064"} 0
update_insights_controller_sync_duration_seconds_bucket{controller="b",le="0.128"} 0
update_insights_controller_sync_duration_seconds_bucket{controller="b",le="0.256"} 0
update_insights_controller_sync_duration_seconds_bucket{controller="b",le="0.512"} 1
update_insights_controller_sync_duration_seconds_bucket{controller="b",le="1.024"} 1
update_insights_controller_sync_duration_seconds_bucket{controller="b",le="2.048"} 1
update_insights_controller_sync_duration_seconds_bucket{controller="b",le="4.096"} 1
update_insights_controller_sync_duration_seconds_bucket{controller="b",le="8.192"} 1
update_insights_controller_sync_duration_seconds_bucket{controller="b",le="16.384"} 1
update_insights_controller_sync_duration_seconds_bucket{controller="b",le="32.768"} 1
update_insights_controller_sync_duration_seconds_bucket{controller="b",le="+Inf"} 1
update_insights_controller_sync_duration_seconds_sum{controller="b"} 0.5
update_insights_controller_sync_duration_seconds_count{controller="b"} 1
# HELP update_insights_controller_sync_errors_total [ALPHA] Number of syncs of a controller that returned an error, and so were requeued with backoff.
# TYPE update_insights_controller_sync_errors_total counter
update_insights_controller_sync_errors_total{controller="a"} 1
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Vectors and registry of the test's own, so that no test sees
			// another's observations.
			duration, syncErrors := newSyncDuration(), newSyncErrors()
			registry := metrics.NewKubeRegistry()
			registry.MustRegister(duration, syncErrors)

			for _, s := range tt.syncs {
				observeSync(duration, syncErrors, s.controller, s.took, s.err)
			}
			err := testutil.GatherAndCompare(registry, strings.NewReader(tt.want),
				"update_insights_controller_sync_duration_seconds", "update_insights_controller_sync_errors_total")
			if err != nil {
				t.Error(err)
			}
		})
	}
}

// TestObserveSyncUnregistered guards the controllers, which observe their
// syncs whether or not the operator registered the metrics, e.g. in tests.
func TestObserveSyncUnregistered(t *testing.T) {
	// No test registers the process-wide vectors, so this must not panic.
	ObserveSync("a", time.Second, errors.New("conflict"))

	duration, syncErrors := newSyncDuration(), newSyncErrors()
	observeSync(duration, syncErrors, "a", time.Second, errors.New("conflict"))

	registry := metrics.NewKubeRegistry()
	registry.MustRegister(duration, syncErrors)
	err := testutil.GatherAndCompare(registry, strings.NewReader(""),
		"update_insights_controller_sync_duration_seconds", "update_insights_controller_sync_errors_total")
	if err != nil {
		t.Errorf("observations before registration were kept: %v", err)
	}
}
