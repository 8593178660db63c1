package manifests

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	consolev1 "github.com/openshift/api/console/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/update-insights/update-insights-operator/pkg/controllers/operatorstatus"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// only returns the one object of type T among the manifests.
func only[T runtime.Object](t *testing.T, manifests []manifest) T {
	t.Helper()
	var found []T
	for _, m := range manifests {
		if o, ok := m.object.(T); ok {
			found = append(found, o)
		}
	}
	if len(found) != 1 {
		var zero T
		t.Fatalf("found %d %T, want 1", len(found), zero)
	}
	return found[0]
}

// named returns the object of type T named name among the manifests.
func named[T interface {
	runtime.Object
	GetName() string
}](t *testing.T, manifests []manifest, name string) T {
	t.Helper()
	var found []T
	for _, m := range manifests {
		if o, ok := m.object.(T); ok && o.GetName() == name {
			found = append(found, o)
		}
	}
	if len(found) != 1 {
		var zero T
		t.Fatalf("found %d %T named %s, want 1", len(found), zero, name)
	}
	return found[0]
}

// releaseVersion returns the RELEASE_VERSION env of the Deployment's
// container: the payload version the release build substitutes.
func releaseVersion(t *testing.T, d *appsv1.Deployment) string {
	t.Helper()
	for _, c := range d.Spec.Template.Spec.Containers {
		for _, e := range c.Env {
			if e.Name == "RELEASE_VERSION" && e.Value != "" {
				return e.Value
			}
		}
	}
	t.Fatalf("Deployment %s has no RELEASE_VERSION", d.Name)
	return ""
}

func TestClusterOperatorReportsThePayloadVersionAndRelatedObjects(t *testing.T) {
	manifests := profileManifests(t, selfManagedHighAvailability)
	co := only[*configv1.ClusterOperator](t, manifests)
	deployment := named[*appsv1.Deployment](t, manifests, operatorDeploymentName)
	namespace := only[*corev1.Namespace](t, manifests)
	plugin := only[*consolev1.ConsolePlugin](t, manifests)

	// must-gather and `oc adm inspect` collect the relatedObjects: the
	// operator namespace, every CRD, and every object of every CRD.
	wantRelated := []configv1.ObjectReference{{Group: "", Resource: "namespaces", Name: namespace.Name}}
	crds := 0
	for _, m := range manifests {
		crd, ok := m.object.(*apiextensionsv1.CustomResourceDefinition)
		if !ok {
			continue
		}
		crds++
		wantRelated = append(wantRelated,
			configv1.ObjectReference{Group: apiextensionsv1.GroupName, Resource: "customresourcedefinitions", Name: crd.Name},
			configv1.ObjectReference{Group: crd.Spec.Group, Resource: crd.Spec.Names.Plural, Name: ""})
	}
	if crds == 0 {
		t.Fatal("no CRDs among the manifests")
	}

	for _, tc := range []struct {
		name      string
		got, want any
	}{
		// The ClusterOperator the operator maintains.
		{"name", co.Name, names.OwnClusterOperator},
		// The CVO waits until the ClusterOperator reports the payload's
		// version, which the operator learns from RELEASE_VERSION.
		{"versions", co.Status.Versions, []configv1.OperandVersion{{Name: names.OperatorVersion, Version: releaseVersion(t, deployment)}}},
		{"relatedObjects", sortedReferences(co.Status.RelatedObjects), sortedReferences(wantRelated)},
		// The CVO creates the ClusterOperator with the manifest's
		// relatedObjects, so that must-gather collects them even if the
		// operator never runs; once it runs, the operator writes the same.
		// Without the Console capability, which a ClusterOperator manifest
		// cannot depend on, since the ClusterOperator is on every cluster.
		{"relatedObjects as the operator writes them", co.Status.RelatedObjects, operatorstatus.RelatedObjects(namespace.Name, false)},
		// With it, the CVO applies the ConsolePlugin too, and the operator
		// adds it, so that must-gather collects it.
		{"relatedObjects as the operator writes them with the Console capability",
			operatorstatus.RelatedObjects(namespace.Name, true),
			append(slices.Clone(co.Status.RelatedObjects), configv1.ObjectReference{Group: consolev1.GroupName, Resource: "consoleplugins", Name: plugin.Name})},
		{"the ConsolePlugin's capability", plugin.Annotations[capabilityAnnotation], string(configv1.ClusterVersionCapabilityConsole)},
		{"spec", co.Spec, configv1.ClusterOperatorSpec{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.got); diff != "" {
				t.Errorf("ClusterOperator %s differs (-want +got):\n%s", tc.name, diff)
			}
		})
	}
}

func sortedReferences(refs []configv1.ObjectReference) []configv1.ObjectReference {
	refs = slices.Clone(refs)
	slices.SortFunc(refs, func(a, b configv1.ObjectReference) int {
		return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
	})
	return refs
}

func TestOperatorWritesOnlyItsOwnClusterOperator(t *testing.T) {
	manifests := loadManifests(t)
	co := only[*configv1.ClusterOperator](t, manifests)
	clusterRole := named[*rbacv1.ClusterRole](t, manifests, "update-insights-operator")
	got := grants(clusterRole.Rules)

	for _, want := range []struct {
		grant grant
		why   string
	}{
		{grant{"config.openshift.io", "clusteroperators", "create", ""}, "to recreate its ClusterOperator if deleted"},
		{grant{"config.openshift.io", "clusteroperators/status", "get", co.Name}, "to read its status before updating it"},
		{grant{"config.openshift.io", "clusteroperators/status", "update", co.Name}, "to report its status"},
		{grant{"config.openshift.io", "clusteroperators/status", "patch", co.Name}, "to report its status"},
	} {
		if !slices.Contains(got, want.grant) {
			t.Errorf("ClusterRole %s lacks %+v, which the operator needs %s", clusterRole.Name, want.grant, want.why)
		}
	}
	// Writing any other ClusterOperator would interfere with other operators.
	for _, g := range got {
		if g.Group != "config.openshift.io" || (g.Resource != "clusteroperators" && g.Resource != "clusteroperators/status") {
			continue
		}
		if slices.Contains([]string{"update", "patch", "delete", "deletecollection"}, g.Verb) && g.ResourceNames != co.Name {
			t.Errorf("ClusterRole %s grants %s on %s limited to %q, want only the operator's ClusterOperator %q", clusterRole.Name, g.Verb, g.Resource, g.ResourceNames, co.Name)
		}
	}
}
