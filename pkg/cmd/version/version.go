// Package version is the `version` command.
package version

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/update-insights/update-insights-operator/pkg/version"
)

// NewCommand returns the `version` command.
func NewCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the build's version, commit and date",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			v := version.Get()
			fmt.Fprintf(cmd.OutOrStdout(), "update-insights-operator %s (commit %s, built %s, %s %s)\n",
				v.GitVersion, v.GitCommit, v.BuildDate, v.GoVersion, v.Platform)
		},
	}
}
