package operator

import (
	"fmt"
	"os"
	"time"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	alertscontroller "github.com/update-insights/update-insights-operator/pkg/controllers/alerts"
	"github.com/update-insights/update-insights-operator/pkg/controllers/updateinformers"
	"github.com/update-insights/update-insights-operator/pkg/controllers/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/version"
)

const (
	// resyncPeriod is how often informers replay their caches to the
	// controllers: a safety net for a missed event. Controllers whose output
	// depends on time resync on their own schedule.
	resyncPeriod = 10 * time.Minute

	// nodeWorkers sync nodes and pools in parallel, so that one node's
	// slow write does not hold back the others.
	nodeWorkers = 10

	// DefaultDegradedGracePeriod is how long a controller's problem lasts
	// before the operator reports itself Degraded: long enough for a retried
	// conflict or a restarting API server to pass unnoticed, as library-go
	// operators allow.
	DefaultDegradedGracePeriod = 2 * time.Minute

	// DefaultOptionalAPIInterval is how often the operator looks for an API
	// that a controller needs and the cluster does not serve: one discovery
	// request a minute, for a controller started within a minute of its API.
	DefaultOptionalAPIInterval = time.Minute
)

// Options tune the operator.
type Options struct {
	// Version is the version the operator reports in its ClusterOperator.
	Version string
	// DegradedGracePeriod is how long a problem lasts before the operator
	// reports itself Degraded.
	DegradedGracePeriod time.Duration
	// OptionalAPIInterval is how often the operator looks whether the
	// cluster has come to serve an API a controller that is off needs.
	OptionalAPIInterval time.Duration
	// AlertsURL is the Prometheus API's alerts endpoint; empty switches the
	// alerts controller off. AlertsCAFile verifies its server, and
	// AlertsTokenFile holds the token presented to it. AlertsInterval is
	// how often the alerts are read while an update is in progress.
	AlertsURL, AlertsCAFile, AlertsTokenFile string
	AlertsInterval                           time.Duration
	// InformerInterval is how often the UpdateInformers are asked for their
	// insights while an update is pending.
	InformerInterval time.Duration
	// PlanTTL is how long an UpdatePlan no one touched is kept.
	PlanTTL time.Duration
	// EnableConsolePlugin has the operator enable its console plugin in
	// the console's configuration, once; false leaves the console's
	// plugins alone.
	EnableConsolePlugin bool
}

// NewOptions returns the defaults: the release payload's version, from the
// RELEASE_VERSION the payload's Deployment sets, or else the build's.
func NewOptions() *Options {
	v := os.Getenv("RELEASE_VERSION")
	if v == "" {
		v = version.Get().GitVersion
	}
	return &Options{
		Version:             v,
		DegradedGracePeriod: DefaultDegradedGracePeriod,
		OptionalAPIInterval: DefaultOptionalAPIInterval,
		AlertsURL:           alerts.DefaultURL,
		AlertsCAFile:        alerts.DefaultCAFile,
		AlertsTokenFile:     alerts.DefaultTokenFile,
		AlertsInterval:      alertscontroller.DefaultInterval,
		InformerInterval:    updateinformers.DefaultInterval,
		PlanTTL:             updateplan.DefaultTTL,
		EnableConsolePlugin: true,
	}
}

// validate checks the options every run needs. The alerts' are checked
// only when an alerts URL is set (alertsController).
func (o *Options) validate() error {
	if o.InformerInterval <= 0 {
		return fmt.Errorf("--informer-interval %s: want a positive duration", o.InformerInterval)
	}
	if o.PlanTTL <= 0 {
		return fmt.Errorf("--plan-ttl %s: want a positive duration", o.PlanTTL)
	}
	return nil
}
