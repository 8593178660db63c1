package health

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

func cv(annotations map[string]string) *configv1.ClusterVersion {
	return &configv1.ClusterVersion{ObjectMeta: metav1.ObjectMeta{Name: "version", Annotations: annotations}}
}

func TestForced(t *testing.T) {
	t.Run("no annotation: no insight", func(t *testing.T) {
		if got := Forced(cv(nil)); len(got) != 0 {
			t.Errorf("got %d insights, want none", len(got))
		}
	})
	t.Run("annotation: one Info insight about the ClusterVersion", func(t *testing.T) {
		got := Forced(cv(map[string]string{ForceInsightAnnotation: ""}))
		if len(got) != 1 {
			t.Fatalf("got %d insights, want 1", len(got))
		}
		s := got[0].Status
		want := insightsv1alpha1.InsightScope{
			Type:      insightsv1alpha1.ScopeTypeControlPlane,
			Resources: []insightsv1alpha1.ResourceRef{{Group: "config.openshift.io", Resource: "clusterversions", Name: "version"}},
		}
		if diff := cmp.Diff(want, s.Scope); diff != "" {
			t.Errorf("scope (-want +got):\n%s", diff)
		}
		if s.Impact.Level != insightsv1alpha1.InfoImpactLevel || s.Impact.Type != insightsv1alpha1.NoneImpactType {
			t.Errorf("impact %s/%s, want Info/None", s.Impact.Level, s.Impact.Type)
		}
		if !s.StartedAt.IsZero() {
			t.Errorf("startedAt = %v, want zero: the cluster does not record when the annotation was added", s.StartedAt)
		}
		if got[0].Name != Name("cv-", &s) {
			t.Errorf("name %s is not derived from the insight", got[0].Name)
		}
	})
}

func TestNameIsStableDistinctAndAValidObjectName(t *testing.T) {
	status := func(summary string, names ...string) *insightsv1alpha1.UpdateHealthInsightStatus {
		s := &insightsv1alpha1.UpdateHealthInsightStatus{Impact: insightsv1alpha1.InsightImpact{Summary: summary}}
		for _, n := range names {
			s.Scope.Resources = append(s.Scope.Resources, insightsv1alpha1.ResourceRef{Resource: "clusteroperators", Name: n})
		}
		return s
	}
	a := Name("cv-", status("etcd is degraded", "etcd"))
	if again := Name("cv-", status("etcd is degraded", "etcd")); again != a {
		t.Errorf("the same insight got names %s and %s", a, again)
	}
	for _, other := range []*insightsv1alpha1.UpdateHealthInsightStatus{
		status("etcd is unavailable", "etcd"),
		status("etcd is degraded", "etcd", "kube-apiserver"),
		status("etcd is degraded", "etc", "d"),
		status("etcd is degraded"),
	} {
		if n := Name("cv-", other); n == a {
			t.Errorf("different insights %+v share the name %s", other, n)
		}
	}
	if !regexp.MustCompile(`^cv-[0-9a-f]{32}$`).MatchString(a) {
		t.Errorf("name %q is not cv- and 32 hex digits", a)
	}
	if errs := validation.IsDNS1123Subdomain(a); len(errs) > 0 {
		t.Errorf("name %q is not a valid object name: %v", a, errs)
	}
}
