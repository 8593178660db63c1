// Command update-insights-operator maintains insights that tell how an
// OpenShift cluster update is going.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/component-base/cli"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/cmd/analyze"
	"github.com/update-insights/update-insights-operator/pkg/cmd/history"
	"github.com/update-insights/update-insights-operator/pkg/cmd/informer"
	"github.com/update-insights/update-insights-operator/pkg/cmd/prechecks"
	"github.com/update-insights/update-insights-operator/pkg/cmd/serveplugin"
	"github.com/update-insights/update-insights-operator/pkg/cmd/start"
	"github.com/update-insights/update-insights-operator/pkg/cmd/status"
	"github.com/update-insights/update-insights-operator/pkg/cmd/upgrade"
	"github.com/update-insights/update-insights-operator/pkg/cmd/version"
	"github.com/update-insights/update-insights-operator/pkg/output"
)

func main() {
	// Errors are printed on one plain line, not as a log entry: most
	// commands are run by people, not as a service.
	if err := cli.RunNoErrOutput(newRootCommand(context.Background())); err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(output.ExitCode(err))
	}
}

func newRootCommand(ctx context.Context) *cobra.Command {
	root := &cobra.Command{
		Use:   "update-insights-operator",
		Short: "Tells cluster administrators how an OpenShift update is going",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmd.Help()
		},
	}
	root.AddCommand(start.NewCommand(ctx), analyze.NewCommand(clock.RealClock{}), status.NewCommand(clock.RealClock{}),
		prechecks.NewCommand(clock.RealClock{}), upgrade.NewCommand(clock.RealClock{}), history.NewCommand(clock.RealClock{}), informer.NewCommand(ctx, clock.RealClock{}), serveplugin.NewCommand(ctx), version.NewCommand())
	return root
}
