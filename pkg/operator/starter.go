// Package operator wires the informers and controllers of the operator and
// runs them for as long as this instance holds the leader lease.
//
// Run lists what the operator runs, in the order it starts them; the
// clients (clients.go), the informer factories (factories.go) and each
// controller or group of controllers (one file each) are built apart, as
// the cluster-version operator splits its start (pkg/start/start.go in
// openshift/cluster-version-operator).
package operator

import (
	"context"
	"sync"

	"github.com/openshift/library-go/pkg/controller/controllercmd"
	"github.com/openshift/library-go/pkg/controller/factory"
	"k8s.io/klog/v2"

	"github.com/update-insights/update-insights-operator/pkg/controllers/updateinformers"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	informerclient "github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/metrics"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// Run builds the informers and controllers, starts them, and blocks until ctx
// ends (leadership lost or the process told to stop).
func (o *Options) Run(ctx context.Context, controllerContext *controllercmd.ControllerContext) error {
	if err := o.validate(); err != nil {
		return err
	}
	clients, err := newClients(controllerContext.KubeConfig)
	if err != nil {
		return err
	}
	s := &starter{options: o, controllerContext: controllerContext, clients: clients,
		tracker: tracker.New(controllerContext.Clock, metrics.ObserveSync)}
	// The topology decides what the node cache keeps: the factories are
	// built once it is known.
	if s.topology, err = s.readTopology(ctx); err != nil {
		return err
	}
	s.factories = newFactories(clients, s.topology)

	// The controllers that run from the start are all built before the
	// first runs: a factory starts just the informers asked for so far.
	controlPlane, err := s.controlPlaneControllers()
	if err != nil {
		return err
	}
	events, stopRecording := s.eventsController()
	defer stopRecording()
	records, err := s.recordController()
	if err != nil {
		return err
	}
	answers := updatestatus.NewStore()
	updateStatus, err := s.updateStatusController(answers)
	if err != nil {
		return err
	}
	// The UpdateInformers are called by UpdateStatus' informers controller
	// and the UpdatePlan controller, within one limit of calls in flight.
	informerRequests := informerclient.NewLimit(updateinformers.MaxRequestsInFlight)
	updateInformers, err := s.updateInformersController(answers, informerRequests)
	if err != nil {
		return err
	}
	ownStatus, err := s.ownStatusController()
	if err != nil {
		return err
	}
	unregisterMetrics := s.registerMetrics()
	defer unregisterMetrics()
	for _, c := range append(controlPlane, events, records, updateInformers, ownStatus) {
		s.run(ctx, c, 1)
	}

	// The built-in informers' controllers start, each when the cluster
	// serves its API, before the store is seeded: the seeding keeps an
	// informer's insights only when its controller runs.
	running := s.startBuiltinInformers(ctx, answers)
	s.startUpdateStatus(ctx, updateStatus, answers, running)
	alertsSource, err := s.startAlerts(ctx)
	if err != nil {
		return err
	}
	if s.topology == hosted.Hosted {
		s.startHosted(ctx, answers, alertsSource, informerRequests)
	} else {
		s.startNodesAndPlans(ctx, answers, alertsSource, informerRequests)
	}
	s.startOptional(ctx)

	klog.Info("operator started")
	<-ctx.Done()
	s.controllers.Wait()
	s.factories.Shutdown()
	klog.Info("operator stopped")
	return nil
}

// starter is what building and starting a controller takes: the options,
// the cluster's topology, the clients, the informer factories, the tracker
// every controller's sync runs through, and the controllers started so far,
// which Run waits for.
type starter struct {
	options           *Options
	topology          hosted.Topology
	controllerContext *controllercmd.ControllerContext
	clients           *clients
	factories         *factories
	tracker           *tracker.Tracker
	controllers       sync.WaitGroup
}

// run starts the factories, and so the informers controller asked for when
// it was built, then controller with workers until ctx ends. A controller
// started later, once the cluster serves its API or once the store it
// reads is seeded, starts its own informers so.
func (s *starter) run(ctx context.Context, controller factory.Controller, workers int) {
	s.factories.Start(ctx.Done())
	s.controllers.Add(1)
	go func() {
		defer s.controllers.Done()
		controller.Run(ctx, workers)
	}()
}
