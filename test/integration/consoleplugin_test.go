package integration

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"github.com/openshift/library-go/pkg/operator/events"
	authorizationv1 "k8s.io/api/authorization/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/controllers/consoleplugin"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

// The console plugins other components enable, in the order an
// administrator's cluster might list them.
var otherPlugins = []string{"monitoring-plugin", "networking-console-plugin"}

// createConsoleConfig creates the console operator's configuration with
// plugins enabled, as the console operator's manifest creates it, and
// deletes it when the test ends.
func createConsoleConfig(t *testing.T, plugins ...string) {
	t.Helper()
	console := &operatorv1.Console{
		ObjectMeta: metav1.ObjectMeta{Name: consoleplugin.ConsoleConfig},
		Spec:       operatorv1.ConsoleSpec{OperatorSpec: operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}, Plugins: plugins},
	}
	if _, err := operatorClient.OperatorV1().Consoles().Create(context.Background(), console, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(deleteConsoleConfig(t))
}

func deleteConsoleConfig(t *testing.T) func() {
	return func() {
		err := operatorClient.OperatorV1().Consoles().Delete(context.Background(), consoleplugin.ConsoleConfig, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting the Console configuration: %v", err)
		}
	}
}

func getConsoleConfig(ctx context.Context) (*operatorv1.Console, error) {
	return operatorClient.OperatorV1().Consoles().Get(ctx, consoleplugin.ConsoleConfig, metav1.GetOptions{})
}

