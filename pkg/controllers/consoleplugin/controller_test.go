package consoleplugin

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	operatorv1 "github.com/openshift/api/operator/v1"
	"github.com/openshift/client-go/operator/clientset/versioned/fake"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clienttesting "k8s.io/client-go/testing"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

var (
	now     = time.Date(2026, 11, 27, 14, 0, 0, 0, time.UTC)
	enabled = now.Format(time.RFC3339)
	recheck = 30 * time.Second
	// consoles is the resource as RBAC and the fake clientset name it.
	consoles = schema.GroupResource{Group: "operator.openshift.io", Resource: "consoles"}
)

// consoleConfig is the console operator's configuration with plugins and,
// when enabledAt is not empty, the annotation of an earlier enabling.
func consoleConfig(enabledAt string, plugins ...string) *operatorv1.Console {
	c := &operatorv1.Console{
		ObjectMeta: metav1.ObjectMeta{Name: ConsoleConfig, ResourceVersion: "7"},
		Spec:       operatorv1.ConsoleSpec{Plugins: plugins},
	}
	if enabledAt != "" {
		c.Annotations = map[string]string{EnabledAnnotation: enabledAt}
	}
	return c
}

type harness struct {
	client  *fake.Clientset
	tracker *tracker.Tracker
	c       *Controller
}

func newHarness(objects ...runtime.Object) *harness {
	clock := clocktesting.NewFakePassiveClock(now)
	client := fake.NewSimpleClientset(objects...)
	h := &harness{client: client, tracker: tracker.New(clock, func(string, time.Duration, error) {})}
	h.c = &Controller{consoles: client.OperatorV1().Consoles(), tracker: h.tracker, recheck: recheck, clock: clock}
	return h
}

// sync runs one sync through the tracker, as the controller runs it.
func (h *harness) sync(t *testing.T) (controllertest.SyncContext, error) {
	t.Helper()
	syncCtx := controllertest.NewSyncContext("key")
	t.Cleanup(syncCtx.Q.ShutDown)
	return syncCtx, h.tracker.Sync(Name, h.c.sync)(context.Background(), syncCtx)
}

func (h *harness) console(t *testing.T) *operatorv1.Console {
	t.Helper()
	c, err := h.client.OperatorV1().Consoles().Get(context.Background(), ConsoleConfig, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// patches are the patches the controller sent.
func (h *harness) patches() []string {
	var out []string
	for _, a := range h.client.Actions() {
		if p, ok := a.(clienttesting.PatchAction); ok {
			out = append(out, string(p.GetPatchType())+" "+p.GetName())
		}
	}
	return out
}

// state is what a test compares of the configuration after syncs.
type state struct {
	Plugins    []string
	EnabledAt  string
	Patches    []string
	Off        []tracker.Off
	RecheckIn  time.Duration
	SyncFailed bool
}

// off is what the tracker says is off, nil when nothing is.
func off(t *tracker.Tracker) []tracker.Off {
	if o := t.Off(); len(o) > 0 {
		return o
	}
	return nil
}

func TestSyncEnablesThePluginOnce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		before *operatorv1.Console
		want   state
	}{{
		name:   "no plugin enabled: the plugin is the first",
		before: consoleConfig(""),
		want:   state{Plugins: []string{PluginName}, EnabledAt: enabled, Patches: []string{"application/merge-patch+json cluster"}},
	}, {
		name:   "other plugins are kept, in their order, and the plugin is appended",
		before: consoleConfig("", "monitoring-plugin", "networking-console-plugin", "kubevirt-plugin"),
		want: state{Plugins: []string{"monitoring-plugin", "networking-console-plugin", "kubevirt-plugin", PluginName}, EnabledAt: enabled,
			Patches: []string{"application/merge-patch+json cluster"}},
	}, {
		name:   "enabled by an administrator before: only the annotation is added",
		before: consoleConfig("", PluginName, "monitoring-plugin"),
		want: state{Plugins: []string{PluginName, "monitoring-plugin"}, EnabledAt: enabled,
			Patches: []string{"application/merge-patch+json cluster"}},
	}, {
		name:   "enabled before and disabled since by an administrator: left disabled",
		before: consoleConfig("2026-01-02T03:04:05Z", "monitoring-plugin"),
		want:   state{Plugins: []string{"monitoring-plugin"}, EnabledAt: "2026-01-02T03:04:05Z"},
	}, {
		name:   "enabled before and still enabled: nothing to write",
		before: consoleConfig("2026-01-02T03:04:05Z", "monitoring-plugin", PluginName),
		want:   state{Plugins: []string{"monitoring-plugin", PluginName}, EnabledAt: "2026-01-02T03:04:05Z"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(tc.before)
			for range 2 {
				// The second sync, as at each resync, finds the plugin enabled.
				if _, err := h.sync(t); err != nil {
					t.Fatal(err)
				}
			}
			c := h.console(t)
			got := state{Plugins: c.Spec.Plugins, EnabledAt: c.Annotations[EnabledAnnotation], Patches: h.patches(), Off: off(h.tracker)}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("after two syncs (-want +got):\n%s", diff)
			}
		})
	}
}

