package operator

import (
	"context"
	"fmt"

	"github.com/openshift/library-go/pkg/controller/factory"
	"k8s.io/klog/v2"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	alertscontroller "github.com/update-insights/update-insights-operator/pkg/controllers/alerts"
)

// startAlerts runs the alerts controller when an alerts URL is set, and
// returns the source it reads the alerts from, which the pre-checks read
// too: nil when no alerts URL is set.
func (s *starter) startAlerts(ctx context.Context) (*alerts.HTTPSource, error) {
	source, err := s.options.alertsSource()
	if err != nil {
		return nil, err
	}
	controller, err := s.alertsController(source)
	if err != nil {
		return nil, err
	}
	if controller != nil {
		// One worker: the controller keeps its last read of the alerts.
		s.run(ctx, controller, 1)
	}
	return source, nil
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
func (s *starter) alertsController(source *alerts.HTTPSource) (factory.Controller, error) {
	if source == nil {
		klog.Info("No alerts URL is set: firing alerts are not reported")
		s.tracker.SwitchOff(alertscontroller.Name, "no --alerts-url is set")
		return nil, nil
	}
	if s.options.AlertsInterval <= 0 {
		return nil, fmt.Errorf("--alerts-interval %s: want a positive duration", s.options.AlertsInterval)
	}
	insights := s.factories.insights.Insights().V1alpha1()
	return alertscontroller.New(
		s.factories.config.Config().V1().ClusterVersions(),
		insights.MachineConfigPoolProgressInsights(),
		insights.ClusterVersionProgressInsights(),
		insights.UpdateHealthInsights(),
		s.clients.insights.InsightsV1alpha1(),
		source,
		s.options.AlertsInterval,
		s.tracker,
		s.controllerContext.EventRecorder,
		s.controllerContext.Clock,
	)
}
