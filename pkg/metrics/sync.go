package metrics

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
)

var (
	// SyncDuration is how long each controller's syncs take.
	SyncDuration = newSyncDuration()
	// SyncErrors counts each controller's failed syncs.
	SyncErrors = newSyncErrors()

	registerSyncOnce sync.Once
)

// newSyncDuration and newSyncErrors exist so that tests can observe into
// vectors of their own instead of the process-wide ones.
func newSyncDuration() *metrics.HistogramVec {
	return metrics.NewHistogramVec(&metrics.HistogramOpts{
		Name: "update_insights_controller_sync_duration_seconds",
		Help: "Time one sync of a controller took, whether or not it succeeded.",
		// 1ms to ~33s: from a sync served from caches to one stuck on slow
		// API calls.
		Buckets:        metrics.ExponentialBuckets(0.001, 2, 16),
		StabilityLevel: metrics.ALPHA,
	}, []string{"controller"})
}

func newSyncErrors() *metrics.CounterVec {
	return metrics.NewCounterVec(&metrics.CounterOpts{
		Name:           "update_insights_controller_sync_errors_total",
		Help:           "Number of syncs of a controller that returned an error, and so were requeued with backoff.",
		StabilityLevel: metrics.ALPHA,
	}, []string{"controller"})
}

// ObserveSync records one sync of a controller. Before Register it does
// nothing, because unregistered component-base vectors hand out no-op metrics.
func ObserveSync(controller string, took time.Duration, err error) {
	observeSync(SyncDuration, SyncErrors, controller, took, err)
}

func observeSync(duration *metrics.HistogramVec, errors *metrics.CounterVec, controller string, took time.Duration, err error) {
	duration.WithLabelValues(controller).Observe(took.Seconds())
	if err != nil {
		errors.WithLabelValues(controller).Inc()
	}
}

// Register serves the sync and informer call metrics and the given collectors on legacyregistry,
// which library-go's controllercmd exposes on /metrics. The sync metrics are
// registered once however often Register is called; the collectors each time,
// so each must be given once.
func Register(collectors ...metrics.StableCollector) {
	registerSyncOnce.Do(func() {
		legacyregistry.MustRegister(SyncDuration, SyncErrors, InformerCalls, InformerCallDuration)
	})
	legacyregistry.CustomMustRegister(collectors...)
}

// Unregister stops serving the given collectors, so that an operator run
// again in the same process (as the scale benchmarks run it) can register
// collectors over its own caches.
func Unregister(collectors ...metrics.StableCollector) {
	for _, c := range collectors {
		legacyregistry.Registerer().Unregister(c)
		// legacyregistry registers custom collectors with Prometheus's
		// default registry too.
		prometheus.Unregister(c)
	}
}
