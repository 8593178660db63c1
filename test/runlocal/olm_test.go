package main

import (
	"strings"
	"testing"
	"time"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/olm"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

// What run-local's OLM objects make of its cluster, as pkg/olm judges them
// and as run-local dates them: nothing to say of the updates within the
// minor release it runs (the walkthrough's to 4.15.0-ec.3 and ec.4), the
// capped operator blocking the next minor release, and the CSV that fails
// midway an error of the update as soon as it is written, gone once it
// recovers.
func TestRunLocalOLMObjects(t *testing.T) {
	now := time.Now()
	s, err := loadScenario("../testdata/oc-examples/4.15.0-ec2-early", now.Add(-recordedAgo))
	if err != nil {
		t.Fatal(err)
	}
	objects, err := loadOLMObjects("../"+strings.TrimPrefix(olmObjectsFile, "test/"), s.moved)
	if err != nil {
		t.Fatal(err)
	}
	capped, err := objects.checkCapped(s.target())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := capped.Namespace+"/"+capped.Name, "openshift-operators-redhat/elasticsearch-operator.v5.8.2"; got != want {
		t.Errorf("the capped operator is %s, want %s", got, want)
	}
	cluster, err := objects.cluster()
	if err != nil {
		t.Fatal(err)
	}

	for _, target := range []string{s.offers.next.Version, s.offers.recommended.Version} {
		if got := olm.Plan(olm.PlanInput{Cluster: cluster, Current: s.target(), Target: target, Now: now}); len(got) != 0 {
			t.Errorf("the plan of %s has findings of OLM's operators, which would change the walkthrough: %+v", target, got)
		}
	}
	got := olm.Plan(olm.PlanInput{Cluster: cluster, Current: s.target(), Target: s.offers.minor.Version, Now: now})
	if len(got) != 1 || !strings.HasPrefix(got[0].UID, "max-openshift-version/") {
		t.Fatalf("the plan of %s: want the capped operator's finding alone, got %+v", s.offers.minor.Version, got)
	}
	b, err := objects.blocker(s.target(), s.offers.minor.Version)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"oc delete subscription elasticsearch-operator -n openshift-operators-redhat",
		"oc delete clusterserviceversion elasticsearch-operator.v5.8.2 -n openshift-operators-redhat", "its approval is Manual", "channel stable-5.8"} {
		if !strings.Contains(b.remedy, want) {
			t.Errorf("the remedy %q does not say %q", b.remedy, want)
		}
	}

	// The update plays on from the recording's last moment, recordedAgo
	// ago: the CSV fails at once.
	started := s.updateStarted()
	var failing *operatorsv1alpha1.ClusterServiceVersion
	for i, o := range objects {
		if o.GetKind() == "ClusterServiceVersion" && o.GetNamespace() == failingCSVNamespace && o.GetName() == failingCSVName {
			at := now.Add(-failedAgo).Truncate(time.Second)
			if !at.After(started) {
				t.Fatalf("the failure, at %s, is not after the update's start, %s", at, started)
			}
			if err := withPhase(objects[i], operatorsv1alpha1.CSVPhaseFailed, failingReason, failingMessage, at); err != nil {
				t.Fatal(err)
			}
		}
	}
	if cluster, err = objects.cluster(); err != nil {
		t.Fatal(err)
	}
	for _, csv := range cluster.CSVs {
		if csv.Namespace == failingCSVNamespace && csv.Name == failingCSVName {
			failing = csv
		}
	}
	if failing == nil {
		t.Fatalf("no CSV %s/%s", failingCSVNamespace, failingCSVName)
	}
	insights, recheck := olm.Health(olm.HealthInput{Cluster: cluster, UpdateStarted: started, Now: now})
	if len(insights) != 1 || recheck != 0 {
		t.Fatalf("during the update: want one insight at once, got %+v (recheck in %s)", insights, recheck)
	}
	if i := insights[0]; i.UID != failingInsightUID || i.Impact.Level != insightsv1alpha1.ErrorInsightLevel || !strings.HasPrefix(i.Impact.Summary, failingSummary) {
		t.Errorf("the failing CSV's insight: %+v", i)
	}

	for i, o := range objects {
		if o.GetKind() == "ClusterServiceVersion" && o.GetNamespace() == failingCSVNamespace && o.GetName() == failingCSVName {
			if err := withPhase(objects[i], operatorsv1alpha1.CSVPhaseSucceeded, recoveredReason, recoveredMessage, now); err != nil {
				t.Fatal(err)
			}
		}
	}
	if cluster, err = objects.cluster(); err != nil {
		t.Fatal(err)
	}
	if insights, _ := olm.Health(olm.HealthInput{Cluster: cluster, UpdateStarted: started, Now: now}); len(insights) != 0 {
		t.Errorf("once the CSV recovered: want no insight, got %+v", insights)
	}
}

