package operatorstatus

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/names"
)

// clusterVersionWith is the ClusterVersion as the cluster-version operator
// writes its capabilities: every capability its release knows, and those
// enabled.
func clusterVersionWith(enabled ...configv1.ClusterVersionCapability) *configv1.ClusterVersion {
	return &configv1.ClusterVersion{
		ObjectMeta: metav1.ObjectMeta{Name: names.ClusterVersion},
		Status: configv1.ClusterVersionStatus{Capabilities: configv1.ClusterVersionCapabilitiesStatus{
			EnabledCapabilities: enabled,
			KnownCapabilities: []configv1.ClusterVersionCapability{
				configv1.ClusterVersionCapabilityBaremetal, configv1.ClusterVersionCapabilityConsole,
				configv1.ClusterVersionCapabilityInsights, configv1.ClusterVersionCapabilityIngress,
			},
		}},
	}
}

var consolePlugin = configv1.ObjectReference{Group: "console.openshift.io", Resource: "consoleplugins", Name: "update-insights-console-plugin"}

func TestSyncRelatesTheConsolePluginWithTheConsoleCapability(t *testing.T) {
	withPlugin := func() *configv1.ClusterOperator {
		co := runningHealthy()
		co.Status.RelatedObjects = append(co.Status.RelatedObjects, consolePlugin)
		return co
	}
	for _, tc := range []struct {
		name           string
		clusterVersion *configv1.ClusterVersion
		notSynced      bool
		existing       *configv1.ClusterOperator
		want           []configv1.ObjectReference
	}{{
		name:     "no ClusterVersion",
		existing: runningHealthy(),
		want:     RelatedObjects(testNamespace, false),
	}, {
		name:           "the Console capability disabled",
		clusterVersion: clusterVersionWith(configv1.ClusterVersionCapabilityIngress),
		existing:       runningHealthy(),
		want:           RelatedObjects(testNamespace, false),
	}, {
		name:           "the Console capability enabled",
		clusterVersion: clusterVersionWith(configv1.ClusterVersionCapabilityConsole, configv1.ClusterVersionCapabilityIngress),
		existing:       runningHealthy(),
		want:           append(RelatedObjects(testNamespace, false), consolePlugin),
	}, {
		name:      "the ClusterVersion not read yet keeps the plugin of the last run",
		notSynced: true,
		existing:  withPlugin(),
		want:      append(RelatedObjects(testNamespace, false), consolePlugin),
	}, {
		name:      "the ClusterVersion not read yet, on a ClusterOperator listing nothing",
		notSynced: true,
		existing:  &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{Name: names.OwnClusterOperator}},
		want:      RelatedObjects(testNamespace, false),
	}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.existing)
			h.clusterVersionsSynced = !tc.notSynced
			if tc.clusterVersion != nil {
				if err := h.clusterVersions.Add(tc.clusterVersion); err != nil {
					t.Fatal(err)
				}
			}
			h.sync(t)
			if diff := cmp.Diff(tc.want, h.written(t).Status.RelatedObjects); diff != "" {
				t.Errorf("related objects (-want +got):\n%s", diff)
			}
		})
	}
}

func TestConsoleCapabilityHandlerQueuesOnlyWhenTheCapabilityChanges(t *testing.T) {
	enabled := clusterVersionWith(configv1.ClusterVersionCapabilityConsole)
	disabled := clusterVersionWith()
	progressing := enabled.DeepCopy()
	progressing.Status.Conditions = []configv1.ClusterOperatorStatusCondition{{Type: configv1.OperatorProgressing, Status: configv1.ConditionTrue}}
	other := clusterVersionWith(configv1.ClusterVersionCapabilityConsole)
	other.Name = "other"
	for _, tc := range []struct {
		name     string
		add      *configv1.ClusterVersion
		old, new *configv1.ClusterVersion
		want     int
	}{
		{name: "added with the capability", add: enabled, want: 1},
		{name: "added without it", add: disabled},
		{name: "another ClusterVersion", add: other},
		{name: "the capability enabled", old: disabled, new: enabled, want: 1},
		{name: "a status change during an update", old: enabled, new: progressing},
	} {
		t.Run(tc.name, func(t *testing.T) {
			queued := 0
			handler := consoleCapabilityHandler(func() { queued++ })
			if tc.add != nil {
				handler.OnAdd(tc.add, false)
			} else {
				handler.OnUpdate(tc.old, tc.new)
			}
			if queued != tc.want {
				t.Errorf("queued %d times, want %d", queued, tc.want)
			}
		})
	}
}
