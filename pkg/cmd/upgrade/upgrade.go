// Package upgrade is the `upgrade` command: it starts an update, as
// `oc adm upgrade --to` does, once the release's UpdatePlan allows it.
package upgrade

import (
	"errors"
	"fmt"
	"io"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	"github.com/spf13/cobra"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/cmd/flags"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/output"
	"github.com/update-insights/update-insights-operator/pkg/planview"
)

// Clients are what the command reads and writes: the UpdatePlans, and the
// ClusterVersion; on a management cluster, HostedClusters and NodePools.
type Clients struct {
	Insights versioned.Interface
	Config   configclient.Interface
	Dynamic  dynamic.Interface
}

type options struct {
	to                  string
	preChecks           bool
	allowNotRecommended bool
	dryRun              bool
	hostedCluster       string
	nodePool            string
}

// NewCommand returns the `upgrade` command.
func NewCommand(clock clock.PassiveClock) *cobra.Command {
	return newCommand(clock, func(c *rest.Config) (Clients, error) {
		insights, err := versioned.NewForConfig(c)
		if err != nil {
			return Clients{}, err
		}
		config, err := configclient.NewForConfig(c)
		if err != nil {
			return Clients{}, err
		}
		dyn, err := dynamic.NewForConfig(c)
		return Clients{Insights: insights, Config: config, Dynamic: dyn}, err
	})
}

func newCommand(clock clock.PassiveClock, newClients func(*rest.Config) (Clients, error)) *cobra.Command {
	o := &options{}
	var kube *flags.Kubeconfig
	cmd := &cobra.Command{
		Use:   "upgrade --to VERSION",
		Short: "Update the cluster to a release once its pre-checks are answered and accepted",
		Long: `Starts the update to VERSION as oc adm upgrade --to does, setting the
ClusterVersion's spec.desiredUpdate to the version and image the cluster is
offered, but only when the UpdatePlan for VERSION was evaluated in the last
15 minutes, every informer answered and every finding is accepted (see
pre-checks). The conditional update risks accepted in the plan are copied to
spec.desiredUpdate.acceptRisks when the cluster's ClusterVersion has that
field.

On a cluster whose control plane is hosted (HyperShift, ROSA with hosted
control planes) it writes nothing, and prints how the update is made from the
management cluster: the hosted-cluster-config-operator erases any
spec.desiredUpdate written in the hosted cluster.

On a management cluster, --hosted-cluster NAMESPACE/NAME updates that hosted
cluster's control plane and --nodepool NAMESPACE/NAME one of its NodePools,
by their spec.release.image: the pull spec the hosted cluster is offered for
VERSION, or for a NodePool the one its control plane completed. They refuse,
with the reason, what HyperShift would hold or count as unsupported: a
release not offered, a conditional update not recommended (unless
--allow-not-recommended), a minor update while ClusterVersionUpgradeable is
False, SupportedHostedCluster, ValidConfiguration or ReconciliationActive
False, a NodePool more than three minor releases behind its control plane or
ahead of it. UpdatePlans are the hosted cluster's own: they are not read.`,
		Example: `  update-insights-operator upgrade --to 4.17.3 --dry-run
  update-insights-operator upgrade --to 4.17.3
  update-insights-operator upgrade --hosted-cluster clusters/payments --to 4.17.3
  update-insights-operator upgrade --nodepool clusters/payments-workers --to 4.17.3`,
		Args: cobra.NoArgs,
		// The caller prints the error, on one line; usage would bury it.
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.to == "" {
				return errors.New("--to is required: the release to update to")
			}
			config, err := kube.Config()
			if err != nil {
				return err
			}
			c, err := newClients(config)
			if err != nil {
				return err
			}
			if o.hostedCluster != "" || o.nodePool != "" {
				return o.runManagement(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), c.Dynamic)
			}
			return o.run(cmd, c, clock)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.to, "to", "", "The release to update to, such as 4.17.3.")
	fs.BoolVar(&o.preChecks, "pre-checks", true, "Refuse unless the release's UpdatePlan is fresh, answered and fully accepted. false skips every pre-check.")
	fs.BoolVar(&o.allowNotRecommended, "allow-not-recommended", false, "With --pre-checks=false, update to a conditional update that is not recommended, as oc does.")
	fs.BoolVar(&o.dryRun, "dry-run", false, "Print the desiredUpdate the command would write, and write nothing.")
	fs.StringVar(&o.hostedCluster, "hosted-cluster", "", "On a management cluster, the HostedCluster (NAMESPACE/NAME) whose control plane to update.")
	fs.StringVar(&o.nodePool, "nodepool", "", "On a management cluster, the NodePool (NAMESPACE/NAME) to update to its control plane's release.")
	kube = flags.NewKubeconfig(fs)
	return cmd
}

