package status

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	configclient "github.com/openshift/client-go/config/clientset/versioned"
	"github.com/spf13/cobra"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
	"github.com/update-insights/update-insights-operator/pkg/output"
	"github.com/update-insights/update-insights-operator/pkg/recorded"
)

// detailLevels are the values of --details, as oc takes them.
var detailLevels = map[string]Details{
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

	loadingRules *clientcmd.ClientConfigLoadingRules
	overrides    clientcmd.ConfigOverrides
}

// NewCommand returns the `status` command.
func NewCommand(clock clock.PassiveClock) *cobra.Command {
	o := &options{loadingRules: clientcmd.NewDefaultClientConfigLoadingRules()}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show how the cluster's update is going, as oc adm upgrade status does",
		Long: `Shows how the cluster's update is going, in the layout and wording of
oc adm upgrade status: the control plane, its nodes, the worker pools and
their nodes, and the health of the update. It reads the insights the
operator maintains from the cluster, or with --from from a file such as
analyze prints, instead of computing them anew.`,
		Example: `  update-insights-operator status --details=all
  update-insights-operator status --watch
  update-insights-operator analyze --cluster-version cv.yaml --cluster-operators co.yaml >insights.yaml
  update-insights-operator status --from insights.yaml -o json`,
		Args: cobra.NoArgs,
		// The caller prints the error, on one line; usage would bury it.
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd, clock)
		},
	}
	flags := cmd.Flags()
	flags.StringVar(&o.details, "details", "none", "Show details for: none, all, nodes, health or operators (text output only).")
	flags.StringVar(&o.from, "from", "", "Read the insights from a file or folder, such as what analyze prints, instead of the cluster.")
	flags.StringVar(&o.now, "now", "", "The time to render durations at, RFC 3339 with optional fractional seconds (default: the current time).")
	flags.StringVarP(&o.output, "output", "o", "", "Output format: empty for text, json or yaml. Structured output holds everything, whatever --details.")
	flags.BoolVarP(&o.watch, "watch", "w", false, "Redraw as the insights in the cluster change, until interrupted.")
	flags.StringVar(&o.loadingRules.ExplicitPath, "kubeconfig", "", "Path to the kubeconfig file to use for CLI requests.")
	clientcmd.BindOverrideFlags(&o.overrides, flags, clientcmd.RecommendedConfigOverrideFlags(""))
	return cmd
}

func (o *options) run(cmd *cobra.Command, clock clock.PassiveClock) error {
	details, ok := detailLevels[o.details]
	if !ok {
		return fmt.Errorf("--details %q: want none, all, nodes, health or operators", o.details)
	}
	if o.output != "" && o.output != "json" && o.output != "yaml" {
		return fmt.Errorf("-o %q: want json or yaml, or no -o for text", o.output)
	}
	now := clock.Now()
	if o.now != "" {
		var err error
		if now, err = time.Parse(time.RFC3339Nano, o.now); err != nil {
			return fmt.Errorf("--now %q is not an RFC 3339 time such as 2024-08-02T10:13:00.5Z", o.now)
		}
	}
	if o.watch {
		if o.from != "" || o.now != "" || o.output != "" {
			return errors.New("--watch follows the cluster as it changes: it takes neither --from, --now nor -o")
		}
		return o.runWatch(cmd, clock, details)
	}
	in, err := o.insights(cmd.Context())
	if err != nil {
		return err
	}
	s, err := Build(in, now)
	if err != nil {
		return err
	}
	return write(cmd.OutOrStdout(), s, details, o.output)
}

func (o *options) runWatch(cmd *cobra.Command, clock clock.PassiveClock, details Details) error {
	c, err := o.clients()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return watch(ctx, c, cmd.OutOrStdout(), clock, details)
}

// insights reads the insights from --from, or else from the cluster.
func (o *options) insights(ctx context.Context) (*Insights, error) {
	if o.from != "" {
		return readInsights(o.from)
	}
	c, err := o.clients()
	if err != nil {
		return nil, err
	}
	return list(ctx, c)
}

func (o *options) clients() (clients, error) {
	config, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(o.loadingRules, &o.overrides).ClientConfig()
	if err != nil {
		return clients{}, output.OneLine(err)
	}
	insights, err := versioned.NewForConfig(config)
	if err != nil {
		return clients{}, err
	}
	configClient, err := configclient.NewForConfig(config)
	if err != nil {
		return clients{}, err
	}
	return clients{insights: insights, config: configClient}, nil
}

// readInsights reads the insights in a file or folder, which must hold a
// ClusterVersion insight. Errors name the file.
func readInsights(path string) (*Insights, error) {
	objects, err := recorded.Read(path)
	if err != nil {
		return nil, output.OneLine(err)
	}
	in, err := InsightsOf(objects)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(in.ClusterVersions) == 0 {
		return nil, fmt.Errorf("%s: holds no ClusterVersionProgressInsight", path)
	}
	return in, nil
}

func write(w io.Writer, s *Status, details Details, format string) error {
	if format == "" {
		return WriteText(w, s, details)
	}
	return output.Write(w, s, format)
}
