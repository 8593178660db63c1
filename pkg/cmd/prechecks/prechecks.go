// Package prechecks is the `pre-checks` command: it asks the operator to
// evaluate an UpdatePlan, waits for the findings, prints them, and records
// the administrator's acceptance of findings.
package prechecks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	configclient "github.com/openshift/client-go/config/clientset/versioned"
	configv1client "github.com/openshift/client-go/config/clientset/versioned/typed/config/v1"
	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/cmd/flags"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/typed/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/output"
	"github.com/update-insights/update-insights-operator/pkg/planview"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
)

// pollInterval is how often the command reads the plan while it waits: a
// read a second stays well under client-go's default rate limit (5 a
// second), and a second is nothing beside an informer's answer.
const pollInterval = time.Second

type options struct {
	to              string
	accept          []string
	acceptAllOf     []string
	details         bool
	quiet           bool
	output          string
	timeout         time.Duration
	allowNotOffered bool
}

// clients are what the command reads and writes: the plans, the Events
// that say why the operator deleted one, and the ClusterVersion, which says
// what the cluster runs and is offered.
type clients struct {
	plans           insightsclient.UpdatePlanInterface
	events          corev1client.EventInterface
	clusterVersions configv1client.ClusterVersionInterface
}

// NewCommand returns the `pre-checks` command.
func NewCommand(clock clock.WithTicker) *cobra.Command {
	return newCommand(clock, func(c *rest.Config) (clients, error) {
		insights, err := versioned.NewForConfig(c)
		if err != nil {
			return clients{}, err
		}
		kube, err := kubernetes.NewForConfig(c)
		if err != nil {
			return clients{}, err
		}
		config, err := configclient.NewForConfig(c)
		if err != nil {
			return clients{}, err
		}
		return clients{plans: insights.InsightsV1alpha1().UpdatePlans(), events: kube.CoreV1().Events(metav1.NamespaceDefault),
			clusterVersions: config.ConfigV1().ClusterVersions()}, nil
	})
}

func newCommand(clock clock.WithTicker, newClients func(*rest.Config) (clients, error)) *cobra.Command {
	o := &options{}
	var kube *flags.Kubeconfig
	cmd := &cobra.Command{
		Use:   "pre-checks --to VERSION",
		Short: "Check what might go wrong with an update to a release, and accept the findings",
		Long: `Asks the operator and every UpdateInformer that handles plans to evaluate
the update to VERSION (creating its UpdatePlan, or refreshing it), waits for
their findings and prints them. With --accept or --accept-all-of it records
that the administrator accepts findings instead, and prints the plan once
the operator shows them accepted.

VERSION must be a release version. A release the cluster already runs is
said so, as oc adm upgrade --to says it, and nothing is created. A release
the cluster is not offered is said so first, then checked as any other: its
UpdatePlan is deleted once printed, unless --allow-not-offered keeps it (to
accept its findings before the release is offered).

It exits 0 only when every informer answered and every finding is accepted:
then upgrade --to VERSION will start the update.`,
		Example: `  update-insights-operator pre-checks --to 4.17.3
  update-insights-operator pre-checks --to 4.17.3 --details
  update-insights-operator pre-checks --to 4.17.3 --accept OVNHang,alerts-unchecked
  update-insights-operator pre-checks --to 4.17.3 --accept update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/risk/OVNHang
  update-insights-operator pre-checks --to 4.17.3 --accept-all-of mco-informer
  update-insights-operator pre-checks --to 4.17.3 --quiet`,
		Args: cobra.NoArgs,
		// The caller prints the error, on one line; usage would bury it.
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := o.validate()
			if err != nil {
				return err
			}
			config, err := kube.Config()
			if err != nil {
				return err
			}
			c, err := newClients(config)
			if err != nil {
				return err
			}
			return o.run(cmd, c, clock, format)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.to, "to", "", "The release to check an update to, such as 4.17.3.")
	fs.StringArrayVar(&o.accept, "accept", nil, "Accept these findings, comma-separated: by the short names pre-checks prints (NAME), or by identity (as --details, -o and --quiet print them); repeatable.")
	fs.StringSliceVar(&o.acceptAllOf, "accept-all-of", nil, "Accept every finding of these informers, comma-separated (update-insights-operator for the operator's own).")
	fs.BoolVar(&o.details, "details", false, "Show each finding's description, reference and identity.")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "Print only the identities of the findings not accepted, one a line, and no progress.")
	fs.StringVarP(&o.output, "output", "o", "", "Output format: empty for text, json or yaml.")
	fs.DurationVar(&o.timeout, "timeout", 2*time.Minute, "How long to wait for the findings, or for an acceptance to show.")
	fs.BoolVar(&o.allowNotOffered, "allow-not-offered", false, "Keep the UpdatePlan of a release the cluster is not offered (yet), to accept its findings before it is; without it, that plan is deleted once printed. upgrade refuses the release until it is offered.")
	kube = flags.NewKubeconfig(fs)
	return cmd
}

