package main

import (
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

func TestSyntheticOperator(t *testing.T) {
	now := metav1.NewTime(time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC))
	condition := func(t configv1.ClusterStatusConditionType, s configv1.ConditionStatus) configv1.ClusterOperatorStatusCondition {
		return configv1.ClusterOperatorStatusCondition{Type: t, Status: s, Reason: "AsExpected", LastTransitionTime: now}
	}
	asExpected := []configv1.ClusterOperatorStatusCondition{
		condition(configv1.OperatorAvailable, configv1.ConditionTrue),
		condition(configv1.OperatorProgressing, configv1.ConditionFalse),
		condition(configv1.OperatorDegraded, configv1.ConditionFalse),
		condition(configv1.OperatorUpgradeable, configv1.ConditionTrue),
	}
	testCases := []struct {
		name string
		want []configv1.OperandVersion
	}{
		{name: "kube-apiserver", want: []configv1.OperandVersion{
			{Name: "kube-apiserver", Version: "1.30.1"}, {Name: "operator", Version: "4.17.0-ec.0"}, {Name: "raw-internal", Version: "4.17.0-ec.0"}}},
		{name: "openshift-apiserver", want: []configv1.OperandVersion{
			{Name: "openshift-apiserver", Version: "4.17.0-ec.0"}, {Name: "operator", Version: "4.17.0-ec.0"}}},
		{name: "operator-lifecycle-manager-packageserver", want: []configv1.OperandVersion{{Name: "operator", Version: "4.17.0-ec.0"}}},
	}
	for _, tt := range testCases {
		t.Run(tt.name, func(t *testing.T) {
			want := &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{Name: tt.name},
				Status: configv1.ClusterOperatorStatus{Versions: tt.want, Conditions: asExpected}}
			if diff := cmp.Diff(want, syntheticOperator(tt.name, to4_17, now)); diff != "" {
				t.Errorf("the ClusterOperator the hosted-cluster-config-operator writes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHostedScenario(t *testing.T) {
	s, err := loadScenario("../../"+hostedRecording, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := hostedScenario(s, from4_16); err != nil {
		t.Fatal(err)
	}
	type state struct {
		From, Target, Desired string
		DesiredUpdate         *configv1.Update
		Operators             []string
		// Counted are the ClusterOperators that carry a payload
		// annotation; AtFrom those whose operator version is from.
		Counted, AtFrom int
		KubeAPIServer   string
	}
	got := state{From: s.from(), Target: s.target(), Desired: s.cv.Status.Desired.Version, DesiredUpdate: s.cv.Spec.DesiredUpdate}
	for _, co := range s.operators {
		got.Operators = append(got.Operators, co.Name)
		if controlplane.IsPayloadOperator(co) {
			got.Counted++
		}
		if v, _ := controlplane.OperatorVersion(co); v == from4_16.version {
			got.AtFrom++
		}
	}
	slices.Sort(got.Operators)
	got.KubeAPIServer, _ = hosted.ControlPlaneKubernetes(s.operators)
	want := state{
		From: from4_16.version, Target: to4_17.version, Desired: from4_16.version,
		Operators: hostedOperators, Counted: len(hostedOperators) - len(syntheticOperators) - len(selfCreated),
		AtFrom: len(hostedOperators), KubeAPIServer: from4_16.kubernetes,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the hosted cluster (-want +got):\n%s", diff)
	}
}

// TestInPlaceWrites follows a node through the writes of an in-place
// update: what matters to who reads it is the drain request against the
// drain applied, the configurations, the state and the cordon.
func TestInPlaceWrites(t *testing.T) {
	type seen struct {
		Desired, Current, State, DesiredDrain, LastApplied, PostConfig string
		Cordoned                                                       bool
	}
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{}}}
	var got []seen
	for _, w := range inPlaceWrites("e3318f18") {
		w.change(node)
		a := node.Annotations
		got = append(got, seen{a[nodes.DesiredConfigAnnotation], a[nodes.CurrentConfigAnnotation], a[nodes.StateAnnotation],
			a[nodes.DesiredDrainAnnotation], a[nodes.LastAppliedDrainAnnotation], a[postConfigAction], node.Spec.Unschedulable})
	}
	const h = "e3318f18"
	want := []seen{
		{Desired: h},
		{Desired: h, State: "Working", DesiredDrain: "drain-" + h},
		{Desired: h, State: "Working", DesiredDrain: "drain-" + h, Cordoned: true},
		{Desired: h, State: "Working", DesiredDrain: "drain-" + h, LastApplied: "drain-" + h, Cordoned: true},
		{Desired: h, State: "Working", DesiredDrain: "drain-" + h, LastApplied: "drain-" + h, PostConfig: "Rebooting", Cordoned: true},
		{Desired: h, Current: h, State: "Done", DesiredDrain: "uncordon-" + h, LastApplied: "drain-" + h, PostConfig: "Rebooting", Cordoned: true},
		{Desired: h, Current: h, State: "Done", DesiredDrain: "uncordon-" + h, LastApplied: "drain-" + h, PostConfig: "Rebooting"},
		{Desired: h, Current: h, State: "Done", DesiredDrain: "uncordon-" + h, LastApplied: "uncordon-" + h, PostConfig: "Rebooting"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the node after each write (-want +got):\n%s", diff)
	}
	if got[rebootWrite].PostConfig != "Rebooting" || got[rebootWrite-1].PostConfig != "" {
		t.Errorf("rebootWrite = %d, and the write that reboots the node is another", rebootWrite)
	}
	if !got[drainWrite].Cordoned || got[drainWrite].LastApplied != "" {
		t.Errorf("drainWrite = %d, and the write that cordons the node to drain it is another", drainWrite)
	}
}

func TestConfigHash(t *testing.T) {
	a, b := configHash(inPlacePool, from4_16.version), configHash(inPlacePool, to4_17.version)
	if !regexp.MustCompile(`^[0-9a-f]{8}$`).MatchString(a) || a == b {
		t.Errorf("configHash = %q and %q: want eight hex digits, one per release", a, b)
	}
}
