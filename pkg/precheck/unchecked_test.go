package precheck

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiserverv1 "github.com/openshift/api/apiserver/v1"
	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/olm"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// A check that could not run is no pass: it is a finding to accept, a
// warning of unknown impact, about the component that would have answered,
// saying how to check by hand.
func TestEveryCheckThatCouldNotRunIsAFindingToAccept(t *testing.T) {
	type unchecked struct{ UID, Level, Impact, Resource string }
	for _, tt := range []struct {
		name string
		in   Input
		want []unchecked
	}{
		{
			name: "nothing could be read",
			in: Input{
				ClusterVersion: clusterVersion(), Target: "4.17.2", AdminGates: gatesOf(), AdminAcks: acksOf(),
				AlertsUnreadable:           errors.New("https://thanos-querier answered 503 Service Unavailable"),
				APIRequestCountsUnreadable: errors.New("cannot tell whether the cluster serves apiserver.openshift.io/v1: the server was unable to return a response"),
				CloudCredentialUnreadable:  errors.New("cannot tell whether the cluster serves operator.openshift.io/v1: the server was unable to return a response"),
				BuiltinsUnchecked: []insightsv1alpha1.UpdateInsight{olm.Unchecked("4.17.2",
					errors.New("cannot tell whether the cluster serves operators.coreos.com/v1alpha1: the server was unable to return a response"), now)},
			},
			want: []unchecked{
				{uidRemovedAPIsUnread, "warning", "Unknown", "ClusterOperator/kube-apiserver"},
				{uidManualCredentialsUnchecked, "warning", "Unknown", "CloudCredential/cluster"},
				{uidAlertsUnchecked, "warning", "Unknown", "ClusterOperator/monitoring"},
				{olm.UncheckedUID, "warning", "Unknown", "ClusterOperator/operator-lifecycle-manager"},
			},
		},
		{
			name: "no CloudCredential, a major release whose Kubernetes is not known",
			in: Input{
				ClusterVersion: clusterVersion(offering("5.0.0")), Target: "5.0.0", AdminGates: gatesOf(), AdminAcks: acksOf(), Alerts: []alerts.Alert{},
			},
			want: []unchecked{
				{uidRemovedAPIsUnread, "warning", "Unknown", "ClusterOperator/kube-apiserver"},
				{uidManualCredentialsUnchecked, "warning", "Unknown", "CloudCredential/cluster"},
			},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.Now = now
			var got []unchecked
			for _, f := range Run(tt.in) {
				if f.UID == uidDuration {
					continue
				}
				if !strings.Contains(f.Impact.Description, "by hand") {
					t.Errorf("finding %s does not say how to check by hand: %q", f.UID, f.Impact.Description)
				}
				if !updateplan.NeedsAcceptance(f.Impact.Level) {
					t.Errorf("finding %s needs no acceptance", f.UID)
				}
				r := f.Scope.Resources[0]
				got = append(got, unchecked{f.UID, string(f.Impact.Level), string(f.Impact.Type), r.Kind + "/" + r.Name})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// Every finding of the operator's names what it is about: its identity,
// <informer>/<scope type>/<resources>/<uid>, has no empty segment.
func TestEveryFindingNamesAResource(t *testing.T) {
	busy := clusterVersion(updatingTo("4.16.5"),
		condition(conditionFailing, configv1.ConditionTrue, "ClusterOperatorDegraded", "etcd is degraded"),
		condition(configv1.OperatorUpgradeable, configv1.ConditionFalse, "AdminAckRequired", "ack"),
		condition(configv1.RetrievedUpdates, configv1.ConditionFalse, "RemoteFailed", "Unable to retrieve available updates"),
		func(cv *configv1.ClusterVersion) {
			cv.Status.ConditionalUpdates = []configv1.ConditionalUpdate{{
				Release: configv1.Release{Version: "4.17.2"},
				Risks: []configv1.ConditionalUpdateRisk{
					risk("Applies", "https://example.com/a", "A breaks.", metav1.ConditionTrue),
					risk("Unknown", "https://example.com/u", "U breaks.", metav1.ConditionUnknown),
				},
				Conditions: []metav1.Condition{{Type: "Recommended", Status: metav1.ConditionFalse, Reason: "MultipleReasons"}},
			}}
		})
	degraded := &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{Name: "etcd"}, Status: configv1.ClusterOperatorStatus{Conditions: []configv1.ClusterOperatorStatusCondition{
		{Type: configv1.OperatorAvailable, Status: configv1.ConditionFalse}, {Type: configv1.OperatorDegraded, Status: configv1.ConditionTrue},
	}}}
	cordoned := func(n *corev1.Node) {
		n.Spec.Unschedulable = true
		n.Status.Conditions[0].Status = corev1.ConditionFalse
	}
	for _, tt := range []struct {
		name string
		in   Input
	}{
		{name: "no ClusterVersion", in: Input{Target: "4.17.2"}},
		{name: "nothing could be read", in: Input{
			ClusterVersion: clusterVersion(), Target: "4.17.2",
			AlertsUnreadable: errors.New("no address"), APIRequestCountsUnreadable: errors.New("not served"),
			CloudCredentialUnreadable: errors.New("not served"),
			BuiltinsUnchecked:         []insightsv1alpha1.UpdateInsight{olm.Unchecked("4.17.2", errors.New("discovery failed"), now)},
		}},
		{name: "everything wrong", in: Input{
			ClusterVersion: busy, Target: "4.17.2", ClusterOperators: []*configv1.ClusterOperator{degraded},
			AdminGates: gatesOf(apiRemovalsGate, apiRemovalsText, "not-a-gate", "x"),
			APIRequestCounts: []*apiserverv1.APIRequestCount{apiRequestCount("flowschemas.v1beta2.flowcontrol.apiserver.k8s.io", "1.29",
				[]requests{{"system:serviceaccount:a:b", []any{"get", 3}}})},
			CloudCredential: cloudCredential(operatorv1.CloudCredentialsModeManual, "-"),
			Pools:           []*machineconfigurationv1.MachineConfigPool{machinePool("master", true, nil), machinePool("worker", true, nil)},
			Nodes:           []*corev1.Node{node("master-0", "master", cordoned), node("worker-0", "worker", cordoned)},
			Budgets:         []Budget{budget("on-workers", 0, pod("a", "worker-0", corev1.PodRunning))},
			Alerts: []alerts.Alert{
				alert("KubeNodeNotReady", "warning", alerts.StateFiring, "node", "worker-0"),
				alert("etcdMembersDown", "critical", alerts.StateFiring),
			},
		}},
		{name: "hosted, NodePools outside the skew", in: Input{
			ClusterVersion: clusterVersion(), Target: "4.20.2", Topology: hosted.Hosted,
			ClusterOperators: []*configv1.ClusterOperator{kubeAPIServer("4.16.3", "1.29.10")},
			Nodes:            []*corev1.Node{poolNode("a-1", "workers-a", "v1.26.1"), poolNode("b-1", "workers-b", "garbage")},
		}},
		{name: "hosted, the skew unchecked", in: Input{
			ClusterVersion: clusterVersion(), Target: "4.20.2", Topology: hosted.Hosted,
			Nodes: []*corev1.Node{poolNode("a-1", "workers-a", "v1.26.1")},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.Now = now
			findings := Run(tt.in)
			if len(findings) == 0 {
				t.Fatal("no findings")
			}
			for _, f := range findings {
				id := updateplan.Identity(updatestatus.BuiltinInformer, f)
				if len(f.Scope.Resources) == 0 || strings.Contains(id, "//") {
					t.Errorf("finding %s names no resource: %s", f.UID, id)
				}
			}
		})
	}
}
