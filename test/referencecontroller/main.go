// Command referencecontroller is the floor the operator's reaction time is
// measured against: a library-go factory controller, built as the operator's
// controllers are, that does the least the operator must do when a
// ClusterOperator reports a new version, the ClusterVersion's Progressing
// message moves on or its update is retargeted. It counts the payload
// ClusterOperators at the ClusterVersion's desired version in its informer
// cache, quotes the ClusterVersion's Progressing message in the Updating
// condition and, when any of these or the target changes, writes the
// ClusterVersion insight's status, with one UpdateStatus, from the same
// client settings as the operator's.
//
// It runs instead of the operator, never beside it (both would write the same
// insight), until SIGTERM or SIGINT. BenchmarkReactionTime builds and runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"os/signal"
	"syscall"

	configv1 "github.com/openshift/api/config/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	configinformers "github.com/openshift/client-go/config/informers/externalversions"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// The operator's client settings (pkg/operator): no client-side throttling
// at this rate, so the reference is not slower for want of tokens.
const (
	clientQPS   = 200
	clientBurst = 400
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "the kubeconfig of the cluster")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := run(ctx, *kubeconfig); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

type controller struct {
	versions  configlisters.ClusterVersionLister
	operators configlisters.ClusterOperatorLister
	insights  insightslisters.ClusterVersionProgressInsightLister
	client    insightsclient.Interface
}

func run(ctx context.Context, kubeconfig string) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	cfg.QPS, cfg.Burst = clientQPS, clientBurst
	configClient, err := configclient.NewForConfig(cfg)
	if err != nil {
		return err
	}
	insightsClient, err := insightsclient.NewForConfig(cfg)
	if err != nil {
		return err
	}
	configInformers := configinformers.NewSharedInformerFactory(configClient, 0)
	insightInformers := insightinformers.NewSharedInformerFactory(insightsClient, 0)
	versions := configInformers.Config().V1().ClusterVersions()
	operators := configInformers.Config().V1().ClusterOperators()
	insights := insightInformers.Insights().V1alpha1().ClusterVersionProgressInsights()
	c := &controller{versions: versions.Lister(), operators: operators.Lister(), insights: insights.Lister(), client: insightsClient}

	recorder := events.NewLoggingEventRecorder("referencecontroller", clock.RealClock{})
	ctrl := factory.New().
		WithSync(c.sync).
		WithInformersQueueKeysFunc(func(runtime.Object) []string { return []string{names.ClusterVersion} },
			versions.Informer(), operators.Informer(), insights.Informer()).
		ToController("ReferenceController", recorder)

	configInformers.Start(ctx.Done())
	insightInformers.Start(ctx.Done())
	ctrl.Run(ctx, 1)
	configInformers.Shutdown()
	insightInformers.Shutdown()
	return nil
}

func (c *controller) sync(ctx context.Context, _ factory.SyncContext) error {
	insight, err := c.insights.Get(names.ClusterVersion)
	if err != nil {
		return err
	}
	cv, err := c.versions.Get(names.ClusterVersion)
	if err != nil {
		return err
	}
	operators, err := c.operators.List(labels.Everything())
	if err != nil {
		return err
	}
	target := cv.Status.Desired.Version
	payload, updated := 0, 0
	for _, co := range operators {
		if !controlplane.IsPayloadOperator(co) {
			continue
		}
		payload++
		if v, _ := controlplane.OperatorVersion(co); v == target {
			updated++
		}
	}
	if payload == 0 {
		return nil
	}
	// Rounded as the operator rounds it (controlplane's completionPercent,
	// after oc), so that the reference writes the completion the
	// benchmark waits for.
	completion := int32(math.RoundToEven(float64(updated) / float64(payload) * 100))
	// Quoted as the operator quotes it (controlplane's updating condition),
	// which is what the benchmark looks for.
	var message string
	if progressing := v1helpers.FindStatusCondition(cv.Status.Conditions, configv1.OperatorProgressing); progressing != nil {
		message = fmt.Sprintf("ClusterVersion has Progressing=%s(Reason=%s) | Message='%s'", progressing.Status, progressing.Reason, progressing.Message)
	}
	updating := meta.FindStatusCondition(insight.Status.Conditions, insightsv1alpha1.ClusterVersionProgressInsightUpdating)
	if completion == insight.Status.CompletionPercent && target == insight.Status.Versions.Target.Version && (updating == nil || updating.Message == message) {
		return nil
	}
	written := insight.DeepCopy()
	written.Status.CompletionPercent = completion
	written.Status.Versions.Target.Version = target
	if updating := meta.FindStatusCondition(written.Status.Conditions, insightsv1alpha1.ClusterVersionProgressInsightUpdating); updating != nil {
		updating.Message = message
	}
	_, err = c.client.InsightsV1alpha1().ClusterVersionProgressInsights().UpdateStatus(ctx, written, metav1.UpdateOptions{})
	return err
}
