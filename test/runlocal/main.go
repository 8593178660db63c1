// Command runlocal shows the operator doing its main job without an OpenShift
// cluster: it starts kube-apiserver and etcd on loopback, loads a cluster
// recorded mid-update with operators OLM installed (OLM's CRDs and objects,
// one operator capped at the minor release the cluster runs) and an
// image-mode worker pool beside its worker pool (the machine-config
// operator's image-mode CRDs, a MachineOSConfig and its last build), runs
// `update-insights-operator start` against it as in a cluster with a
// demonstration UpdateInformer beside it, plays the update forward while
// printing the insights and UpdateStatus as they change (an operator's CSV
// fails midway, and status shows it; the image-mode pool's OS image build
// fails and is retried, and status shows each step; a budget holds a
// worker's drain until its workload is scaled up, and status shows that,
// as docs/administrators.md does), and then leaves the cluster running,
// offered next releases, for the pre-checks walkthrough of
// docs/administrators.md; it stops everything it started on Ctrl-C (with
// --check, after running the walkthrough itself and comparing what it
// printed with the documentation).
//
// `make run-local` builds what it needs and runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	configclient "github.com/openshift/client-go/config/clientset/versioned"
	machineconfigurationclient "github.com/openshift/client-go/machineconfiguration/clientset/versioned"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
	"github.com/update-insights/update-insights-operator/pkg/metrics"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/olm"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

type options struct {
	operator string
	scenario string
	workdir  string
	step     time.Duration
	check    bool
	managed  bool
	hosted   bool
	// management plays a management cluster of hosted clusters.
	management bool
	// consolePlugin is the console plugin's directory, consoleListen
	// where its stand-in is served.
	consolePlugin string
	consoleListen string
}