func (o *options) run(cmd *cobra.Command, c Clients, clock clock.PassiveClock) error {
	ctx := cmd.Context()
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	cv, err := c.Config.ConfigV1().ClusterVersions().Get(ctx, names.ClusterVersion, metav1.GetOptions{})
	if err != nil {
		err = output.OneLine(fmt.Errorf("reading ClusterVersion %s: %w", names.ClusterVersion, err))
	}
	if bad := planview.CheckVersion(o.to); bad != nil {
		return planview.WithOffers(bad, cv, err)
	}
	if err != nil {
		return err
	}
	if line := planview.Already(cv, o.to); line != "" {
		fmt.Fprintln(out, line)
		return nil
	}
	switch t, err := topology(ctx, c.Config); {
	case err != nil:
		return err
	case t == hosted.Hosted:
		return explainHosted(out, cv, o.to)
	}
	// Before the plan: a plan cannot make the cluster-version operator take
	// a release it is not offered.
	if !planview.Offered(cv, o.to) {
		return fmt.Errorf("refusing to update to %s: it is not an update offered to this cluster. %s", o.to, planview.Offers(cv))
	}
	var acceptedRisks []string
	allowNotRecommended := o.allowNotRecommended
	if o.preChecks {
		plan, err := c.Insights.InsightsV1alpha1().UpdatePlans().Get(ctx, o.to, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return fmt.Errorf("refusing to update to %s: it has no UpdatePlan; run pre-checks --to %s first", o.to, o.to)
		}
		if err != nil {
			return output.OneLine(fmt.Errorf("reading UpdatePlan %s: %w", o.to, err))
		}
		if blockers := planview.Blockers(plan, clock.Now()); len(blockers) > 0 {
			return fmt.Errorf("refusing to update to %s: %s", o.to, strings.Join(blockers, "; "))
		}
		acceptedRisks = planview.AcceptedRisks(plan)
		// Every finding of the plan is accepted, the risks that make the
		// update not recommended among them.
		allowNotRecommended = true
	} else {
		fmt.Fprintf(errOut, "warning: --pre-checks=false: updating to %s without the pre-checks of its UpdatePlan; nothing the operator or an informer found was checked or accepted.\n", o.to)
	}
	desired, err := planview.DesiredUpdate(cv, o.to, acceptedRisks, allowNotRecommended)
	if err != nil {
		return err
	}
	for _, w := range desired.Warnings {
		fmt.Fprintf(errOut, "warning: %s\n", w)
	}
	written, err := writeDesiredUpdate(ctx, c.Config, desired.Update, o.dryRun, errOut)
	if err != nil {
		return err
	}
	return report(out, written, o.dryRun)
}

// report says what was written, or with dryRun prints what would be.
func report(out io.Writer, written configv1.Update, dryRun bool) error {
	if dryRun {
		return output.Write(out, map[string]any{"desiredUpdate": written}, output.YAML)
	}
	fmt.Fprintf(out, "Requested update to %s\n", written.Version)
	if names := riskNames(written); len(names) > 0 {
		fmt.Fprintf(out, "Accepted risks in spec.desiredUpdate.acceptRisks: %s\n", strings.Join(names, ", "))
	}
	return nil
}
