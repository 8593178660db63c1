// Package operator wires the informers and controllers of the operator and
// runs them for as long as this instance holds the leader lease.
package operator

import (
	"context"
	"sync"
	"time"

	configclient "github.com/openshift/client-go/config/clientset/versioned"
	configinformers "github.com/openshift/client-go/config/informers/externalversions"
	"github.com/openshift/library-go/pkg/controller/controllercmd"
	"github.com/openshift/library-go/pkg/controller/factory"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	"github.com/update-insights/update-insights-operator/pkg/assessment"
	"github.com/update-insights/update-insights-operator/pkg/controllers/clusteroperator"
	"github.com/update-insights/update-insights-operator/pkg/controllers/clusterversion"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions"
)

const (
	// ComponentName names the operator in events, metrics and its Lease
	// (<ComponentName>-lock).
	ComponentName = "update-insights-operator"

	// resyncPeriod is how often informers replay their caches to the
	// controllers: a safety net for a missed event. Controllers whose output
	// depends on time resync on their own schedule.
	resyncPeriod = 10 * time.Minute

	// The operator writes one insight per operator, node and pool; on a large
	// cluster client-go's default limit (QPS 5, burst 10) would queue those
	// writes for minutes, and even 50 QPS delays a burst of updates by tens of
	// milliseconds each. The API server's priority and fairness, not this
	// client-side limit, is what protects the server.
	clientQPS   = 200
	clientBurst = 400
)

// RunOperator builds the informers and controllers, starts them, and blocks
// until ctx ends (leadership lost or the process told to stop).
func RunOperator(ctx context.Context, controllerContext *controllercmd.ControllerContext) error {
	kubeConfig := rest.CopyConfig(controllerContext.KubeConfig)
	kubeConfig.QPS = clientQPS
	kubeConfig.Burst = clientBurst

	configClient, err := configclient.NewForConfig(kubeConfig)
	if err != nil {
		return err
	}
	insightsClient, err := insightsclient.NewForConfig(kubeConfig)
	if err != nil {
		return err
	}

	kubeClient, err := kubernetes.NewForConfig(protoConfig(kubeConfig))
	if err != nil {
		return err
	}

	configInformers := configinformers.NewSharedInformerFactory(configClient, resyncPeriod)
	machineConfigOperatorInformers := kubeinformers.NewSharedInformerFactoryWithOptions(kubeClient, resyncPeriod,
		kubeinformers.WithNamespace(assessment.MachineConfigOperatorNamespace))
	insightInformers := insightinformers.NewSharedInformerFactory(insightsClient, resyncPeriod)

	clusterVersionController, err := clusterversion.New(
		configInformers.Config().V1().ClusterVersions(),
		configInformers.Config().V1().ClusterOperators(),
		insightInformers.Insights().V1alpha1().ClusterVersionProgressInsights(),
		insightInformers.Insights().V1alpha1().UpdateHealthInsights(),
		insightsClient.InsightsV1alpha1(),
		controllerContext.EventRecorder,
		controllerContext.Clock,
	)
	if err != nil {
		return err
	}

	clusterOperatorController, err := clusteroperator.New(
		configInformers.Config().V1().ClusterOperators(),
		configInformers.Config().V1().ClusterVersions(),
		machineConfigOperatorInformers.Apps().V1().Deployments(),
		insightInformers.Insights().V1alpha1().ClusterOperatorProgressInsights(),
		insightsClient.InsightsV1alpha1(),
		controllerContext.EventRecorder,
		controllerContext.Clock,
	)
	if err != nil {
		return err
	}

	// Informers are started only after every controller has asked for the
	// ones it needs: a factory starts just the informers requested so far.
	configInformers.Start(ctx.Done())
	machineConfigOperatorInformers.Start(ctx.Done())
	insightInformers.Start(ctx.Done())

	var controllers sync.WaitGroup
	for _, c := range []factory.Controller{clusterVersionController, clusterOperatorController} {
		controllers.Add(1)
		go func() {
			defer controllers.Done()
			c.Run(ctx, 1)
		}()
	}

	klog.Info("operator started")
	<-ctx.Done()
	controllers.Wait()
	configInformers.Shutdown()
	machineConfigOperatorInformers.Shutdown()
	insightInformers.Shutdown()
	klog.Info("operator stopped")
	return nil
}

// protoConfig asks for protobuf, which built-in kinds such as Deployments
// support and custom resources do not.
func protoConfig(config *rest.Config) *rest.Config {
	config = rest.CopyConfig(config)
	config.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	config.ContentType = "application/vnd.kubernetes.protobuf"
	return config
}
