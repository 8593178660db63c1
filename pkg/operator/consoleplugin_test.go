package operator

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/update-insights/update-insights-operator/pkg/controllers/consoleplugin"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

// With --enable-console-plugin=false the controller is off, and the
// operator's ClusterOperator says why; nothing is asked of the cluster.
func TestTheConsolePluginFlagSwitchesTheControllerOff(t *testing.T) {
	options := NewOptions()
	if !options.EnableConsolePlugin {
		t.Fatal("the console plugin is not enabled by default")
	}
	options.EnableConsolePlugin = false
	s := &starter{options: options, tracker: tracker.New(clocktesting.NewFakePassiveClock(time.Time{}), func(string, time.Duration, error) {})}
	s.startConsolePlugin(context.Background())
	want := []tracker.Off{{Controller: consoleplugin.Name, Why: "--enable-console-plugin=false leaves the console's plugins as they are"}}
	if diff := cmp.Diff(want, s.tracker.Off()); diff != "" {
		t.Errorf("off (-want +got):\n%s", diff)
	}
}