func consoleConfigNow(t *testing.T) *operatorv1.Console {
	t.Helper()
	c, err := getConsoleConfig(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The operator appends its plugin to the console's enabled plugins once the
// cluster serves ConsolePlugins, keeping the others in their order; an
// administrator who disables it afterwards keeps it disabled, across a
// restart of the operator.
func TestTheOperatorEnablesItsConsolePluginOnce(t *testing.T) {
	waitForServed(t, "console.openshift.io/v1", "consoleplugins")
	createConsoleConfig(t, otherPlugins...)
	op := startOperator(t, "--optional-api-interval=1s")

	enabled := append(slices.Clone(otherPlugins), consoleplugin.PluginName)
	c := waitFor(t, eventually, "the plugin enabled after the others", getConsoleConfig, func(c *operatorv1.Console) bool {
		return slices.Equal(c.Spec.Plugins, enabled) && c.Annotations[consoleplugin.EnabledAnnotation] != ""
	})
	t.Logf("enabled at %s: %v", c.Annotations[consoleplugin.EnabledAnnotation], c.Spec.Plugins)
	op.waitForOutput(t, "Enabled the console plugin", eventually)
	op.stop(t, terminationGracePeriod)

	// The administrator disables it, as the console's list of plugins does.
	c.Spec.Plugins = slices.Clone(otherPlugins)
	if _, err := operatorClient.OperatorV1().Consoles().Update(context.Background(), c, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	op = startOperator(t, "--optional-api-interval=1s")
	op.waitForOutput(t, "The console plugin was enabled before", eventually)
	if got := consoleConfigNow(t).Spec.Plugins; !slices.Equal(got, otherPlugins) {
		t.Errorf("plugins %v after the operator restarted, want the administrator's %v", got, otherPlugins)
	}
	if n := strings.Count(op.output.String(), "Enabled the console plugin"); n != 0 {
		t.Errorf("the restarted operator enabled the plugin %d times, want none", n)
	}
}

// The controller's merge patch replaces spec.plugins whole and carries the
// resourceVersion it was made from: the API server refuses it with a
// Conflict once someone else changed the configuration, so that their
// change is never dropped.
func TestTheAPIServerRefusesAStaleMergePatchOfTheConsolePlugins(t *testing.T) {
	createConsoleConfig(t, otherPlugins...)
	read := consoleConfigNow(t)
	changed := read.DeepCopy()
	changed.Spec.Plugins = append(changed.Spec.Plugins, "kubevirt-plugin")
	if _, err := operatorClient.OperatorV1().Consoles().Update(context.Background(), changed, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	stale := `{"metadata":{"resourceVersion":"` + read.ResourceVersion + `"},"spec":{"plugins":["monitoring-plugin","networking-console-plugin","update-insights-console-plugin"]}}`
	_, err := operatorClient.OperatorV1().Consoles().Patch(context.Background(), consoleplugin.ConsoleConfig, types.MergePatchType, []byte(stale), metav1.PatchOptions{})
	if !apierrors.IsConflict(err) {
		t.Errorf("a merge patch made from resourceVersion %s after a change: %v, want a Conflict", read.ResourceVersion, err)
	}
	if got := consoleConfigNow(t).Spec.Plugins; !slices.Contains(got, "kubevirt-plugin") {
		t.Errorf("plugins %v: the other writer's plugin was dropped", got)
	}
}

// Without the console's configuration the controller is off, and the
// operator's ClusterOperator says so; once the configuration is created,
// the plugin is enabled without a restart.
func TestWithoutTheConsoleConfigurationTheConsolePluginControllerIsOff(t *testing.T) {
	waitForServed(t, "console.openshift.io/v1", "consoleplugins")
	deleteConsoleConfig(t)()
	op := startOperator(t, "--optional-api-interval=1s")

	const off = "ConsolePlugin controller: off, the cluster has no consoles.operator.openshift.io/cluster to enable the console plugin in"
	co := waitForOwnClusterOperator(t, eventually, "saying the console plugin controller is off", func(co *configv1.ClusterOperator) bool {
		return strings.Contains(availableMessage(co), off)
	})
	t.Logf("Available: %q", availableMessage(co))

	createConsoleConfig(t)
	waitFor(t, eventually, "the plugin enabled", getConsoleConfig, func(c *operatorv1.Console) bool {
		return slices.Equal(c.Spec.Plugins, []string{consoleplugin.PluginName})
	})
	waitForOwnClusterOperator(t, eventually, "no longer saying the console plugin controller is off", func(co *configv1.ClusterOperator) bool {
		return !strings.Contains(availableMessage(co), "ConsolePlugin controller")
	})
	if !op.Running() || strings.Count(op.output.String(), "operator started") != 1 {
		t.Errorf("the plugin was not enabled by the process that was running")
	}
}

// --enable-console-plugin=false leaves the console's plugins alone, and the
// operator's ClusterOperator says why the controller is off.
func TestTheConsolePluginFlagLeavesTheConsolesPluginsAlone(t *testing.T) {
	waitForServed(t, "console.openshift.io/v1", "consoleplugins")
	createConsoleConfig(t, otherPlugins...)
	startOperator(t, "--optional-api-interval=1s", "--enable-console-plugin=false")

	const off = "ConsolePlugin controller: off, --enable-console-plugin=false leaves the console's plugins as they are"
	waitForOwnClusterOperator(t, eventually, "saying the console plugin controller is off", func(co *configv1.ClusterOperator) bool {
		return strings.Contains(availableMessage(co), off)
	})
	c := consoleConfigNow(t)
	if !slices.Equal(c.Spec.Plugins, otherPlugins) || c.Annotations[consoleplugin.EnabledAnnotation] != "" {
		t.Errorf("plugins %v, annotations %v: the operator changed the console's configuration", c.Spec.Plugins, c.Annotations)
	}
}

// The payload's ClusterRole lets the operator's ServiceAccount get and
// patch the Console configuration named cluster, and nothing else of the
// consoles': what the controller does, run as that ServiceAccount, and no
// more.
func TestThePayloadRBACLetsTheOperatorPatchOnlyTheConsoleConfiguration(t *testing.T) {
	ctx := context.Background()
	for _, m := range manifestObjects(t, "../../manifests/0000_50_update-insights-operator_03_clusterrole.yaml",
		"../../manifests/0000_50_update-insights-operator_04_clusterrolebinding.yaml") {
		if _, err := m.resource.Create(ctx, m.obj, metav1.CreateOptions{}); err != nil {
			t.Fatalf("%s: %v", filepath.Base(m.file), err)
		}
		t.Cleanup(func() {
			if err := m.resource.Delete(context.Background(), m.obj.GetName(), metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("deleting %s: %v", m.obj.GetName(), err)
			}
		})
	}
	user := "system:serviceaccount:" + operatorNamespace + ":update-insights-operator"
	groups := []string{"system:serviceaccounts", "system:serviceaccounts:" + operatorNamespace, "system:authenticated"}

	// The controller, run as the operator's ServiceAccount, enables the
	// plugin with its GET and PATCH, and the API server refuses nothing.
	createConsoleConfig(t, otherPlugins...)
	config := rest.CopyConfig(testEnv.Config)
	config.Impersonate = rest.ImpersonationConfig{UserName: user, Groups: groups}
	requests := &requestCounter{}
	config.Wrap(requests.wrap)
	client, err := operatorclient.NewForConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	noop := func(string, time.Duration, error) {}
	controller := consoleplugin.New(client.OperatorV1(), tracker.New(clock.RealClock{}, noop), time.Second,
		events.NewInMemoryRecorder("test", clock.RealClock{}), clock.RealClock{})
	go controller.Run(runCtx, 1)
	waitFor(t, eventually, "the plugin enabled by the operator's ServiceAccount", getConsoleConfig, func(c *operatorv1.Console) bool {
		return slices.Contains(c.Spec.Plugins, consoleplugin.PluginName)
	})
	cancel()
	if requests.count("get consoles") == 0 || requests.count("patch consoles") != 1 || len(requests.refused()) > 0 {
		t.Errorf("the controller's requests as the operator: %s; want GETs and one PATCH of consoles, none refused", requests)
	}

	for _, tc := range []struct {
		verb, name string
		allowed    bool
	}{
		{"get", consoleplugin.ConsoleConfig, true},
		{"patch", consoleplugin.ConsoleConfig, true},
		{"update", consoleplugin.ConsoleConfig, false},
		{"delete", consoleplugin.ConsoleConfig, false},
		{"patch", "other", false},
		{"list", "", false},
		{"watch", "", false},
		{"create", "", false},
	} {
		t.Run(tc.verb+" "+tc.name, func(t *testing.T) {
			review := &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
				User:   user,
				Groups: groups,
				ResourceAttributes: &authorizationv1.ResourceAttributes{
					Group: "operator.openshift.io", Resource: "consoles", Verb: tc.verb, Name: tc.name,
				},
			}}
			got, err := kubeClient.AuthorizationV1().SubjectAccessReviews().Create(ctx, review, metav1.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Status.Allowed != tc.allowed {
				t.Errorf("%s consoles %q allowed = %v, want %v (%s)", tc.verb, tc.name, got.Status.Allowed, tc.allowed, got.Status.Reason)
			}
		})
	}
}
