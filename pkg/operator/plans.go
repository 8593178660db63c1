package operator

import (
	"context"
	"fmt"
	"maps"
	"slices"

	apiserverv1 "github.com/openshift/api/apiserver/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	apiserverlisters "github.com/openshift/client-go/apiserver/listers/apiserver/v1"
	machineconfigurationinformers "github.com/openshift/client-go/machineconfiguration/informers/externalversions/machineconfiguration/v1"
	operatorlisters "github.com/openshift/client-go/operator/listers/operator/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/controllers/updateinformers"
	"github.com/update-insights/update-insights-operator/pkg/controllers/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	informerclient "github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// apiRequestCountAPI and cloudCredentialAPI are what the pre-checks of a
// minor update read of APIs that not every cluster serves: the
// kube-apiserver's request counts, and the cloud-credential operator's
// configuration (an optional capability).
var (
	apiRequestCountAPI = optionalAPI{groupVersion: apiserverv1.GroupVersion, resources: []string{"apirequestcounts"}}
	cloudCredentialAPI = optionalAPI{groupVersion: operatorv1.GroupVersion, resources: []string{"cloudcredentials"}}
)

// startPlans runs the UpdatePlan controller: the operator's pre-checks,
// which read the alerts of alertsSource when it is not nil and the times of
// perNode, and the UpdateInformers' findings, asked within
// informerRequests. On a hosted control plane it reads no MachineConfigPool
// (there are none: control-plane-operator/controllers/hostedcontrolplane/
// v2/cvo/deployment.go leaves their CRDs out of the payload) and perNode is
// the NodePools': its worker pools are the nodes' NodePools. Elsewhere it
// reads the image-mode pools' MachineOSConfigs and MachineOSBuilds where
// the cluster serves them.
func (s *starter) startPlans(ctx context.Context, answers *updatestatus.Store, perNode *nodes.PerNodeTimes, alertsSource *alerts.HTTPSource, informerRequests *informerclient.Limit) {
	apiRequestCounts := updateplan.NewOptional[apiserverlisters.APIRequestCountLister]()
	cloudCredentials := updateplan.NewOptional[operatorlisters.CloudCredentialLister]()
	builtins, planners := s.builtinPlanners()
	// No alerts URL is no alerts source, rather than a nil *HTTPSource.
	var planAlerts alerts.Source
	if alertsSource != nil {
		planAlerts = alertsSource
	}
	insights, kube := s.factories.insights.Insights().V1alpha1(), s.clients.kube
	var pools machineconfigurationinformers.MachineConfigPoolInformer
	var imageMode *updateplan.ImageMode
	if s.topology != hosted.Hosted {
		machineConfiguration := s.factories.machineConfiguration.Machineconfiguration().V1()
		pools = machineConfiguration.MachineConfigPools()
		// The image-mode pools' builds are read where the cluster serves
		// them, as the node controller reads them (startNodes), and from
		// the same informers; without them no pool is image-mode.
		if s.serves(imageModeAPI, "the pre-checks of image-mode pools' OS image builds") {
			imageMode = &updateplan.ImageMode{Configs: machineConfiguration.MachineOSConfigs(), Builds: machineConfiguration.MachineOSBuilds()}
		}
	}
	planController, err := updateplan.New(ctx,
		insights.UpdatePlans(),
		insights.UpdateInformers(),
		s.factories.config.Config().V1().ClusterVersions(),
		s.factories.config.Config().V1().ClusterOperators(),
		s.factories.nodes.Core().V1().Nodes(),
		pools,
		imageMode,
		s.factories.budgets.Policy().V1().PodDisruptionBudgets(),
		s.factories.adminGates.Core().V1().ConfigMaps(),
		s.factories.adminAcks.Core().V1().ConfigMaps(),
		updateplan.Config{
			Pods: kube.CoreV1(), Events: kube.CoreV1(), Alerts: planAlerts, PerNode: perNode,
			APIRequestCounts: apiRequestCounts, CloudCredentials: cloudCredentials, Builtins: planners,
			Asker:  updateinformers.NewPlanAsker(kube.CoreV1(), kube.DiscoveryV1(), informerRequests, s.controllerContext.Clock),
			Client: s.clients.insights.InsightsV1alpha1(), TTL: s.options.PlanTTL, Notes: answers, Topology: s.topology,
		},
		s.tracker,
		s.controllerContext.EventRecorder,
		s.controllerContext.Clock,
	)
	if err != nil {
		klog.ErrorS(err, "Cannot build the UpdatePlan controller")
		s.tracker.SwitchOff(updateplan.Name, fmt.Sprintf("it could not be built: %v", err))
		return
	}
	s.servePlanOptionalAPIs(ctx, apiRequestCounts, cloudCredentials)
	s.servePlanners(ctx, builtins, planners)
	s.tracker.SwitchOn(updateplan.Name)
	s.run(ctx, planController, updateplan.Workers)
}

// servePlanOptionalAPIs has the plan controller read each optional API
// once the cluster serves it.
func (s *starter) servePlanOptionalAPIs(ctx context.Context, apiRequestCounts *updateplan.Optional[apiserverlisters.APIRequestCountLister],
	cloudCredentials *updateplan.Optional[operatorlisters.CloudCredentialLister]) {
	discovery, interval := s.clients.config.Discovery(), s.options.OptionalAPIInterval
	// The pre-checks of a minor update read APIRequestCounts and the
	// CloudCredential, which not every cluster serves: until it does,
	// those checks say they could not run.
	whenServed(ctx, discovery, apiRequestCountAPI, interval, updateplan.Name+" (APIRequestCounts)",
		apiRequestCounts.Off,
		func() {
			informer := s.factories.apiserver.Apiserver().V1().APIRequestCounts()
			serveOptional(ctx, apiRequestCounts, informer.Lister(), map[string]cache.SharedIndexInformer{"apirequestcounts": informer.Informer()}, s.tracker, s.factories.apiserver)
		})
	whenServed(ctx, discovery, cloudCredentialAPI, interval, updateplan.Name+" (CloudCredentials)",
		cloudCredentials.Off,
		func() {
			informer := s.factories.operator.Operator().V1().CloudCredentials()
			serveOptional(ctx, cloudCredentials, informer.Lister(), map[string]cache.SharedIndexInformer{"cloudcredentials": informer.Informer()}, s.tracker, s.factories.operator)
		})
}

// serveOptional has the UpdatePlan controller read an optional API through
// lister, from informers by resource, which factory starts, and the
// tracker wait for their caches.
func serveOptional[L any](ctx context.Context, api *updateplan.Optional[L], lister L, informers map[string]cache.SharedIndexInformer,
	tracker *tracker.Tracker, factory informerFactory) {
	var all []cache.SharedIndexInformer
	synced := map[string]cache.InformerSynced{}
	for resource, informer := range informers {
		all = append(all, informer)
		synced[resource] = informer.HasSynced
	}
	if err := api.Serve(ctx, lister, all...); err != nil {
		// Only a programming error gets here.
		klog.ErrorS(err, "Cannot read an optional API", "resources", slices.Sorted(maps.Keys(informers)))
		api.Off(fmt.Sprintf("it could not be read: %v", err), false)
		return
	}
	tracker.WaitsFor(updateplan.Name, synced)
	factory.Start(ctx.Done())
}