func TestMoveTimes(t *testing.T) {
	status := map[string]any{
		"lastUpdateTime": "2023-11-20T10:01:10Z",
		"message":        "install strategy completed with no errors",
		"conditions":     []any{map[string]any{"lastTransitionTime": "2023-11-20T10:00:01Z", "phase": "Pending"}},
	}
	moveTimes(status, time.Hour)
	if got := status["lastUpdateTime"]; got != "2023-11-20T11:01:10Z" {
		t.Errorf("lastUpdateTime = %v", got)
	}
	if got := status["conditions"].([]any)[0].(map[string]any)["lastTransitionTime"]; got != "2023-11-20T11:00:01Z" {
		t.Errorf("conditions[0].lastTransitionTime = %v", got)
	}
	if got := status["message"]; got != "install strategy completed with no errors" {
		t.Errorf("message = %v", got)
	}
}

func TestHealthShowsFailingCSV(t *testing.T) {
	table := "= Control Plane =\nAssessment:      Progressing\n\n= Update Health =\n" +
		"SINCE    LEVEL     IMPACT         MESSAGE\n" +
		"10m37s   Error     Unknown        Operator etcd 0.9.4 (etcd/etcdoperator.v0.9.4) is Failed (ComponentUnhealthy) since 2026-11-24T13:27:32Z, during the update (operator-lifecycle-manager)\n" +
		"13s      Warning   Update Speed   Demonstration informer: the mirror registry serves the release images slowly (demo-informer)\n"
	details := "= Update Health =\n" +
		"Message: Operator etcd 0.9.4 (etcd/etcdoperator.v0.9.4) is Failed (ComponentUnhealthy) since 2026-11-24T13:27:32Z, during the update\n" +
		"  Since:       10m37s\n" +
		"  Informer:    operator-lifecycle-manager\n" +
		"  Level:       Error\n" +
		"  Description: Phase Failed (ComponentUnhealthy): " + failingMessage + "\n"
	testCases := []struct {
		name    string
		out     string
		details bool
		want    bool
	}{
		{name: "the table", out: table, want: true},
		{name: "the details", out: details, details: true, want: true},
		{name: "no health section", out: "= Control Plane =\nAssessment:      Progressing\n"},
		{name: "a warning", out: strings.Replace(table, "Error  ", "Warning", 1)},
		{name: "another informer", out: strings.Replace(table, "(operator-lifecycle-manager)", "(demo-informer)", 1)},
		{name: "the details without the message", out: strings.Replace(details, failingMessage, "", 1), details: true},
		{name: "the details of another informer", out: strings.Replace(details, "Informer:    operator-lifecycle-manager", "Informer:    demo-informer", 1), details: true},
		{name: "the details of a warning", out: strings.Replace(details, "Level:       Error", "Level:       Warning", 1), details: true},
		{name: "the details of another insight", out: strings.Replace(details, "\n  Informer:", "\n\n  Informer:", 1), details: true},
	}
	for _, tt := range testCases {
		t.Run(tt.name, func(t *testing.T) {
			if why := healthShowsFailingCSV(tt.out, tt.details); (why == "") != tt.want {
				t.Errorf("healthShowsFailingCSV() = %q, want it shown: %t", why, tt.want)
			}
		})
	}
}
