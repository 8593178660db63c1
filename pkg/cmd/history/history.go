// Package history is the `history` command: the cluster's recorded
// updates, and the postmortem of one, from its UpdateRecords.
package history

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/cmd/flags"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
	"github.com/update-insights/update-insights-operator/pkg/historyview"
	"github.com/update-insights/update-insights-operator/pkg/output"
)

type options struct {
	from   string
	now    string
	output string
	kube   *flags.Kubeconfig
}

// NewCommand returns the `history` command.
func NewCommand(clock clock.PassiveClock) *cobra.Command {
	o := &options{}
	cmd := &cobra.Command{
		Use:   "history [VERSION]",
		Short: "List the cluster's recorded updates, or tell what one took",
		Long: `Lists the updates the operator recorded, the newest first: from and to,
when each started, how long its control plane took, its stalls and how far
off the estimate was. With a VERSION (or a record's name), prints that
update's postmortem: a timeline, the slowest ClusterOperators, every stall
with its cause and duration, and each estimate against the completion.
It reads the UpdateRecords, which a read-only administrator may.`,
		Example: `  update-insights-operator history
  oc get urec -o yaml >records.yaml; update-insights-operator history --from records.yaml
  update-insights-operator history 4.16.12
  update-insights-operator history 4.16.12 -o json`,
		Args:          cobra.MaximumNArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd, args, clock)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.from, "from", "", "Read the UpdateRecords from a file or folder, such as oc get urec -o yaml prints, instead of the cluster.")
	fs.StringVar(&o.now, "now", "", "The time to render an update in progress at, RFC 3339 (default: the current time).")
	fs.StringVarP(&o.output, "output", "o", "", "Output format: empty for text, json or yaml.")
	o.kube = flags.NewKubeconfig(fs)
	return cmd
}

func (o *options) run(cmd *cobra.Command, args []string, clock clock.PassiveClock) error {
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
	records, err := o.records(cmd)
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if len(args) == 0 {
		h := historyview.List(records, now)
		if format == "" {
			return historyview.WriteList(w, &h)
		}
		return output.Write(w, h, format)
	}
	r, err := historyview.Find(records, args[0])
	if err != nil {
		return err
	}
	p := historyview.Build(r, now)
	if format == "" {
		return historyview.WritePostmortem(w, &p)
	}
	return output.Write(w, p, format)
}

// errNoRecords says the cluster serves no UpdateRecords.
var errNoRecords = errors.New("the cluster serves no UpdateRecords: the update insights operator that records updates is not installed")

// records reads the UpdateRecords from --from, or else from the cluster.
func (o *options) records(cmd *cobra.Command) ([]insightsv1alpha1.UpdateRecord, error) {
	if o.from != "" {
		return historyview.ReadRecords(o.from)
	}
	config, err := o.kube.Config()
	if err != nil {
		return nil, err
	}
	c, err := versioned.NewForConfig(config)
	if err != nil {
		return nil, err
	}
	list, err := c.InsightsV1alpha1().UpdateRecords().List(cmd.Context(), metav1.ListOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return nil, errNoRecords
	case err != nil:
		return nil, output.OneLine(fmt.Errorf("listing UpdateRecords: %w", err))
	}
	return list.Items, nil
}
