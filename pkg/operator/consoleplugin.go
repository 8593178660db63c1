package operator

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/update-insights/update-insights-operator/pkg/controllers/consoleplugin"
)

// consolePluginAPI is the console's plugin API, served on clusters with
// the Console capability: its CRD carries capability.openshift.io/name:
// Console (openshift/api console/v1/zz_generated.crd-manifests/90_consoleplugins.crd.yaml).
// Its Go types are not needed: the operator only asks whether it is served.
var consolePluginAPI = optionalAPI{
	groupVersion: schema.GroupVersion{Group: "console.openshift.io", Version: "v1"},
	resources:    []string{"consoleplugins"},
}

// startConsolePlugin runs the controller that enables the console plugin
// in the console's configuration, once the cluster serves ConsolePlugins
// (the payload's ConsolePlugin exists then), unless --enable-console-plugin
// is false, which leaves the console's plugins alone.
func (s *starter) startConsolePlugin(ctx context.Context) {
	if !s.options.EnableConsolePlugin {
		s.tracker.SwitchOff(consoleplugin.Name, "--enable-console-plugin=false leaves the console's plugins as they are")
		return
	}
	whenServed(ctx, s.clients.operator.Discovery(), consolePluginAPI, s.options.OptionalAPIInterval, consoleplugin.Name,
		func(why string, _ bool) { s.tracker.SwitchOff(consoleplugin.Name, why) },
		func() {
			s.tracker.SwitchOn(consoleplugin.Name)
			// One worker: there is one object to write.
			s.run(ctx, consoleplugin.New(s.clients.operator.OperatorV1(), s.tracker, s.options.OptionalAPIInterval,
				s.controllerContext.EventRecorder, s.controllerContext.Clock), 1)
		})
}