// validate checks the flags, and returns the structured output format, if
// any.
func (o *options) validate() (output.Format, error) {
	if o.to == "" {
		return "", errors.New("--to is required: the release to check an update to")
	}
	if o.timeout <= 0 {
		return "", fmt.Errorf("--timeout %s: want a positive duration", o.timeout)
	}
	if o.quiet && (o.details || o.output != "") {
		return "", errors.New("--quiet prints identities only: it takes neither --details nor -o")
	}
	if o.output == "" {
		return "", nil
	}
	if o.details {
		return "", errors.New("--details is for text: -o prints everything")
	}
	return flags.Format(o.output)
}

func (o *options) run(cmd *cobra.Command, c clients, clock clock.WithTicker, format output.Format) error {
	errOut := cmd.ErrOrStderr()
	cv, err := c.clusterVersions.Get(cmd.Context(), names.ClusterVersion, metav1.GetOptions{})
	if err != nil {
		err = output.OneLine(fmt.Errorf("reading ClusterVersion %s: %w", names.ClusterVersion, err))
	}
	// Nothing is created for a target that is not a version: such a plan
	// would only be a typo that lingers.
	if bad := planview.CheckVersion(o.to); bad != nil {
		return planview.WithOffers(bad, cv, err)
	}
	r := &runner{plans: c.plans, events: c.events, clock: clock, errOut: errOut, quiet: o.quiet}
	notOffered := ""
	switch {
	case err != nil:
		// The operator's own findings still say whether the release is
		// offered.
		fmt.Fprintf(errOut, "warning: whether the cluster is offered %s is not checked before the plan: %v\n", o.to, err)
	case planview.Already(cv, o.to) != "":
		return already(cmd, planview.Already(cv, o.to), o.quiet || format != "")
	default:
		notOffered = planview.NotOffered(cv, o.to)
	}
	accepting := len(o.accept) > 0 || len(o.acceptAllOf) > 0
	if notOffered != "" && !o.allowNotOffered {
		if accepting {
			return fmt.Errorf("%s is not an update offered to this cluster: findings are accepted only in a plan that is kept, "+
				"which --allow-not-offered asks for; nothing was accepted. %s", o.to, planview.Offers(cv))
		}
		// As oc adm upgrade recommend --version does for a release not
		// offered (pkg/cli/admin/upgrade/recommend/recommend.go), the
		// checks that apply to any update still run: its plan is made for
		// this check, and deleted once printed.
		r.oneOff = true
	}
	// A one-off plan is deleted on an interrupt too.
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	p, err := r.evaluate(ctx, o.to, o.timeout, o.accept, o.acceptAllOf)
	if errors.Is(err, context.Canceled) && ctx.Err() != nil && cmd.Context().Err() == nil {
		err = fmt.Errorf("interrupted while waiting for UpdatePlan %s", o.to)
	}
	discarded := false
	if r.oneOff {
		var discardErr error
		discarded, discardErr = r.discard(ctx, o.to)
		if discardErr != nil {
			fmt.Fprintf(errOut, "warning: UpdatePlan %s, made for this check only, is left: %v; the operator deletes it within %s.\n",
				o.to, discardErr, updateplan.OneOffTTL)
		}
	}
	if err != nil {
		return err
	}
	view := planview.Build(p)
	view.NotOffered = notOffered
	out := cmd.OutOrStdout()
	switch {
	case o.quiet:
		err = planview.WriteQuiet(out, view)
	case format != "":
		err = output.Write(out, view, format)
	default:
		err = planview.WriteText(out, view, r.clock.Now(), o.details)
	}
	if err != nil {
		return err
	}
	if discarded && !o.quiet {
		w, sep := out, "\n"
		if format != "" {
			w, sep = errOut, ""
		}
		fmt.Fprintf(w, "%sUpdatePlan %s was deleted, as %s is not offered: to keep it, and accept its findings before it is offered, add --allow-not-offered.\n", sep, o.to, o.to)
	}
	if blockers := planview.Blockers(p, r.clock.Now()); len(blockers) > 0 {
		return fmt.Errorf("the update to %s is not ready: %s", o.to, strings.Join(blockers, "; "))
	}
	return nil
}

// already says, as `oc adm upgrade --to` does (Run, in
// pkg/cli/admin/upgrade/upgrade.go of openshift/oc), that the cluster runs
// target already, or updates to it: there is nothing to check, and the
// command exits 0, as upgrade does. The line goes to stderr when stdout is for scripts.
func already(cmd *cobra.Command, line string, forScripts bool) error {
	var w io.Writer = cmd.OutOrStdout()
	if forScripts {
		w = cmd.ErrOrStderr()
	}
	_, err := fmt.Fprintln(w, line)
	return err
}
