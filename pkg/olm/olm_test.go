package olm

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

func TestUID(t *testing.T) {
	long := strings.Repeat("n", 63)
	longName := strings.Repeat("x", 253)
	testCases := []struct {
		name           string
		namespace, obj string
		want           string
		wantHashed     bool
	}{
		{name: "short", namespace: "ns", obj: "op.v1", want: "unhealthy/ns/op.v1"},
		{name: "exactly 256", namespace: "ns", obj: strings.Repeat("x", 256-len("unhealthy/ns/")), want: "unhealthy/ns/" + strings.Repeat("x", 256-len("unhealthy/ns/"))},
		{name: "257: hashed", namespace: "ns", obj: strings.Repeat("x", 257-len("unhealthy/ns/")), wantHashed: true},
		{name: "longest names: hashed", namespace: long, obj: longName, wantHashed: true},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got := uid("unhealthy", tc.namespace, tc.obj)
			if len(got) > maxUIDLength {
				t.Errorf("uid %q of %d bytes, want at most %d", got, len(got), maxUIDLength)
			}
			if got != uid("unhealthy", tc.namespace, tc.obj) {
				t.Errorf("uid %q not stable", got)
			}
			if !tc.wantHashed {
				if got != tc.want {
					t.Errorf("uid %q, want %q", got, tc.want)
				}
				return
			}
			if !strings.HasPrefix(got, "unhealthy/") || strings.Contains(got, tc.obj) {
				t.Errorf("uid %q, want the kind and a hash", got)
			}
			// Another object of the same long names has another uid.
			if other := uid("unhealthy", tc.namespace, tc.obj[:len(tc.obj)-1]+"y"); other == got {
				t.Errorf("two objects share the uid %q", got)
			}
			if other := uid("max-openshift-version", tc.namespace, tc.obj); other == got {
				t.Errorf("two kinds share the uid %q", got)
			}
		})
	}
}

// TestBounds gives every finding names and texts longer than the API
// takes: what comes out fits it.
func TestBounds(t *testing.T) {
	namespace := strings.Repeat("n", 63)
	name := strings.Repeat("operator-", 28) + "v1" // 254 bytes
	huge := strings.Repeat("a very long message\nthat spans lines\t", 300)
	csv := newCSV(namespace, name, withMax(`"4.16"`), failedSince(now.Add(-Settle)),
		withDisplayName(strings.Repeat("Display\nName ", 40), strings.Repeat("1", 100)),
		func(csv *operatorsv1alpha1.ClusterServiceVersion) {
			csv.Status.Message = huge
			csv.Status.Reason = strings.Repeat("Reason", 50)
			for range 100 {
				csv.Status.RequirementStatus = append(csv.Status.RequirementStatus, operatorsv1alpha1.RequirementStatus{
					Kind: "CustomResourceDefinition", Name: name, Status: "NotPresent", Message: huge[:500],
				})
			}
		})
	sub := newSub(namespace, name, name, manual(name), withCondition("PackageDeprecated", "True", huge),
		withCondition("ChannelDeprecated", "True", huge), withCondition("BundleDeprecated", "True", huge),
		func(s *operatorsv1alpha1.Subscription) {
			s.Spec.Channel, s.Spec.CatalogSource = huge[:1000], huge[:1000]
		})
	plan := newPlan(namespace, name, "RequiresApproval", false, name, name, name, name, name, name, name, name, name, name, name, name, name, name, name, name, name)
	cluster := Cluster{
		CSVs:          []*operatorsv1alpha1.ClusterServiceVersion{csv},
		Subscriptions: []*operatorsv1alpha1.Subscription{sub},
		InstallPlans:  []*operatorsv1alpha1.InstallPlan{plan},
	}

	planned := Plan(PlanInput{Cluster: cluster, Current: "4.16.20", Target: "4.17.3", Now: now})
	if len(planned) != 6 {
		t.Errorf("Plan: %d insights %v, want 6", len(planned), uids(planned))
	}
	checkBounds(t, planned)
	again := Plan(PlanInput{Cluster: cluster, Current: "4.16.20", Target: "4.17.3", Now: now})
	if diff := cmp.Diff(uids(planned), uids(again)); diff != "" {
		t.Errorf("uids differ from one call to the next (-first +second):\n%s", diff)
	}
	seen := map[string]bool{}
	for _, u := range uids(planned) {
		if seen[u] {
			t.Errorf("uid %s twice", u)
		}
		seen[u] = true
	}

	health, _ := Health(HealthInput{Cluster: cluster, UpdateStarted: updateStarted, Now: now})
	if len(health) != 1 {
		t.Errorf("Health: %d insights %v, want 1", len(health), uids(health))
	}
	checkBounds(t, health)
}
