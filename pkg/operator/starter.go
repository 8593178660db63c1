// Package operator wires the informers and controllers of the operator and
// runs them for as long as this instance holds the leader lease.
package operator

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	apiserverv1 "github.com/openshift/api/apiserver/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	apiserverclient "github.com/openshift/client-go/apiserver/clientset/versioned"
	apiserverinformers "github.com/openshift/client-go/apiserver/informers/externalversions"
	apiserverlisters "github.com/openshift/client-go/apiserver/listers/apiserver/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	configinformers "github.com/openshift/client-go/config/informers/externalversions"
	machineconfigurationclient "github.com/openshift/client-go/machineconfiguration/clientset/versioned"
	machineconfigurationinformers "github.com/openshift/client-go/machineconfiguration/informers/externalversions"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	operatorinformers "github.com/openshift/client-go/operator/informers/externalversions"
	operatorlisters "github.com/openshift/client-go/operator/listers/operator/v1"
	"github.com/openshift/library-go/pkg/controller/controllercmd"
	"github.com/openshift/library-go/pkg/controller/factory"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/controllers/alerts"
	"github.com/update-insights/update-insights-operator/pkg/controllers/clusteroperator"
	"github.com/update-insights/update-insights-operator/pkg/controllers/clusterversion"
	"github.com/update-insights/update-insights-operator/pkg/controllers/node"
	"github.com/update-insights/update-insights-operator/pkg/controllers/olmoperators"
	"github.com/update-insights/update-insights-operator/pkg/controllers/operatorstatus"
	"github.com/update-insights/update-insights-operator/pkg/controllers/updateevents"
	"github.com/update-insights/update-insights-operator/pkg/controllers/updateinformers"
	"github.com/update-insights/update-insights-operator/pkg/controllers/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/controllers/updatestatus"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions"
	informerclient "github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/metrics"
	"github.com/update-insights/update-insights-operator/pkg/names"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
	olmclient "github.com/update-insights/update-insights-operator/pkg/olm/generated/clientset/versioned"
	"github.com/update-insights/update-insights-operator/pkg/version"
)

const (
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

	// nodeWorkers sync nodes and pools in parallel, so that one node's
	// slow write does not hold back the others.
	nodeWorkers = 10

	// DefaultDegradedGracePeriod is how long a controller's problem lasts
	// before the operator reports itself Degraded: long enough for a retried
	// conflict or a restarting API server to pass unnoticed, as library-go
	// operators allow.
	DefaultDegradedGracePeriod = 2 * time.Minute

	// DefaultOptionalAPIInterval is how often the operator looks for an API
	// that a controller needs and the cluster does not serve: one discovery
	// request a minute, for a controller started within a minute of its API.
	DefaultOptionalAPIInterval = time.Minute
)

// Options tune the operator.
type Options struct {
	// Version is the version the operator reports in its ClusterOperator.
	Version string
	// DegradedGracePeriod is how long a problem lasts before the operator
	// reports itself Degraded.
	DegradedGracePeriod time.Duration
	// OptionalAPIInterval is how often the operator looks whether the
	// cluster has come to serve an API a controller that is off needs.
	OptionalAPIInterval time.Duration
	// AlertsURL is the Prometheus API's alerts endpoint; empty switches the
	// alerts controller off. AlertsCAFile verifies its server, and
	// AlertsTokenFile holds the token presented to it. AlertsInterval is
	// how often the alerts are read while an update is in progress.
	AlertsURL, AlertsCAFile, AlertsTokenFile string
	AlertsInterval                           time.Duration
	// InformerInterval is how often the UpdateInformers are asked for their
	// insights while an update is pending.
	InformerInterval time.Duration
	// PlanTTL is how long an UpdatePlan no one touched is kept.
	PlanTTL time.Duration
}

// NewOptions returns the defaults: the release payload's version, from the
// RELEASE_VERSION the payload's Deployment sets, or else the build's.
func NewOptions() *Options {
	v := os.Getenv("RELEASE_VERSION")
	if v == "" {
		v = version.Get().GitVersion
	}
	return &Options{
		Version:             v,
		DegradedGracePeriod: DefaultDegradedGracePeriod,
		OptionalAPIInterval: DefaultOptionalAPIInterval,
		AlertsURL:           alerts.DefaultURL,
		AlertsCAFile:        alerts.DefaultCAFile,
		AlertsTokenFile:     alerts.DefaultTokenFile,
		AlertsInterval:      alerts.DefaultInterval,
		InformerInterval:    updateinformers.DefaultInterval,
		PlanTTL:             updateplan.DefaultTTL,
	}
}

