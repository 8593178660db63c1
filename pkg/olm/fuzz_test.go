package olm

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/apivalidation"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

// FuzzInsights makes the plan's findings and the update's health insights
// of arbitrary CSVs, Subscriptions and InstallPlans (as JSON, as OLM or
// anyone may write them): both are the same made again, within the bounds
// checkBounds checks, no two with the same uid, and the UpdateStatus
// schema accepts them, as the operator's own insights.
func FuzzInsights(f *testing.F) {
	cluster := Cluster{
		CSVs: []*operatorsv1alpha1.ClusterServiceVersion{
			newCSV("ns-a", "a.v1", withMax(`"4.17"`), withDisplayName("A", "1.0.0")),
			newCSV("ns-b", "b.v2", withMax(`4.17`), failedSince(updateStarted.Add(10*time.Minute))),
			newCSV("ns-c", "c.v1", withProperties(`{"properties":[{"type":"olm.maxOpenShiftVersion","value":"4.17.1"}]}`), neverSucceeded(3, updateStarted)),
			newCSV("ns-d", "d.v1", copiedBy("reason")),
		},
		Subscriptions: []*operatorsv1alpha1.Subscription{newSub("ns-a", "a", "a.v1", manual("install-1")), newSub("ns-b", "b", "b.v2", withCondition("CatalogSourcesUnhealthy", "True", "unhealthy"))},
		InstallPlans:  []*operatorsv1alpha1.InstallPlan{newPlan("ns-a", "install-1", "RequiresApproval", false, "a.v2")},
	}
	// Three Subscriptions on one InstallPlan, two Manual, one Automatic,
	// and an old CSV OLM is replacing, which only its label ties to its
	// Subscription.
	shared := Cluster{
		CSVs: []*operatorsv1alpha1.ClusterServiceVersion{
			newCSV("ns-a", "a.v1", withMax(`"4.16"`), componentOf("a"), withPhase(operatorsv1alpha1.CSVPhaseReplacing, "BeingReplaced")),
			newCSV("ns-a", "a.v2", withMax(`"4.16"`), componentOf("a")),
		},
		Subscriptions: []*operatorsv1alpha1.Subscription{
			newSub("ns-a", "a", "a.v2", manual("install-1")),
			newSub("ns-a", "c", "c.v1", manual("install-1")),
			newSub("ns-a", "b", "b.v1", manual("install-1"), func(s *operatorsv1alpha1.Subscription) {
				s.Spec.InstallPlanApproval = operatorsv1alpha1.ApprovalAutomatic
			}),
		},
		InstallPlans: []*operatorsv1alpha1.InstallPlan{newPlan("ns-a", "install-1", "RequiresApproval", false, "a.v3", "b.v2", "c.v2")},
	}
	f.Add(apivalidation.JSON(f, shared), "4.22.1", "5.0.0", int64(30*time.Minute))
	f.Add(apivalidation.JSON(f, cluster), "4.16.3", "4.17.2", int64(30*time.Minute))
	f.Add(apivalidation.JSON(f, Cluster{}), "", "", int64(0))

	schema := apivalidation.Status("UpdateStatus")
	f.Fuzz(func(t *testing.T, clusterJSON []byte, current, target string, sinceStart int64) {
		var c Cluster
		if json.Unmarshal(clusterJSON, &c) != nil {
			return
		}
		// Objects have the names and namespaces the API server accepts.
		var objects []metav1.Object
		for _, o := range c.CSVs {
			objects = append(objects, o)
		}
		for _, o := range c.Subscriptions {
			objects = append(objects, o)
		}
		for _, o := range c.InstallPlans {
			objects = append(objects, o)
		}
		// ... and, as the API server keeps them, one of a kind by name.
		names := map[string]bool{}
		for _, o := range objects {
			if o == nil || len(validation.IsDNS1123Subdomain(o.GetName())) > 0 || len(validation.IsDNS1123Label(o.GetNamespace())) > 0 {
				return
			}
			key := fmt.Sprintf("%T/%s/%s", o, o.GetNamespace(), o.GetName())
			if names[key] {
				return
			}
			names[key] = true
		}
		now := updateStarted.Add(time.Duration(sinceStart))
		plan := Plan(PlanInput{Cluster: c, Current: current, Target: target, Now: now})
		health, _ := Health(HealthInput{Cluster: c, UpdateStarted: updateStarted, Now: now})
		if diff := cmp.Diff(plan, Plan(PlanInput{Cluster: c, Current: current, Target: target, Now: now})); diff != "" {
			t.Errorf("findings made again (-first +second):\n%s", diff)
		}
		if again, _ := Health(HealthInput{Cluster: c, UpdateStarted: updateStarted, Now: now}); !cmp.Equal(health, again) {
			t.Errorf("health made again (-first +second):\n%s", cmp.Diff(health, again))
		}
		for _, insights := range [][]insightsv1alpha1.UpdateInsight{plan, health} {
			checkBounds(t, insights)
			seen := map[string]bool{}
			for _, i := range insights {
				if seen[i.UID] {
					t.Errorf("two insights with uid %s", i.UID)
				}
				seen[i.UID] = true
			}
			status := insightsv1alpha1.UpdateStatusStatus{WorkerPools: []insightsv1alpha1.WorkerPoolUpdateStatus{{
				Resource:  insightsv1alpha1.ResourceRef{Group: "machineconfiguration.openshift.io", Resource: "machineconfigpools", Name: "worker"},
				Informers: []insightsv1alpha1.InformerInsights{{Name: "update-insights-operator", Insights: insights[:min(len(insights), 1024)]}},
			}}}
			if errs := schema.Validate(status); len(errs) > 0 {
				t.Errorf("the API would refuse the insights: %v", errs.ToAggregate())
			}
		}
	})
}

// FuzzMaxOpenShiftVersion reads arbitrary properties annotations: a
// version or an error, never both; a version is exactly major.minor.
func FuzzMaxOpenShiftVersion(f *testing.F) {
	for _, s := range []string{
		`{"properties":[{"type":"olm.maxOpenShiftVersion","value":"4.17"}]}`,
		`{"properties":[{"type":"olm.maxOpenShiftVersion","value":4.17},{"type":"olm.maxOpenShiftVersion","value":"4.17"}]}`,
		`{"properties":[{"type":"olm.maxOpenShiftVersion","value":"v4.17.0+build"}]}`,
		`{"properties":[{"type":"olm.maxOpenShiftVersion","value":"4.17.0-rc"}]}`,
		`[]`, ``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, annotation string) {
		version, err := MaxOpenShiftVersion(newCSV("ns", "csv", withProperties(annotation)))
		switch {
		case err != nil && version != nil:
			t.Errorf("both %s and %v", version, err)
		case version != nil && (version.Patch != 0 || len(version.Pre) > 0 || len(version.Build) > 0):
			t.Errorf("%q gives %s, not major.minor", annotation, version)
		}
	})
}