func main() {
	var o options
	flag.StringVar(&o.operator, "operator", "_output/bin/update-insights-operator", "The operator binary to run.")
	flag.StringVar(&o.scenario, "scenario", "test/testdata/oc-examples/4.15.0-ec2-early", "The recorded cluster: files <scenario>-cv.yaml and <scenario>-co.yaml.")
	flag.StringVar(&o.workdir, "workdir", "_output/run-local", "Where the kubeconfig and the operator's log are written.")
	flag.DurationVar(&o.step, "step", 4*time.Second, "How long each ClusterOperator takes to update.")
	flag.BoolVar(&o.check, "check", false, "Exit non-zero unless the insight went from Progressing to Completed, every pool completed and no configuration rollout was left showing (in the pools' insights or the fleet gauge), the operator reports itself healthy, the demonstration informer's warning reached UpdateStatus after its Wait, the failing CSV's error reached UpdateStatus, the status command's health section and its details during the update, and left once the CSV recovered, the status command named the pod and the budget that held a worker's drain and then no longer, the status command said at each step of the image-mode pool's roll what the machine-config operator's state made true (its OS image build Building while the nodes waited, Failed with the build pod's words and an Error health insight, Building again once the rebuild annotation was applied, the nodes rolling, Completed), history listed the update Completed and its postmortem the held drain as a stall naming them, the pre-checks walkthrough's commands printed what docs/administrators.md shows, and everything stopped cleanly (for CI); without it, the cluster keeps running after the update until Ctrl-C.")
	flag.BoolVar(&o.managed, "managed", false, "Start the cluster idle, with the Managed Upgrade Operator's UpgradeConfig CRD and the managed-upgrade informer, schedule a managed update to the recorded target a minute ahead (with --check, brought forward once UpdateStatus and the status command showed it), and play the Managed Upgrade Operator's steps around the recorded update; with --check, exit non-zero unless UpdateStatus showed the window, the status command printed it as docs/managed-upgrade.md shows, the pre-update health check's warning came and went, a step was shown, the update completed with no configuration rollout left showing, and everything stopped cleanly.")
	flag.BoolVar(&o.hosted, "hosted", false, "Play a cluster whose control plane HyperShift hosts ("+hostedRecording+"'s ClusterVersion and ClusterOperators, reshaped as a hosted cluster has them; --scenario is not read): a control-plane update, an InPlace NodePool's update and a Replace NodePool's rollout beside a NodePool left behind, printing what the status command shows at each step; with --check, exit non-zero unless at each step status said what HyperShift's code makes true then and never \"MachineConfigPool\", the insight went from Progressing to Completed, the operator's ClusterOperator is Available in the hosted mode and not Degraded, and everything stopped cleanly.")
	flag.BoolVar(&o.management, "management", false, "Play a management cluster with three hosted clusters, in the shapes HyperShift's and Cluster API's controllers write (--scenario is not read): a control-plane update that completes, a Replace NodePool rolling machine by machine with one Machine held by a drain, and a minor update blocked by ClusterVersionUpgradeable=False beside an InPlace NodePool, made with the upgrade command where it allows them; printing what status --hosted-clusters and --hosted-cluster show at each step; with --check, exit non-zero unless at each step they said what HyperShift's code makes true then, upgrade set or refused what HyperShift would, and everything stopped cleanly.")
	flag.StringVar(&o.consolePlugin, "console-plugin", "console-plugin", "The console plugin's directory: its build and the console stand-in's (make console-standin) are served on the local cluster, when built.")
	flag.StringVar(&o.consoleListen, "console-listen", "127.0.0.1:9000", "Where the console stand-in is served (port 0: any free port).")
	flag.Parse()

	// The recorded ClusterVersion has fields the installed CRD prunes; the
	// API server's warning about each write is noise here.
	rest.SetDefaultWarningHandler(rest.NoWarnings{})
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer cancel()
	if err := run(ctx, o); err != nil {
		fmt.Fprintf(os.Stderr, "run-local: %v\n", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options) (err error) {
	if o.hosted {
		return runHosted(ctx, o)
	}
	if o.management {
		return runManagement(ctx, o)
	}
	if err := os.MkdirAll(o.workdir, 0o755); err != nil {
		return err
	}
	// The managed mode starts its update when its window opens: its
	// recording's last moment is now. Otherwise the recorded update goes
	// on, and an operator's CSV fails during it: the recording is placed
	// recordedAgo, so that the failure can be both the update's and as old
	// as OLM's informer needs to report it.
	last := time.Now()
	if !o.managed {
		last = last.Add(-recordedAgo)
	}
	scenario, err := loadScenario(o.scenario, last)
	if err != nil {
		return err
	}

	crds := []string{"test/testdata/crds", "manifests"}
	beside := "the demonstration informer"
	var olmObjs olmObjects
	var capped *operatorsv1alpha1.ClusterServiceVersion
	var blocker olmBlocker
	var layered *layeredPool
	if o.managed {
		crds = append(crds, upgradeConfigCRD)
		beside = "the managed-upgrade informer"
	} else {
		crds = append(crds, olmCRDs...)
		crds = append(crds, imageModeCRDs)
		if layered, err = newLayeredPool(scenario.nodes); err != nil {
			return fmt.Errorf("%s: %w", o.scenario, err)
		}
		if olmObjs, err = loadOLMObjects(olmObjectsFile, scenario.moved); err != nil {
			return err
		}
		if capped, err = olmObjs.checkCapped(scenario.target()); err != nil {
			return fmt.Errorf("%s: %w", olmObjectsFile, err)
		}
		if blocker, err = olmObjs.blocker(scenario.target(), scenario.offers.minor.Version); err != nil {
			return fmt.Errorf("%s: %w", olmObjectsFile, err)
		}
	}
	cluster, err := startLocalCluster(crds)
	if err != nil {
		return err
	}
	var op *operatorProcess
	var demo *demoInformer
	var managed *managedInformer
	defer func() {
		say("stopping the operator, %s, kube-apiserver and etcd", beside)
		if op != nil {
			op.stop()
		}
		if demo != nil {
			demo.close()
		}
		if managed != nil {
			managed.stop()
		}
		if stopErr := cluster.stop(); err == nil {
			err = stopErr
		}
	}()

	kubeconfig, err := writeKubeconfig(cluster.env, o.workdir)
	if err != nil {
		return err
	}
	say("the local cluster's kubeconfig: export KUBECONFIG=%s", shown(kubeconfig))

	c, err := newClients(cluster.cfg)
	if err != nil {
		return err
	}
	if o.managed {
		if err := scenario.idle(); err != nil {
			return fmt.Errorf("%s: %w", o.scenario, err)
		}
		say("loading %s, not updating: at %s, the version its recorded update to %s started from", filepath.Base(o.scenario), scenario.from(), scenario.target())
	} else {
		say("loading %s: %s, %d of %d payload ClusterOperators updated, as recorded %s ago", filepath.Base(o.scenario), scenario.describe(), scenario.updated(), len(scenario.operators), recordedAgo)
	}
	if err := scenario.create(ctx, c); err != nil {
		return err
	}
	var olmC *olmCluster
	var held heldDrain
	if !o.managed {
		if held, err = newHeldDrain(scenario.nodes, names.WorkerPool); err != nil {
			return fmt.Errorf("%s: %w", o.scenario, err)
		}
		if err := held.create(ctx, c); err != nil {
			return err
		}
		say("loading a workload on %s: ReplicaSet %s/%s of one pod, whose PodDisruptionBudget %s/%s allows no disruption", held.node, heldNamespace, heldReplicaSet, heldNamespace, heldBudget)
		if err := layered.create(ctx, c); err != nil {
			return err
		}
		say("loading an image-mode pool beside the worker pool: MachineConfigPool %s of %d nodes, its MachineOSConfig %s at image %s, built by MachineOSBuild %s in %s",
			layered.name, len(layered.nodes), layered.name, layered.digested(layered.pastBuildName()), layered.pastBuildName(), pastBuildTook)
		if olmC, err = newOLMCluster(cluster.cfg, olmObjs); err != nil {
			return err
		}
		if err := olmC.create(ctx, c); err != nil {
			return err
		}
		capVersion, _ := olm.MaxOpenShiftVersion(capped)
		say("loading OLM's objects (%s): CSV %s/%s supports OpenShift up to %d.%d, the minor release the cluster runs, and so blocks %s; CSV %s/%s is Succeeded",
			olmObjectsFile, capped.Namespace, capped.Name, capVersion.Major, capVersion.Minor, scenario.offers.minor.Version, failingCSVNamespace, failingCSVName)
	}

	// The operator is a component of the payload it reports on; here it
	// already runs the payload's target version, as its ClusterOperator
	// will say.
	if err := os.Setenv("RELEASE_VERSION", scenario.target()); err != nil {
		return err
	}
	// Registered before the operator starts, so that the operator asks it
	// as soon as it sees the pending update.
	if o.managed {
		if managed, err = startManagedInformer(ctx, c, o.operator, kubeconfig, o.workdir); err != nil {
			return err
		}
		cluster.addresses = append(cluster.addresses, "https://"+managed.addr)
	} else {
		if demo, err = startDemoInformer(ctx, c); err != nil {
			return err
		}
		cluster.addresses = append(cluster.addresses, "https://"+demo.addr)
		say("serving the demonstration informer %s at https://%s", demoInformerName, demo.addr)
	}

	logPath, _ := filepath.Abs(filepath.Join(o.workdir, "operator.log"))
	if op, err = startOperator(o.operator, kubeconfig, logPath, informerInterval(o.step)); err != nil {
		return err
	}
	say("started update-insights-operator (log: %s)", shown(logPath))
	standin, err := startConsole(cluster.cfg, o.consolePlugin, o.consoleListen, o.check)
	if err != nil {
		return err
	}
	if standin != nil {
		defer standin.Close()
		cluster.addresses = append(cluster.addresses, standin.URL)
	}
	opMetrics, err := newOperatorMetrics(cluster.cfg, op.Address())
	if err != nil {
		return err
	}
	walk := walkthrough{binary: o.operator, kubeconfig: kubeconfig, target: scenario.offers.next.Version,
		recommended: scenario.offers.recommended.Version, minor: scenario.offers.minor.Version, blocker: blocker, held: held}
	if !o.managed {
		walk.hint()
	}

	// The display's watch must end before the API server stops: the server
	// waits for open watches when it shuts down.
	displayCtx, stopDisplay := context.WithCancel(ctx)
	defer stopDisplay()
	seen := watchInsight(displayCtx, c, demo)
	if o.managed {
		return playManaged(ctx, o, cluster.cfg, c, opMetrics, scenario, seen, stopDisplay, walk)
	}
	// Midway, an operator's CSV fails; before the update completes, the
	// status command shows it, and then it recovers.
	midway := func() error {
		at, err := olmC.fail(ctx, time.Now(), scenario.updateStarted())
		if err != nil {
			return err
		}
		say("OLM: CSV %s/%s is Failed (%s): its deployment lost its minimum availability at %s (%s ago, %s into the update)", failingCSVNamespace, failingCSVName,
			failingReason, at.Local().Format("15:04:05"), failedAgo, at.Sub(scenario.updateStarted()))
		return nil
	}
	statusShowed := "not run"
	beforeCompletion := func() error {
		if !seen.status.waitForDemoInsight(ctx, time.Minute) {
			say("the demonstration informer's warning did not reach UpdateStatus within a minute; completing the update anyway")
		}
		shown := seen.status.waitForOLMInsight(ctx, true, time.Minute)
		if shown {
			say("the failing CSV's error is in UpdateStatus; the status command shows it in its health section:")
			missing, err := walk.showOLMHealth(ctx)
			if err != nil {
				return err
			}
			statusShowed = missing
		} else if ctx.Err() == nil {
			say("the failing CSV's error did not reach UpdateStatus within a minute; completing the update anyway")
		}
		if err := olmC.recover(ctx, time.Now()); err != nil {
			return err
		}
		say("OLM: CSV %s/%s is Succeeded again: its deployment is available", failingCSVNamespace, failingCSVName)
		if shown && !seen.status.waitForOLMInsight(ctx, false, time.Minute) && ctx.Err() == nil {
			say("the failing CSV's error did not leave UpdateStatus within a minute; completing the update anyway")
		}
		return nil
	}
	// A worker's drain is held by a budget until its workload is scaled up;
	// status shows it meanwhile.
	drainAsked := func(node string) error {
		if node != held.node {
			return nil
		}
		return walk.holdDrain(ctx, c, o.check)
	}
	// The image-mode pool's first build fails, and is retried; status
	// shows each stage.
	layeredRoll := walk.watchLayered(ctx, c, layered, o.check)
	if err := scenario.play(ctx, c, o.step, playHooks{midway: midway, beforeCompletion: beforeCompletion, drainAsked: drainAsked, imageBuild: layeredRoll.step}); err != nil && ctx.Err() == nil {
		return err
	}
	end := settle(ctx, c, opMetrics, seen, scenario, stopDisplay)
	if o.check {
		if err := end.check(seen, scenario.target()); err != nil {
			return err
		}
		if ok, saw := seen.status.demoChecked(); !ok {
			return fmt.Errorf("want UpdateStatus to show the demonstration informer's warning, and its UpdateInformer to go Online=True only after the informer answered Wait and was asked again; saw %s", saw)
		}
		if olmSeen := seen.status.olmSoFar(); !olmSeen.shown || !olmSeen.left || statusShowed != "" {
			return fmt.Errorf("want UpdateStatus to show the error of %s about CSV %s/%s during the update, the status command and its health details to show it, and UpdateStatus to drop it once the CSV recovered; saw it shown=%t, then gone=%t, and of the status command: %s",
				olm.Informer, failingCSVNamespace, failingCSVName, olmSeen.shown, olmSeen.left, orFine(statusShowed))
		}
		say("check passed: the insight went from Progressing to Completed, every pool completed and shows no configuration rollout, the operator reports itself healthy, the demonstration informer's warning reached UpdateStatus after its Wait, and the failing CSV's error reached UpdateStatus and the status command's health section during the update, and left once the CSV recovered")
		if err := layeredRoll.done(); err != nil {
			return err
		}
		say("check passed: the image-mode pool %s waited Progressing on its OS image build, went Degraded with the build pod's words in status and an Error health insight naming the pod, its log, the push secret and the rebuild annotation, built again once annotated, without the insight, and rolled its nodes to Completed with the new configuration and image together", layered.name)
		say("what the operator recorded of the update:")
		if err := walk.showHistory(ctx, scenario.target(), true); err != nil {
			return fmt.Errorf("the update's record: %w", err)
		}
		say("check passed: history listed the update to %s Completed, and its postmortem the worker pools' nodes (%s and %s) and the held drain as a stall naming pod %s/%s and budget %s/%s", scenario.target(), names.WorkerPool, layered.name, heldNamespace, heldPod, heldNamespace, heldBudget)
		say("the pre-checks walkthrough (docs/administrators.md, \"Pre-checks walkthrough\"):")
		if err := walk.check(ctx); err != nil {
			return fmt.Errorf("the pre-checks walkthrough: %w", err)
		}
		say("check passed: pre-checks named the demonstration informer's finding and the update's risk, upgrade refused the update until they were accepted, pre-checks passed once they were, upgrade --dry-run showed the desiredUpdate to %s, pre-checks named the operator OLM installed that blocks %s and its remedy, and each printed what the documentation shows", walk.target, walk.minor)
		first := scenario.target()
		if err := playSecond(ctx, c, scenario, scenario.offers.next, o.step); err != nil {
			return err
		}
		if err := walk.checkBothRecorded(ctx, first, scenario.target(), logPath); err != nil {
			return fmt.Errorf("the second update: %w", err)
		}
		say("check passed: history listed both updates Completed, and the operator's log said the second's estimate learned from the first's record")
	} else if ctx.Err() == nil {
		say("the update is complete; what the operator recorded of it:")
		if err := walk.showHistory(ctx, scenario.target(), false); err != nil {
			return err
		}
		say("the local cluster keeps running for the pre-checks walkthrough:")
		say("  %s", walk.commandLine(walk.preCheckSteps()[0].args))
		say("  and, to the next minor release, which an operator OLM installed blocks:")
		say("  %s", walk.commandLine([]string{"pre-checks", "--to", walk.minor, "--details"}))
		say("Ctrl-C stops everything")
		<-ctx.Done()
	}
	if ctx.Err() != nil {
		say("interrupted")
	}
	return nil
}

// orFine is what the status command did not show, or that it showed all.
func orFine(missing string) string {
	if missing == "" {
		return "it showed it"
	}
	return missing
}

// outcome is how the played update ended, as the display saw it.
type outcome struct {
	completed, poolsCompleted bool
	// rollouts are the configuration rollouts the pools' insights and the
	// fleet gauge still show, or why they could not be read.
	rollouts        string
	operatorStatus  string
	operatorHealthy bool
}

// settle waits until the insights show the update completed and no
// configuration rollout, stops the display, and reads the operator's own
// ClusterOperator.
func settle(ctx context.Context, c *clients, m *operatorMetrics, seen *observer, s *scenario, stopDisplay func()) outcome {
	var end outcome
	end.completed = waitForCompleted(ctx, seen, time.Minute)
	end.poolsCompleted = waitForPools(ctx, seen, len(s.nodes.pools), time.Minute)
	// A moment for the health insights the completion resolves to go.
	sleep(ctx, time.Second)
	shown, err := waitForNoRollout(ctx, c, m, 30*time.Second)
	switch {
	case err != nil:
		end.rollouts = fmt.Sprintf("could not be read: %v", err)
	case len(shown) > 0:
		end.rollouts = strings.Join(shown, "; ")
	}
	stopDisplay()
	if end.rollouts == "" {
		say("configuration rollouts: none in the pools' insights, and %s 0", metrics.ConfigRolloutInProgressMetric)
	} else {
		say("configuration rollouts: %s", end.rollouts)
	}
	end.operatorStatus, end.operatorHealthy = ownClusterOperator(ctx, c, s.target())
	say("%s", end.operatorStatus)
	return end
}

// check fails unless the insight went from Progressing to Completed, every
// pool completed and shows no configuration rollout, and the operator
// reports itself healthy at target.
func (end outcome) check(seen *observer, target string) error {
	if !seen.progressing() || !end.completed || !end.poolsCompleted || end.rollouts != "" || !end.operatorHealthy {
		return fmt.Errorf("want the insight to go from Progressing to Completed, every pool to complete and show no configuration rollout (as %s), and the operator's ClusterOperator Available, not Degraded, at %s; saw Progressing=%t, Completed=%t, pools completed=%t, configuration rollouts: %s, %s",
			metrics.ConfigRolloutInProgressMetric, target, seen.progressing(), end.completed, end.poolsCompleted, orNone(end.rollouts), end.operatorStatus)
	}
	return nil
}

// orNone is what a check found, or that it found nothing.
func orNone(found string) string {
	if found == "" {
		return "none"
	}
	return found
}

// informerInterval asks the UpdateInformers once a step, as often as the
// played update changes, but at most once a second: UpdateStatus is
// computed at most once a second, so asking more often shows nothing
// sooner.
func informerInterval(step time.Duration) time.Duration {
	return max(step, time.Second)
}

// clients talk to the local cluster without client-side throttling: the
// player writes in bursts and the display must not lag.
type clients struct {
	kube                 kubernetes.Interface
	config               configclient.Interface
	machineConfiguration machineconfigurationclient.Interface
	insights             insightsclient.Interface
}

func newClients(cfg *rest.Config) (*clients, error) {
	cfg = rest.CopyConfig(cfg)
	cfg.QPS, cfg.Burst = 1000, 2000
	var c clients
	var err error
	if c.kube, err = kubernetes.NewForConfig(cfg); err != nil {
		return nil, err
	}
	if c.config, err = configclient.NewForConfig(cfg); err != nil {
		return nil, err
	}
	if c.machineConfiguration, err = machineconfigurationclient.NewForConfig(cfg); err != nil {
		return nil, err
	}
	if c.insights, err = insightsclient.NewForConfig(cfg); err != nil {
		return nil, err
	}
	return &c, nil
}

func writeKubeconfig(env *envtest.Environment, dir string) (string, error) {
	user, err := env.AddUser(envtest.User{Name: "admin", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return "", err
	}
	content, err := user.KubeConfig()
	if err != nil {
		return "", err
	}
	path, err := filepath.Abs(filepath.Join(dir, "kubeconfig"))
	if err != nil {
		return "", err
	}
	return path, os.WriteFile(path, content, 0o600)
}

// listening returns the addresses that still accept connections.
func listening(addresses []string) []string {
	var open []string
	for _, a := range addresses {
		u, err := url.Parse(a)
		if err != nil {
			continue
		}
		if conn, err := net.DialTimeout("tcp", u.Host, time.Second); err == nil {
			conn.Close()
			open = append(open, a)
		}
	}
	return open
}

func say(format string, args ...any) {
	fmt.Printf("%s  %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}