// Run builds the informers and controllers, starts them, and blocks until ctx
// ends (leadership lost or the process told to stop).
func (o *Options) Run(ctx context.Context, controllerContext *controllercmd.ControllerContext) error {
	if o.InformerInterval <= 0 {
		return fmt.Errorf("--informer-interval %s: want a positive duration", o.InformerInterval)
	}
	if o.PlanTTL <= 0 {
		return fmt.Errorf("--plan-ttl %s: want a positive duration", o.PlanTTL)
	}
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
	// Node insights get a client, and so a rate limit, of their own: the
	// thousands of writes of a large cluster's first sync must not queue
	// the control plane's insights behind them.
	nodeInsightsClient, err := insightsclient.NewForConfig(kubeConfig)
	if err != nil {
		return err
	}
	machineConfigurationClient, err := machineconfigurationclient.NewForConfig(kubeConfig)
	if err != nil {
		return err
	}

	kubeClient, err := kubernetes.NewForConfig(protoConfig(kubeConfig))
	if err != nil {
		return err
	}
	apiserverClient, err := apiserverclient.NewForConfig(kubeConfig)
	if err != nil {
		return err
	}
	operatorClient, err := operatorclient.NewForConfig(kubeConfig)
	if err != nil {
		return err
	}
	olmClient, err := olmclient.NewForConfig(kubeConfig)
	if err != nil {
		return err
	}

	configInformers := configinformers.NewSharedInformerFactoryWithOptions(configClient, resyncPeriod,
		configinformers.WithTransform(stripManagedFields))
	machineConfigOperatorInformers := kubeinformers.NewSharedInformerFactoryWithOptions(kubeClient, resyncPeriod,
		kubeinformers.WithNamespace(names.MachineConfigOperatorNamespace), kubeinformers.WithTransform(stripManagedFields))
	nodeInformers := kubeinformers.NewSharedInformerFactoryWithOptions(kubeClient, resyncPeriod,
		kubeinformers.WithTransform(node.StripNode))
	machineConfigurationInformers := machineconfigurationinformers.NewSharedInformerFactoryWithOptions(machineConfigurationClient, resyncPeriod,
		machineconfigurationinformers.WithTransform(node.StripMachineConfiguration))
	insightInformers := insightinformers.NewSharedInformerFactoryWithOptions(insightsClient, resyncPeriod,
		insightinformers.WithTransform(stripManagedFields))
	// The PodDisruptionBudgets the pre-checks look at: few, and small.
	budgetInformers := kubeinformers.NewSharedInformerFactoryWithOptions(kubeClient, resyncPeriod,
		kubeinformers.WithTransform(stripManagedFields))
	// The admin gates and acknowledgements: one ConfigMap in each of two
	// namespaces, which the operator may read and no other.
	adminGatesInformers := oneConfigMap(kubeClient, names.ConfigManagedNamespace, names.AdminGates)
	adminAcksInformers := oneConfigMap(kubeClient, names.ConfigNamespace, names.AdminAcks)
	// The API requests by resource, stripped of what the pre-checks do not
	// read, and the CloudCredential, once the cluster serves them.
	apiserverInformers := apiserverinformers.NewSharedInformerFactoryWithOptions(apiserverClient, resyncPeriod,
		apiserverinformers.WithTransform(updateplan.StripAPIRequestCount))
	operatorInformers := operatorinformers.NewSharedInformerFactoryWithOptions(operatorClient, resyncPeriod,
		operatorinformers.WithTransform(stripManagedFields), operatorinformers.WithTweakListOptions(byName(names.CloudCredential)))

	// OLM's objects, once the cluster serves them: the CSVs but OLM's
	// copies, the Subscriptions and the InstallPlans.
	olmInformers := olmoperators.NewInformers(olmClient, resyncPeriod)

	tracker := operatorstatus.NewTracker(controllerContext.Clock, metrics.ObserveSync)

	clusterVersionController, err := clusterversion.New(
		configInformers.Config().V1().ClusterVersions(),
		configInformers.Config().V1().ClusterOperators(),
		machineConfigOperatorInformers.Apps().V1().Deployments(),
		insightInformers.Insights().V1alpha1().ClusterVersionProgressInsights(),
		insightInformers.Insights().V1alpha1().UpdateHealthInsights(),
		insightsClient.InsightsV1alpha1(),
		tracker,
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
		tracker,
		controllerContext.EventRecorder,
		controllerContext.Clock,
	)
	if err != nil {
		return err
	}

	eventRecorder, stopRecording := updateevents.NewRecorder(kubeClient, names.Component)
	defer stopRecording()
	eventsController := updateevents.New(
		insightInformers.Insights().V1alpha1().ClusterVersionProgressInsights(),
		insightInformers.Insights().V1alpha1().UpdateHealthInsights(),
		eventRecorder,
		tracker,
		controllerContext.EventRecorder,
	)

	answers := updatestatus.NewStore()
	updateStatusController, err := updatestatus.New(
		configInformers.Config().V1().ClusterVersions(),
		insightInformers.Insights().V1alpha1(),
		insightsClient.InsightsV1alpha1(),
		answers,
		tracker,
		controllerContext.EventRecorder,
		controllerContext.Clock,
	)
	if err != nil {
		return err
	}

	informerRequests := informerclient.NewLimit(updateinformers.MaxRequestsInFlight)
	updateInformersController := updateinformers.New(
		insightInformers.Insights().V1alpha1().UpdateInformers(),
		configInformers.Config().V1().ClusterVersions(),
		// The Services and EndpointSlices of Service-backed informers are
		// read when an informer is called, and each informer's own are
		// watched, rather than cached: they may be in any namespace, and a
		// cache would hold every one of the cluster for a handful of
		// informers.
		kubeClient,
		kubeClient.CoreV1(),
		insightsClient.InsightsV1alpha1(),
		answers,
		o.InformerInterval,
		informerRequests,
		tracker,
		controllerContext.EventRecorder,
		controllerContext.Clock,
	)

	statusController := operatorstatus.New(
		configInformers.Config().V1().ClusterOperators(),
		configClient.ConfigV1(),
		tracker,
		operatorstatus.Options{Version: o.Version, Namespace: controllerContext.OperatorNamespace, GracePeriod: o.DegradedGracePeriod},
		controllerContext.EventRecorder,
		controllerContext.Clock,
	)

	updateMetrics := metrics.NewUpdateCollector(
		insightInformers.Insights().V1alpha1().ClusterVersionProgressInsights().Lister(),
		insightInformers.Insights().V1alpha1().UpdateHealthInsights().Lister(),
		controllerContext.Clock,
	)
	informerMetrics := metrics.NewInformerCollector(insightInformers.Insights().V1alpha1().UpdateStatuses().Lister())
	// The fleet metrics, which a hub federates from every cluster.
	fleetMetrics := metrics.NewFleetCollector(metrics.FleetListers{
		ClusterVersions: insightInformers.Insights().V1alpha1().ClusterVersionProgressInsights().Lister(),
		Pools:           insightInformers.Insights().V1alpha1().MachineConfigPoolProgressInsights().Lister(),
		Nodes:           insightInformers.Insights().V1alpha1().NodeProgressInsights().Lister(),
		Health:          insightInformers.Insights().V1alpha1().UpdateHealthInsights().Lister(),
		UpdateStatuses:  insightInformers.Insights().V1alpha1().UpdateStatuses().Lister(),
		UpdatePlans:     insightInformers.Insights().V1alpha1().UpdatePlans().Lister(),
	}, controllerContext.Clock)
	metrics.Register(updateMetrics, informerMetrics, fleetMetrics)
	defer metrics.Unregister(updateMetrics, informerMetrics, fleetMetrics)

	// Informers are started only after every controller has asked for the
	// ones it needs: a factory starts just the informers requested so far,
	// and a controller started later starts its factories again.
	factories := []informerFactory{configInformers, machineConfigOperatorInformers, nodeInformers, machineConfigurationInformers, insightInformers, budgetInformers,
		adminGatesInformers, adminAcksInformers, apiserverInformers, operatorInformers, olmInformers}
	var controllers sync.WaitGroup
	run := func(c factory.Controller, workers int) {
		for _, f := range factories {
			f.Start(ctx.Done())
		}
		controllers.Add(1)
		go func() {
			defer controllers.Done()
			c.Run(ctx, workers)
		}()
	}
	for c, workers := range map[factory.Controller]int{
		clusterVersionController:  1,
		clusterOperatorController: 1,
		eventsController:          1,
		updateInformersController: 1,
		statusController:          1,
	} {
		run(c, workers)
	}

	// The health of OLM's operators during an update needs OLM's API, an
	// optional capability: without it the controller is off until the API
	// appears. Whether the cluster serves it at start is known before the
	// store is seeded.
	var olmServed atomic.Bool
	whenServed(ctx, olmClient.Discovery(), olmAPI, o.OptionalAPIInterval, olmoperators.Name,
		func(why string, _ bool) { tracker.SwitchOff(olmoperators.Name, why) },
		func() {
			olmServed.Store(true)
			tracker.SwitchOn(olmoperators.Name)
			run(olmoperators.New(olmInformers, configInformers.Config().V1().ClusterVersions(), answers, tracker,
				controllerContext.EventRecorder, controllerContext.Clock), 1)
		})

	// A restart must not empty UpdateStatus of the external informers'
	// insights before they are asked again: the store starts with what the
	// UpdateStatus holds, and the controller that writes it starts after.
	// Meanwhile the other controllers run, and the tracker reports caches
	// that do not sync. So with OLM's operators, a built-in informer, when
	// the cluster serves OLM's API: until the OLM controller's first sync.
	go func() {
		if seedAnswers(ctx, insightInformers, answers, olmServed.Load) {
			run(updateStatusController, 1)
		}
	}()

	alertsSource, err := o.alertsSource()
	if err != nil {
		return err
	}
	alertsController, err := o.alertsController(alertsSource, configInformers, insightInformers, insightsClient, tracker, controllerContext)
	if err != nil {
		return err
	}
	if alertsController != nil {
		// One worker: the controller keeps its last read of the alerts.
		run(alertsController, 1)
	}

	// The node controller, and the UpdatePlan controller, whose pre-checks
	// read the pools, need the machine-config operator's API: without it
	// they are off until the API appears, and then start without a restart.
	// They share what the node controller learns of how long a node takes
	// to update, which the pre-checks' estimate uses.
	perNode := &nodes.PerNodeTimes{}
	apiRequestCounts := updateplan.NewOptional[apiserverlisters.APIRequestCountLister]()
	cloudCredentials := updateplan.NewOptional[operatorlisters.CloudCredentialLister]()
	olmPlans := updateplan.NewOptional[updateplan.OLMPlanner]()
	var planAlerts alerts.Source
	if alertsSource != nil {
		planAlerts = alertsSource
	}
	whenServed(ctx, machineConfigurationClient.Discovery(), machineConfigurationAPI, o.OptionalAPIInterval, node.Name,
		func(why string, _ bool) {
			tracker.SwitchOff(node.Name, why)
			tracker.SwitchOff(updateplan.Name, why)
		},
		func() {
			nodeController, err := node.New(
				nodeInformers.Core().V1().Nodes(),
				machineConfigurationInformers.Machineconfiguration().V1().MachineConfigPools(),
				machineConfigurationInformers.Machineconfiguration().V1().MachineConfigs(),
				configInformers.Config().V1().ClusterVersions(),
				insightInformers.Insights().V1alpha1().NodeProgressInsights(),
				insightInformers.Insights().V1alpha1().MachineConfigPoolProgressInsights(),
				insightInformers.Insights().V1alpha1().UpdateHealthInsights(),
				nodeInsightsClient.InsightsV1alpha1(),
				perNode,
				tracker,
				controllerContext.EventRecorder,
				controllerContext.Clock,
			)
			if err != nil {
				// Only a programming error (an index added twice) gets here.
				klog.ErrorS(err, "Cannot build the node controller")
				tracker.SwitchOff(node.Name, fmt.Sprintf("it could not be built: %v", err))
				return
			}
			tracker.SwitchOn(node.Name)
			run(nodeController, nodeWorkers)

			planController, err := updateplan.New(ctx,
				insightInformers.Insights().V1alpha1().UpdatePlans(),
				insightInformers.Insights().V1alpha1().UpdateInformers(),
				configInformers.Config().V1().ClusterVersions(),
				configInformers.Config().V1().ClusterOperators(),
				nodeInformers.Core().V1().Nodes(),
				machineConfigurationInformers.Machineconfiguration().V1().MachineConfigPools(),
				budgetInformers.Policy().V1().PodDisruptionBudgets(),
				adminGatesInformers.Core().V1().ConfigMaps(),
				adminAcksInformers.Core().V1().ConfigMaps(),
				updateplan.Config{
					Pods: kubeClient.CoreV1(), Events: kubeClient.CoreV1(), Alerts: planAlerts, PerNode: perNode,
					APIRequestCounts: apiRequestCounts, CloudCredentials: cloudCredentials, OLM: olmPlans,
					Asker:  updateinformers.NewPlanAsker(kubeClient.CoreV1(), kubeClient.DiscoveryV1(), informerRequests, controllerContext.Clock),
					Client: insightsClient.InsightsV1alpha1(), TTL: o.PlanTTL,
				},
				tracker,
				controllerContext.EventRecorder,
				controllerContext.Clock,
			)
			if err != nil {
				klog.ErrorS(err, "Cannot build the UpdatePlan controller")
				tracker.SwitchOff(updateplan.Name, fmt.Sprintf("it could not be built: %v", err))
				return
			}
			// The pre-checks of a minor update read APIRequestCounts and
			// the CloudCredential, which not every cluster serves: until it
			// does, those checks say they could not run.
			whenServed(ctx, configClient.Discovery(), apiRequestCountAPI, o.OptionalAPIInterval, updateplan.Name+" (APIRequestCounts)",
				apiRequestCounts.Off,
				func() {
					informer := apiserverInformers.Apiserver().V1().APIRequestCounts()
					serveOptional(ctx, apiRequestCounts, informer.Lister(), map[string]cache.SharedIndexInformer{"apirequestcounts": informer.Informer()}, tracker, apiserverInformers)
				})
			whenServed(ctx, configClient.Discovery(), cloudCredentialAPI, o.OptionalAPIInterval, updateplan.Name+" (CloudCredentials)",
				cloudCredentials.Off,
				func() {
					informer := operatorInformers.Operator().V1().CloudCredentials()
					serveOptional(ctx, cloudCredentials, informer.Lister(), map[string]cache.SharedIndexInformer{"cloudcredentials": informer.Informer()}, tracker, operatorInformers)
				})
			// OLM's operators have findings of their own, under their own
			// informer name, once the cluster serves OLM's API.
			whenServed(ctx, olmClient.Discovery(), olmAPI, o.OptionalAPIInterval, updateplan.Name+" (OLM)",
				olmPlans.Off,
				func() {
					listers, informers := olmInformers.Listers()
					serveOptional(ctx, olmPlans, updateplan.OLMPlanner(listers), map[string]cache.SharedIndexInformer{
						"clusterserviceversions": informers[0], "subscriptions": informers[1], "installplans": informers[2],
					}, tracker, olmInformers)
				})
			tracker.SwitchOn(updateplan.Name)
			run(planController, updateplan.Workers)
		})

	klog.Info("operator started")
	<-ctx.Done()
	controllers.Wait()
	for _, f := range factories {
		f.Shutdown()
	}
	klog.Info("operator stopped")
	return nil
}

