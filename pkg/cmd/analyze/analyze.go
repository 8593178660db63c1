// Package analyze is the `analyze` command: the insights of a recorded
// cluster, computed offline.
package analyze

import (
	"github.com/spf13/cobra"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	"github.com/update-insights/update-insights-operator/pkg/cmd/flags"
	"github.com/update-insights/update-insights-operator/pkg/output"
)

// NewCommand returns the `analyze` command.
func NewCommand(clock clock.PassiveClock) *cobra.Command {
	var (
		paths  analyze.Paths
		now    string
		format string
	)
	cmd := &cobra.Command{
		Use:   "analyze",
		Short: "Compute the insights the operator would write for a recorded cluster",
		Long: `Computes, without an API server, the insights the operator would write for a
recorded cluster state, with the same logic the controllers use. Each input is
a file holding one object, a typed list or a v1 List, or a folder of such
files (a must-gather's cluster-scoped-resources folders work as they are).
Prints a v1 List of the insights.`,
		Example: `  update-insights-operator analyze \
    --cluster-version must-gather/cluster-scoped-resources/config.openshift.io/clusterversions \
    --cluster-operators must-gather/cluster-scoped-resources/config.openshift.io/clusteroperators \
    --machine-config-pools must-gather/cluster-scoped-resources/machineconfiguration.openshift.io/machineconfigpools \
    --machine-configs must-gather/cluster-scoped-resources/machineconfiguration.openshift.io/machineconfigs \
    --nodes must-gather/cluster-scoped-resources/core/nodes \
    --alerts alerts.json \
    --now 2024-08-02T10:13:00.000368975Z`,
		Args: cobra.NoArgs,
		// The caller prints the error, on one line; usage would bury it.
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			at, err := flags.Now(now, clock)
			if err != nil {
				return err
			}
			f, err := flags.Format(format)
			if err != nil {
				return err
			}
			cluster, err := analyze.Load(paths)
			if err != nil {
				return output.OneLine(err)
			}
			list, err := analyze.List(analyze.Insights(cluster, at))
			if err != nil {
				return err
			}
			return output.Write(cmd.OutOrStdout(), list, f)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&paths.ClusterVersions, "cluster-version", "", "File or folder holding the ClusterVersion (required).")
	fs.StringVar(&paths.ClusterOperators, "cluster-operators", "", "File or folder holding the ClusterOperators.")
	fs.StringVar(&paths.MachineConfigPools, "machine-config-pools", "", "File or folder holding the MachineConfigPools.")
	fs.StringVar(&paths.MachineConfigs, "machine-configs", "", "File or folder holding the MachineConfigs.")
	fs.StringVar(&paths.Nodes, "nodes", "", "File or folder holding the Nodes.")
	fs.StringVar(&paths.Deployments, "deployments", "", "File or folder holding the openshift-machine-config-operator/machine-config-operator Deployment (tells whether machine-config runs its target image).")
	fs.StringVar(&paths.Alerts, "alerts", "", "File holding the cluster's alerts, as the Prometheus API's /api/v1/alerts answers them (oc adm inspect-alerts saves it).")
	fs.StringVar(&now, "now", "", "The time to analyze at, RFC 3339 with optional fractional seconds (default: the current time).")
	fs.StringVarP(&format, "output", "o", string(output.YAML), "Output format: yaml or json.")
	return cmd
}
