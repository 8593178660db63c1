// Package start is the `start` command: the operator itself.
package start

import (
	"context"

	"github.com/openshift/library-go/pkg/controller/controllercmd"
	"github.com/spf13/cobra"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/operator"
	"github.com/update-insights/update-insights-operator/pkg/version"
)

// NewCommand returns the `start` command, which runs the operator's
// controllers under library-go's controllercmd: leader election on a Lease in
// the operator namespace, a metrics and health endpoint, and a context that
// SIGTERM cancels.
func NewCommand(ctx context.Context) *cobra.Command {
	options := operator.NewOptions()
	config := controllercmd.NewControllerCommandConfig(names.Component, version.Get(), options.Run, clock.RealClock{})
	cmd := config.NewCommandWithContext(ctx)
	cmd.Use = "start"
	cmd.Short = "Start the operator"

	// The defaults (137s/107s/26s) suit a cluster; tests and local runs
	// shorten them so that a standby takes over in seconds.
	flags := cmd.Flags()
	flags.DurationVar(&config.LeaseDuration.Duration, "leader-election-lease-duration", 0,
		"How long a standby waits before taking a lease that has not been renewed (0: library-go's default).")
	flags.DurationVar(&config.RenewDeadline.Duration, "leader-election-renew-deadline", 0,
		"How long the leader keeps retrying to renew its lease before giving up (0: library-go's default).")
	flags.DurationVar(&config.RetryPeriod.Duration, "leader-election-retry-period", 0,
		"How often candidates try to acquire or renew the lease (0: library-go's default).")
	flags.DurationVar(&options.DegradedGracePeriod, "degraded-grace-period", options.DegradedGracePeriod,
		"How long a controller's problem (failing syncs, rejected writes, caches not syncing) lasts before the operator reports itself Degraded.")
	flags.DurationVar(&options.OptionalAPIInterval, "optional-api-interval", options.OptionalAPIInterval,
		"How often to look whether the cluster serves an API that a controller switched off for its absence needs (such as MachineConfigPools).")
	flags.StringVar(&options.AlertsURL, "alerts-url", options.AlertsURL,
		"The Prometheus API's alerts endpoint, read while an update is in progress to report firing alerts (empty: do not report alerts).")
	flags.StringVar(&options.AlertsCAFile, "alerts-ca-file", options.AlertsCAFile,
		"PEM CA bundle that verifies the alerts endpoint's https server (empty: the system's CAs).")
	flags.StringVar(&options.AlertsTokenFile, "alerts-token-file", options.AlertsTokenFile,
		"Bearer token presented to the alerts endpoint over https (empty: none).")
	flags.DurationVar(&options.AlertsInterval, "alerts-interval", options.AlertsInterval,
		"How often the alerts are read while an update is in progress.")
	flags.DurationVar(&options.InformerInterval, "informer-interval", options.InformerInterval,
		"How often the UpdateInformers are asked for their insights while an update is pending (and the CA Secrets they name are read).")
	flags.DurationVar(&options.PlanTTL, "plan-ttl", options.PlanTTL,
		"How long an UpdatePlan no one touched is kept before it is deleted.")
	flags.BoolVar(&options.EnableConsolePlugin, "enable-console-plugin", options.EnableConsolePlugin,
		"Add the console plugin to the console's enabled plugins (spec.plugins of consoles.operator.openshift.io/cluster) once the cluster serves ConsolePlugins; "+
			"it is added once, so that an administrator may disable it (false: leave the console's plugins as they are).")
	return cmd
}
