// Package status is the `status` command: how the cluster's update is going,
// as `oc adm upgrade status` tells it, drawn from the insights.
package status

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/cmd/flags"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/output"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
	"github.com/update-insights/update-insights-operator/pkg/statusview/cluster"
)

// detailLevels are the values of --details, as oc takes them.
var detailLevels = map[string]statusview.Details{
	"none":      {},
	"all":       {Operators: true, Nodes: true, Health: true},
	"nodes":     {Nodes: true},
	"health":    {Health: true},
	"operators": {Operators: true},
}

type options struct {
	details string
	from    string
	now     string
	output  string
	watch   bool
	// hostedClusters and hostedCluster ask, on a HyperShift management
	// cluster, for its hosted clusters or for one of them.
	hostedClusters bool
	hostedCluster  string
	kube           *flags.Kubeconfig
}

// NewCommand returns the `status` command.
func NewCommand(clock clock.PassiveClock) *cobra.Command {
	o := &options{}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show how the cluster's update is going, as oc adm upgrade status does",
		Long: `Shows how the cluster's update is going, in the layout and wording of
oc adm upgrade status: the control plane, its nodes, the worker pools and
their nodes, and the health of the update. It reads the insights the
operator maintains from the cluster, or with --from from a file such as
analyze prints, instead of computing them anew. On a HyperShift management
cluster, --hosted-clusters and --hosted-cluster show its hosted clusters'
updates instead.`,
		Example: `  update-insights-operator status --details=all
  update-insights-operator status --watch
  update-insights-operator analyze --cluster-version cv.yaml --cluster-operators co.yaml >insights.yaml
  update-insights-operator status --from insights.yaml -o json
  update-insights-operator status --hosted-clusters
  update-insights-operator status --hosted-cluster clusters/ledger`,
		Args: cobra.NoArgs,
		// The caller prints the error, on one line; usage would bury it.
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd, clock)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.details, "details", "none", "Show details for: none, all, nodes, health or operators (text output only).")
	fs.StringVar(&o.from, "from", "", "Read the insights from a file or folder, such as what analyze prints, instead of the cluster.")
	fs.StringVar(&o.now, "now", "", "The time to render durations at, RFC 3339 with optional fractional seconds (default: the current time).")
	fs.StringVarP(&o.output, "output", "o", "", "Output format: empty for text, json or yaml. Structured output holds everything, whatever --details.")
	fs.BoolVarP(&o.watch, "watch", "w", false, "Redraw as the insights in the cluster change, until interrupted.")
	fs.BoolVar(&o.hostedClusters, "hosted-clusters", false, "On a HyperShift management cluster: one line per hosted cluster, those that need attention first.")
	fs.StringVar(&o.hostedCluster, "hosted-cluster", "", "On a HyperShift management cluster: the update of the hosted cluster NAMESPACE/NAME, its control plane and each NodePool.")
	o.kube = flags.NewKubeconfig(fs)
	return cmd
}

func (o *options) run(cmd *cobra.Command, clock clock.PassiveClock) error {
	details, ok := detailLevels[o.details]
	if !ok {
		return fmt.Errorf("--details %q: want none, all, nodes, health or operators", o.details)
	}
	// No -o is text, which only status prints.
	var format output.Format
	if o.output != "" {
		var err error
		if format, err = flags.Format(o.output); err != nil {
			return err
		}
	}
	now, err := flags.Now(o.now, clock)
	if err != nil {
		return err
	}
	if hosted, err := o.hosted(); hosted || err != nil {
		if err != nil {
			return err
		}
		return o.runHosted(cmd, now, format)
	}
	if o.watch {
		if o.from != "" || o.now != "" || o.output != "" {
			return errors.New("--watch follows the cluster as it changes: it takes neither --from, --now nor -o")
		}
		return o.runWatch(cmd, clock, details)
	}
	in, err := o.insights(cmd)
	if err != nil {
		return err
	}
	s, err := statusview.Build(in, now)
	if err != nil {
		return err
	}
	if format == "" {
		err = statusview.WriteText(cmd.OutOrStdout(), s, details)
	} else {
		err = output.Write(cmd.OutOrStdout(), s, format)
	}
	if err != nil {
		return err
	}
	return staleExit(s.Liveness)
}

// Exit codes of a status printed that may be stale, so that scripts notice
// as people do from the first line.
const (
	// ExitNotRunning: the operator does not run, so the insights are not
	// kept up to date.
	ExitNotRunning = 3
	// ExitLivenessUnknown: whether the operator runs could not be told.
	ExitLivenessUnknown = 4
)

// staleExit is the error that ends a status that may be stale with its
// exit code; nil when the operator runs or the Lease was not read.
func staleExit(l *statusview.Liveness) error {
	switch {
	case l.Current():
		return nil
	case l.State == statusview.OperatorUnknown:
		return &output.ExitError{Code: ExitLivenessUnknown, Err: fmt.Errorf("could not tell whether the %s operator is running, so what status printed may be stale (the first warning says why)", names.OwnClusterOperator)}
	case l.StaleSince != nil:
		return &output.ExitError{Code: ExitNotRunning, Err: fmt.Errorf("the %s operator is not running, so what status printed may be stale since %s", names.OwnClusterOperator, l.StaleSince.UTC().Format(time.RFC3339))}
	default:
		return &output.ExitError{Code: ExitNotRunning, Err: fmt.Errorf("the %s operator is not running, so what status printed may be stale", names.OwnClusterOperator)}
	}
}

func (o *options) runWatch(cmd *cobra.Command, clock clock.PassiveClock, details statusview.Details) error {
	c, err := o.clients()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return cluster.Watch(ctx, c, cmd.OutOrStdout(), clock, details)
}

// insights reads the insights from --from, or else from the cluster.
func (o *options) insights(cmd *cobra.Command) (*statusview.Insights, error) {
	if o.from != "" {
		return statusview.ReadInsights(o.from)
	}
	c, err := o.clients()
	if err != nil {
		return nil, err
	}
	return cluster.List(cmd.Context(), c)
}

func (o *options) clients() (cluster.Clients, error) {
	config, err := o.kube.Config()
	if err != nil {
		return cluster.Clients{}, err
	}
	return cluster.NewClients(config)
}