// alertsSource reads the cluster's alerts at the alerts URL, or is nil when
// none is set.
func (o *Options) alertsSource() (*alerts.HTTPSource, error) {
	if o.AlertsURL == "" {
		return nil, nil
	}
	source, err := alerts.NewHTTPSource(o.AlertsURL, o.AlertsCAFile, o.AlertsTokenFile)
	if err != nil {
		return nil, err
	}
	if o.AlertsTokenFile != "" && !source.SendsToken() {
		klog.InfoS("The alerts URL is not https: the service account's token is not sent to it", "url", o.AlertsURL)
	}
	return source, nil
}

// alertsController returns the alerts controller, or nil when no alerts URL
// is set, which switches it off.
func (o *Options) alertsController(source *alerts.HTTPSource, configInformers configinformers.SharedInformerFactory, insightInformers insightinformers.SharedInformerFactory,
	client insightsclient.Interface, tracker *operatorstatus.Tracker, controllerContext *controllercmd.ControllerContext) (factory.Controller, error) {
	if source == nil {
		klog.Info("No alerts URL is set: firing alerts are not reported")
		tracker.SwitchOff(alerts.Name, "no --alerts-url is set")
		return nil, nil
	}
	if o.AlertsInterval <= 0 {
		return nil, fmt.Errorf("--alerts-interval %s: want a positive duration", o.AlertsInterval)
	}
	return alerts.New(
		configInformers.Config().V1().ClusterVersions(),
		insightInformers.Insights().V1alpha1().MachineConfigPoolProgressInsights(),
		insightInformers.Insights().V1alpha1().ClusterVersionProgressInsights(),
		insightInformers.Insights().V1alpha1().UpdateHealthInsights(),
		client.InsightsV1alpha1(),
		source,
		o.AlertsInterval,
		tracker,
		controllerContext.EventRecorder,
		controllerContext.Clock,
	)
}

