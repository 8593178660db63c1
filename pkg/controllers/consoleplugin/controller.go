// Package consoleplugin enables the operator's console plugin: it adds the
// plugin's name to the console's enabled plugins, spec.plugins of the
// console operator's configuration consoles.operator.openshift.io/cluster,
// once, as openshift/console-plugin-template's patcher Job does at install
// (charts/openshift-console-plugin/templates/patch-consoles-job.yaml).
//
// The console operator loads the plugins of spec.plugins that have a
// ConsolePlugin, in the order spec.plugins lists them
// (openshift/console-operator pkg/console/operator/sync_v400.go
// GetAvailablePlugins, pkg/console/subresource/consoleserver/config_builder.go
// PluginsOrder): so the plugin is appended, and no other plugin is removed
// or moved. Unlike the template's patcher, which sorts the list with jq's
// unique, the list is kept as it is.
//
// Enabling is done once: the Console configuration is annotated with when
// the operator enabled the plugin, and a configuration so annotated is left
// alone, so that an administrator who disables the plugin (in the console's
// own list of plugins, which edits spec.plugins) keeps it disabled.
package consoleplugin

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	operatorv1 "github.com/openshift/api/operator/v1"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned/typed/operator/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

const (
	controllerName = "ConsolePluginController"

	// Name names the controller in the operator's conditions and metrics.
	Name = "ConsolePlugin"

	// PluginName is the name of the plugin and of its ConsolePlugin.
	PluginName = names.ConsolePlugin

	// ConsoleConfig is the name of the console operator's one
	// configuration (openshift/console-operator manifests/01-operator-config.yaml).
	ConsoleConfig = "cluster"

	// EnabledAnnotation, on the Console configuration, says when the
	// operator enabled its plugin there: it does so only once.
	EnabledAnnotation = "oue.openshift.muller.dev/console-plugin-enabled"

	// fieldManager names the operator as the writer of what it patches.
	fieldManager = "update-insights-operator"

	// resyncInterval is how often the configuration is read again: a GET,
	// which finds the plugin enabled almost always. A configuration that
	// is created meanwhile (or again, without the annotation) gets the
	// plugin at the next.
	resyncInterval = 10 * time.Minute
)

// Controller adds the plugin to the Console configuration once.
type Controller struct {
	consoles operatorclient.ConsoleInterface
	tracker  *tracker.Tracker
	// recheck is how soon a missing Console configuration is looked for
	// again.
	recheck time.Duration
	clock   clock.PassiveClock
}

// New returns the controller. It reads and patches the Console
// configuration by name, with no informer: RBAC grants it get and patch of
// that one object, nothing else of the console's. A missing configuration
// switches it off in the tracker, and is looked for again after recheck.
func New(client operatorclient.ConsolesGetter, tracker *tracker.Tracker, recheck time.Duration, recorder events.Recorder, clock clock.PassiveClock) factory.Controller {
	c := &Controller{consoles: client.Consoles(), tracker: tracker, recheck: recheck, clock: clock}
	return factory.New().
		WithSync(tracker.Sync(Name, c.sync)).
		ResyncEvery(resyncInterval).
		ToController(controllerName, recorder)
}

func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error { return c.enable(ctx) })
	if apierrors.IsNotFound(err) {
		c.tracker.SwitchOff(Name, fmt.Sprintf("the cluster has no consoles.operator.openshift.io/%s to enable the console plugin in", ConsoleConfig))
		syncCtx.Queue().AddAfter(syncCtx.QueueKey(), c.recheck)
		return nil
	}
	if err != nil {
		return err
	}
	c.tracker.SwitchOn(Name)
	return nil
}

// enable reads the configuration and patches it when the plugin is to be
// enabled.
func (c *Controller) enable(ctx context.Context) error {
	console, err := c.consoles.Get(ctx, ConsoleConfig, metav1.GetOptions{})
	if err != nil {
		return err
	}
	patch, err := enablePatch(console, c.clock.Now())
	if err != nil {
		return err
	}
	if patch == nil {
		klog.V(2).InfoS("The console plugin was enabled before: the console's plugins are left as they are",
			"plugin", PluginName, "enabledAt", console.Annotations[EnabledAnnotation], "plugins", console.Spec.Plugins)
		return nil
	}
	if _, err := c.consoles.Patch(ctx, ConsoleConfig, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: fieldManager}); err != nil {
		return err
	}
	klog.InfoS("Enabled the console plugin", "plugin", PluginName, "console", ConsoleConfig)
	return nil
}

// enablePatch returns the merge patch that enables the plugin in console at
// now: the plugin appended to spec.plugins, unless it is there already, and
// the annotation. nil when the annotation says the plugin was enabled
// before. A merge patch replaces a list whole, so the patch carries the
// resourceVersion it was made from: the API server refuses it with a
// Conflict if anyone changed the configuration since, rather than drop
// their change.
func enablePatch(console *operatorv1.Console, now time.Time) ([]byte, error) {
	if _, done := console.Annotations[EnabledAnnotation]; done {
		return nil, nil
	}
	type metadata struct {
		ResourceVersion string            `json:"resourceVersion"`
		Annotations     map[string]string `json:"annotations"`
	}
	type spec struct {
		Plugins []string `json:"plugins"`
	}
	patch := struct {
		Metadata metadata `json:"metadata"`
		Spec     *spec    `json:"spec,omitempty"`
	}{
		Metadata: metadata{
			ResourceVersion: console.ResourceVersion,
			Annotations:     map[string]string{EnabledAnnotation: now.UTC().Format(time.RFC3339)},
		},
	}
	if !slices.Contains(console.Spec.Plugins, PluginName) {
		patch.Spec = &spec{Plugins: append(slices.Clone(console.Spec.Plugins), PluginName)}
	}
	return json.Marshal(patch)
}
