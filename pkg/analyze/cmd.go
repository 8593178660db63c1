package analyze

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/output"
)

// NewCommand returns the `analyze` command.
func NewCommand(clock clock.PassiveClock) *cobra.Command {
	var (
		paths  Paths
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
    --now 2024-08-02T10:13:00.000368975Z`,
		Args: cobra.NoArgs,
		// The caller prints the error, on one line; usage would bury it.
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			at := clock.Now()
			if now != "" {
				var err error
				if at, err = time.Parse(time.RFC3339Nano, now); err != nil {
					return fmt.Errorf("--now %q is not an RFC 3339 time such as 2024-08-02T10:13:00.5Z", now)
				}
			}
			if format != "yaml" && format != "json" {
				return fmt.Errorf("-o %q: want yaml or json", format)
			}
			cluster, err := Load(paths)
			if err != nil {
				return output.OneLine(err)
			}
			return write(cmd.OutOrStdout(), Insights(cluster, at), format)
		},
	}
	flags := cmd.Flags()
	flags.StringVar(&paths.ClusterVersions, "cluster-version", "", "File or folder holding the ClusterVersion (required).")
	flags.StringVar(&paths.ClusterOperators, "cluster-operators", "", "File or folder holding the ClusterOperators.")
	flags.StringVar(&paths.MachineConfigPools, "machine-config-pools", "", "File or folder holding the MachineConfigPools.")
	flags.StringVar(&paths.MachineConfigs, "machine-configs", "", "File or folder holding the MachineConfigs.")
	flags.StringVar(&paths.Nodes, "nodes", "", "File or folder holding the Nodes.")
	flags.StringVar(&paths.Deployments, "deployments", "", "File or folder holding the openshift-machine-config-operator/machine-config-operator Deployment (tells whether machine-config runs its target image).")
	flags.StringVar(&now, "now", "", "The time to analyze at, RFC 3339 with optional fractional seconds (default: the current time).")
	flags.StringVarP(&format, "output", "o", "yaml", "Output format: yaml or json.")
	return cmd
}

type list struct {
	APIVersion string    `json:"apiVersion"`
	Kind       string    `json:"kind"`
	Items      []Insight `json:"items"`
}

func write(w io.Writer, insights []Insight, format string) error {
	l := list{APIVersion: "v1", Kind: "List", Items: insights}
	if l.Items == nil {
		l.Items = []Insight{}
	}
	return output.Write(w, l, format)
}