// seedAnswers seeds the store from the UpdateStatus once the caches of
// UpdateStatuses and UpdateInformers have synced, OLM's operators too when
// olmServed says the OLM controller runs; false when ctx ended first.
func seedAnswers(ctx context.Context, insightInformers insightinformers.SharedInformerFactory, answers *updatestatus.Store, olmServed func() bool) bool {
	statuses := insightInformers.Insights().V1alpha1().UpdateStatuses()
	informers := insightInformers.Insights().V1alpha1().UpdateInformers()
	insightInformers.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), statuses.Informer().HasSynced, informers.Informer().HasSynced) {
		return false
	}
	status, err := statuses.Lister().Get(insightsv1alpha1.UpdateStatusName)
	if err != nil {
		// None yet: nothing to keep.
		return true
	}
	if olmServed() {
		olmoperators.Seed(answers, status)
	}
	all, err := informers.Lister().List(labels.Everything())
	if err != nil {
		return true
	}
	updateinformers.Seed(answers, status, all)
	return true
}

// informerFactory is what the operator does with each informer factory.
type informerFactory interface {
	Start(stopCh <-chan struct{})
	Shutdown()
}

// machineConfigurationAPI is what the node controller reads of the
// machine-config operator's API.
var machineConfigurationAPI = optionalAPI{
	groupVersion: machineconfigurationv1.GroupVersion,
	resources:    []string{"machineconfigpools", "machineconfigs"},
}

