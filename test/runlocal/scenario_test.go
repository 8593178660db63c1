package main

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"

	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

func TestIdle(t *testing.T) {
	s, err := loadScenario("../testdata/oc-examples/4.15.0-ec2-early", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.idle(); err != nil {
		t.Fatal(err)
	}

	type state struct {
		Target, From, Desired, DesiredUpdate string
		TopState                             configv1.UpdateState
		Pending                              bool
		OperatorVersions                     map[string]int
		Progressing                          int
	}
	got := state{
		Target: s.target(), From: s.from(), Desired: s.cv.Status.Desired.Version, DesiredUpdate: s.cv.Spec.DesiredUpdate.Version,
		TopState: s.cv.Status.History[0].State, Pending: updatestatus.Pending(s.cv), OperatorVersions: map[string]int{},
	}
	for _, co := range s.payload() {
		v, _ := controlplane.OperatorVersion(co)
		got.OperatorVersions[v]++
		if v1helpers.IsStatusConditionTrue(co.Status.Conditions, configv1.OperatorProgressing) {
			got.Progressing++
		}
	}
	want := state{
		Target: "4.15.0-ec.2", From: "4.14.1", Desired: "4.14.1", DesiredUpdate: "4.14.1",
		TopState: configv1.CompletedUpdate, OperatorVersions: map[string]int{"4.14.1": len(s.payload())},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the idle scenario (-want +got):\n%s", diff)
	}
}

func TestIdleWithoutPreviousVersion(t *testing.T) {
	s := &scenario{cv: &configv1.ClusterVersion{Status: configv1.ClusterVersionStatus{History: []configv1.UpdateHistory{{Version: "4.15.0"}}}}}
	if err := s.idle(); err == nil {
		t.Error("idle of a ClusterVersion with one history entry: want an error, got none")
	}
}