// The merge patch replaces spec.plugins whole: it carries the
// resourceVersion it was made from, so that the API server refuses it if
// someone changed the configuration meanwhile.
func TestEnablePatchIsPreconditionedOnTheResourceVersion(t *testing.T) {
	patch, err := enablePatch(consoleConfig("", "monitoring-plugin"), now)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(patch, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"metadata": map[string]any{"resourceVersion": "7", "annotations": map[string]any{EnabledAnnotation: enabled}},
		"spec":     map[string]any{"plugins": []any{"monitoring-plugin", PluginName}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("patch (-want +got):\n%s", diff)
	}
}

// A patch that loses a race with another writer (the API server answers
// Conflict) is made again from the configuration as it is now: the other
// writer's plugin is kept.
func TestSyncRetriesAConflict(t *testing.T) {
	h := newHarness(consoleConfig("", "monitoring-plugin"))
	conflicts := 0
	h.client.PrependReactor("patch", "consoles", func(clienttesting.Action) (bool, runtime.Object, error) {
		if conflicts > 0 {
			return false, nil, nil
		}
		conflicts++
		// Another writer enabled its plugin between the read and the patch.
		other := consoleConfig("", "monitoring-plugin", "kubevirt-plugin")
		other.ResourceVersion = "8"
		if err := h.client.Tracker().Update(schema.GroupVersionResource{Group: consoles.Group, Version: "v1", Resource: consoles.Resource}, other, ""); err != nil {
			t.Fatal(err)
		}
		return true, nil, apierrors.NewConflict(consoles, ConsoleConfig, nil)
	})
	if _, err := h.sync(t); err != nil {
		t.Fatal(err)
	}
	c := h.console(t)
	got := state{Plugins: c.Spec.Plugins, EnabledAt: c.Annotations[EnabledAnnotation], Patches: h.patches()}
	want := state{Plugins: []string{"monitoring-plugin", "kubevirt-plugin", PluginName}, EnabledAt: enabled,
		Patches: []string{"application/merge-patch+json cluster", "application/merge-patch+json cluster"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after a conflict (-want +got):\n%s", diff)
	}
}

// Without the Console configuration, the controller is off, says why, and
// looks again soon; once it appears, the plugin is enabled and the
// controller is on.
func TestSyncReportsAMissingConsoleConfiguration(t *testing.T) {
	h := newHarness()
	syncCtx, err := h.sync(t)
	if err != nil {
		t.Fatal(err)
	}
	got := state{Off: off(h.tracker), RecheckIn: syncCtx.Q.AddedAfter["key"], SyncFailed: len(h.tracker.Problems()) > 0}
	want := state{
		Off:       []tracker.Off{{Controller: Name, Why: "the cluster has no consoles.operator.openshift.io/cluster to enable the console plugin in"}},
		RecheckIn: recheck,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("without the configuration (-want +got):\n%s", diff)
	}

	if _, err := h.client.OperatorV1().Consoles().Create(context.Background(), consoleConfig(""), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.sync(t); err != nil {
		t.Fatal(err)
	}
	c := h.console(t)
	got = state{Plugins: c.Spec.Plugins, EnabledAt: c.Annotations[EnabledAnnotation], Off: off(h.tracker)}
	want = state{Plugins: []string{PluginName}, EnabledAt: enabled}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("once the configuration exists (-want +got):\n%s", diff)
	}
}

// A patch the API server forbids is a problem of the controller's that
// retrying does not fix: WriteRejected, which makes the operator Degraded
// once it lasts.
func TestSyncReportsARefusedPatch(t *testing.T) {
	h := newHarness(consoleConfig(""))
	h.client.PrependReactor("patch", "consoles", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(consoles, ConsoleConfig, nil)
	})
	if _, err := h.sync(t); !apierrors.IsForbidden(err) {
		t.Fatalf("sync = %v, want Forbidden", err)
	}
	var kinds []tracker.Kind
	for _, p := range h.tracker.Problems() {
		kinds = append(kinds, p.Kind)
	}
	if diff := cmp.Diff([]tracker.Kind{tracker.WriteRejected}, kinds); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}