// apiRequestCountAPI and cloudCredentialAPI are what the pre-checks of a
// minor update read of APIs that not every cluster serves: the
// kube-apiserver's request counts, and the cloud-credential operator's
// configuration (an optional capability).
var (
	apiRequestCountAPI = optionalAPI{groupVersion: apiserverv1.GroupVersion, resources: []string{"apirequestcounts"}}
	cloudCredentialAPI = optionalAPI{groupVersion: operatorv1.GroupVersion, resources: []string{"cloudcredentials"}}
)

// olmAPI is what the operator reads of OLM, an optional capability.
var olmAPI = optionalAPI{
	groupVersion: operatorsv1alpha1.SchemeGroupVersion,
	resources:    []string{"clusterserviceversions", "subscriptions", "installplans"},
}

// serveOptional has the UpdatePlan controller read an optional API through
// lister, from informers by resource, which factory starts, and the
// tracker wait for their caches.
func serveOptional[L any](ctx context.Context, api *updateplan.Optional[L], lister L, informers map[string]cache.SharedIndexInformer,
	tracker *operatorstatus.Tracker, factory informerFactory) {
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

// oneConfigMap is an informer factory for the one ConfigMap of namespace
// named name.
func oneConfigMap(client kubernetes.Interface, namespace, name string) kubeinformers.SharedInformerFactory {
	return kubeinformers.NewSharedInformerFactoryWithOptions(client, resyncPeriod,
		kubeinformers.WithNamespace(namespace), kubeinformers.WithTweakListOptions(byName(name)), kubeinformers.WithTransform(stripManagedFields))
}

// byName lists and watches the object named name only: RBAC can then
// limit the operator to that object (resourceNames), as the API server
// authorizes a list or watch by its metadata.name field selector.
func byName(name string) func(*metav1.ListOptions) {
	return func(o *metav1.ListOptions) {
		o.FieldSelector = fields.OneTermEqualSelector("metadata.name", name).String()
	}
}

// stripManagedFields drops what the API server keeps of who wrote which
// field: a good part of every cached object, which the operator reads of
// UpdatePlans only.
func stripManagedFields(obj any) (any, error) {
	if _, ok := obj.(*insightsv1alpha1.UpdatePlan); ok {
		// When someone last touched a plan is in its managed fields: an
		// untouched plan is pruned.
		return obj, nil
	}
	if o, err := meta.Accessor(obj); err == nil {
		o.SetManagedFields(nil)
	}
	return obj, nil
}

// protoConfig asks for protobuf, which built-in kinds such as Deployments
// support and custom resources do not.
func protoConfig(config *rest.Config) *rest.Config {
	config = rest.CopyConfig(config)
	config.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	config.ContentType = "application/vnd.kubernetes.protobuf"
	return config
}
