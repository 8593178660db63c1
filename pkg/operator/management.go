package operator

import (
	"context"
	"fmt"

	"github.com/openshift/library-go/pkg/controller/factory"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/klog/v2"

	"github.com/update-insights/update-insights-operator/pkg/controllers/hostedclusters"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
	"github.com/update-insights/update-insights-operator/pkg/metrics"
)

// hostedClustersAPI is what a HyperShift management cluster serves: with it,
// the operator also follows every hosted cluster's update from there, once
// the cluster serves clusterAPI too, which HyperShift installs beside its
// own (cmd/install/assets/crds/cluster-api/).
var (
	hostedClustersAPI = optionalAPI{
		groupVersion: hypershift.HostedClusters.GroupVersion(),
		resources:    []string{hypershift.HostedClusters.Resource, hypershift.NodePools.Resource},
	}
	// controlPlaneComponentsAPI is served by HyperShift since October 2024
	// only: where it is not, the controller runs without it.
	controlPlaneComponentsAPI = optionalAPI{
		groupVersion: hypershift.ControlPlaneComponents.GroupVersion(),
		resources:    []string{hypershift.ControlPlaneComponents.Resource},
	}
	clusterAPI = optionalAPI{
		groupVersion: hypershift.Machines.GroupVersion(),
		resources:    []string{hypershift.Machines.Resource, hypershift.MachineSets.Resource, hypershift.MachineDeployments.Resource},
	}
)

// hostedClustersWorkers sync hosted clusters side by side: a management
// cluster runs hundreds.
const hostedClustersWorkers = 4

// ManagementMode is what the operator's Available condition says on a
// HyperShift management cluster.
const ManagementMode = "Following the hosted clusters of this HyperShift management cluster: " +
	"each HostedCluster's update and its NodePools', in the HostedClusterProgressInsights and NodePoolProgressInsights beside them."

// startManagement runs the controller of the hosted clusters' and NodePools'
// insights once the cluster serves HostedClusters, and says so in the
// operator's conditions. Nothing else of the operator knows of it: a
// management cluster is a cluster of its own too, whose own update the
// other controllers follow. A cluster that does not serve HostedClusters
// is no management cluster, and nothing is said of it there; one that does
// but serves no Cluster API (v1beta2, which the controller reads) has the
// controller off, saying so.
func (s *starter) startManagement(ctx context.Context) {
	whenServed(ctx, s.clients.config.Discovery(), hostedClustersAPI, s.options.OptionalAPIInterval, hostedclusters.Name, func(string, bool) {}, func() {
		s.whenServedRun(ctx, &clusterAPI, hostedclusters.Name, func() { s.runManagement(ctx) })
	})
}

// runManagement builds and runs the hosted clusters' controller.
func (s *starter) runManagement(ctx context.Context) {
	controller, informers, err := s.hostedClustersController()
	if err != nil {
		// Only a programming error (an index added twice) gets here.
		klog.ErrorS(err, "Cannot build the hosted clusters' controller")
		s.tracker.SwitchOff(hostedclusters.Name, fmt.Sprintf("it could not be built: %v", err))
		return
	}
	s.tracker.Mode(hostedclusters.Name, ManagementMode)
	informers.Start(ctx.Done())
	s.run(ctx, controller, hostedClustersWorkers)
	s.serveHostedClusterMetrics(ctx)
}

// serveHostedClusterMetrics serves the hosted clusters' metrics from the
// insights' cache until ctx ends, when Run waits for them to be
// unregistered: an operator run again in the same process registers its
// own.
func (s *starter) serveHostedClusterMetrics(ctx context.Context) {
	collector := metrics.NewHostedClustersCollector(s.factories.insights.Insights().V1alpha1().HostedClusterProgressInsights().Lister(), s.controllerContext.Clock)
	metrics.Register(collector)
	s.controllers.Add(1)
	go func() {
		defer s.controllers.Done()
		<-ctx.Done()
		metrics.Unregister(collector)
	}()
}

func (s *starter) hostedClustersController() (factory.Controller, dynamicinformer.DynamicSharedInformerFactory, error) {
	dynamicFactory := dynamicinformer.NewDynamicSharedInformerFactory(s.clients.dynamic, resyncPeriod)
	missing, err := controlPlaneComponentsAPI.missing(s.clients.config.Discovery())
	components := err == nil && len(missing) == 0
	if !components {
		// Read once: a HyperShift updated to serve them is read with them
		// from the operator's next start.
		klog.InfoS("Following the hosted clusters without their ControlPlaneComponents: the cluster does not serve them", "missing", missing, "err", err)
	}
	informers, err := hostedclusters.NewInformers(dynamicFactory, components)
	if err != nil {
		return nil, nil, err
	}
	insights := s.factories.insights.Insights().V1alpha1()
	controller, err := hostedclusters.New(informers,
		insights.HostedClusterProgressInsights(), insights.NodePoolProgressInsights(),
		s.clients.insights.InsightsV1alpha1(), s.tracker, s.controllerContext.EventRecorder, s.controllerContext.Clock)
	return controller, dynamicFactory, err
}

// startOptional runs what only some clusters have, each in a room of its
// own that starts once the cluster serves what it needs: the console
// plugin, and on a HyperShift management cluster the hosted clusters'
// insights.
func (s *starter) startOptional(ctx context.Context) {
	for _, start := range []func(context.Context){s.startConsolePlugin, s.startManagement} {
		start(ctx)
	}
}
