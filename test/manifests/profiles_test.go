package manifests

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The cluster profiles the CVO runs with. It applies a manifest to a
// profile only when the manifest carries include.release.openshift.io/
// <profile>: "true" (openshift/library-go pkg/manifest/manifest.go,
// Include). A hosted control plane's CVO runs with ibm-cloud-managed
// (openshift/hypershift control-plane-operator/controllers/
// hostedcontrolplane/v2/assets/cluster-version-operator/deployment.yaml,
// CLUSTER_PROFILE).
const (
	selfManagedHighAvailability = "self-managed-high-availability"
	singleNodeDeveloper         = "single-node-developer"
	ibmCloudManaged             = "ibm-cloud-managed"

	deploymentFile             = "0000_50_update-insights-operator_07_deployment.yaml"
	hostedDeploymentFile       = "0000_50_update-insights-operator_07_deployment-ibm-cloud-managed.yaml"
	pluginDeploymentFile       = "0000_50_update-insights-operator_13_console-plugin-deployment.yaml"
	hostedPluginDeploymentFile = "0000_50_update-insights-operator_13_console-plugin-deployment-ibm-cloud-managed.yaml"
	masterRole                 = "node-role.kubernetes.io/master"
	profileAnnotationRoot      = "include.release.openshift.io/"
)

// everyProfile is what every profile gets: all the manifests but the
// operator's Deployment, of which each profile gets one variant. A hosted
// cluster needs them all: its namespaces openshift-machine-config-operator,
// openshift-config(-managed), kube-system and openshift-monitoring exist
// (the machine-config operator's namespace manifest carries
// ibm-cloud-managed), and its monitoring runs inside it.
var everyProfile = []string{
	"0000_50_update-insights-operator_00_namespace.yaml",
	"0000_50_update-insights-operator_01_clusteroperatorprogressinsights.crd.yaml",
	"0000_50_update-insights-operator_01_clusterversionprogressinsights.crd.yaml",
	"0000_50_update-insights-operator_01_hostedclusterprogressinsights.crd.yaml",
	"0000_50_update-insights-operator_01_machineconfigpoolprogressinsights.crd.yaml",
	"0000_50_update-insights-operator_01_nodepoolprogressinsights.crd.yaml",
	"0000_50_update-insights-operator_01_updaterecords.crd.yaml",
	"0000_50_update-insights-operator_01_nodeprogressinsights.crd.yaml",
	"0000_50_update-insights-operator_01_updatehealthinsights.crd.yaml",
	"0000_50_update-insights-operator_01_updateinformers.crd.yaml",
	"0000_50_update-insights-operator_01_updateplans.crd.yaml",
	"0000_50_update-insights-operator_01_updatestatuses.crd.yaml",
	"0000_50_update-insights-operator_02_serviceaccount.yaml",
	"0000_50_update-insights-operator_03_clusterrole.yaml",
	"0000_50_update-insights-operator_03_clusterrole-reader.yaml",
	"0000_50_update-insights-operator_04_clusterrolebinding-alerts.yaml",
	"0000_50_update-insights-operator_04_clusterrolebinding.yaml",
	"0000_50_update-insights-operator_05_role.yaml",
	"0000_50_update-insights-operator_06_rolebinding.yaml",
	"0000_50_update-insights-operator_08_service.yaml",
	"0000_50_update-insights-operator_09_prometheus-rbac.yaml",
	"0000_50_update-insights-operator_10_clusteroperator.yaml",
	"0000_50_update-insights-operator_11_observability-metrics-custom-allowlist.yaml",
	"0000_50_update-insights-operator_12_console-plugin-clusterrole.yaml",
	"0000_50_update-insights-operator_12_console-plugin-serviceaccount.yaml",
	"0000_50_update-insights-operator_14_console-plugin-service.yaml",
	"0000_90_update-insights-operator_00_servicemonitor.yaml",
	"0000_90_update-insights-operator_01_prometheusrule.yaml",
	"0000_90_update-insights-operator_02_consoleplugin.yaml",
}

// included says whether the CVO of profile applies m.
func included(m manifest, profile string) bool {
	return m.object.(metav1.Object).GetAnnotations()[profileAnnotationRoot+profile] == "true"
}

// profileManifests returns the manifests the CVO applies with profile.
func profileManifests(t *testing.T, profile string) []manifest {
	t.Helper()
	var out []manifest
	for _, m := range loadManifests(t) {
		if included(m, profile) {
			out = append(out, m)
		}
	}
	return out
}

func TestEachProfileGetsItsManifests(t *testing.T) {
	for _, tc := range []struct {
		profile     string
		deployments []string
	}{
		{profile: selfManagedHighAvailability, deployments: []string{deploymentFile, pluginDeploymentFile}},
		{profile: singleNodeDeveloper, deployments: []string{deploymentFile, pluginDeploymentFile}},
		{profile: ibmCloudManaged, deployments: []string{hostedDeploymentFile, hostedPluginDeploymentFile}},
	} {
		t.Run(tc.profile, func(t *testing.T) {
			want := slices.Sorted(slices.Values(append(slices.Clone(everyProfile), tc.deployments...)))
			var got []string
			for _, m := range profileManifests(t, tc.profile) {
				if !slices.Contains(got, m.file) {
					got = append(got, m.file)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
		})
	}
}

// A file is applied whole or not at all: every object of a file carries
// the same profiles, so no profile gets half of a file's RBAC.
func TestEveryObjectOfAFileHasItsProfiles(t *testing.T) {
	profiles := map[string][]string{}
	for _, m := range loadManifests(t) {
		var has []string
		for _, p := range []string{selfManagedHighAvailability, singleNodeDeveloper, ibmCloudManaged} {
			if included(m, p) {
				has = append(has, p)
			}
		}
		if len(has) == 0 {
			t.Errorf("%s: %T reaches no cluster profile", m.file, m.object)
		}
		if first, seen := profiles[m.file]; seen && !slices.Equal(first, has) {
			t.Errorf("%s: one object has profiles %v, another %v", m.file, first, has)
		}
		profiles[m.file] = has
	}
}

// The hosted cluster has no master nodes: each of its Deployments schedules
// on workers, and is otherwise the standard one.
func TestHostedDeploymentSchedulesOnWorkers(t *testing.T) {
	for _, name := range []string{operatorDeploymentName, consolePluginName} {
		t.Run(name, func(t *testing.T) {
			standard := named[*appsv1.Deployment](t, profileManifests(t, selfManagedHighAvailability), name)
			hosted := named[*appsv1.Deployment](t, profileManifests(t, ibmCloudManaged), name)
			checkHostedDeployment(t, standard, hosted)
		})
	}
}

func checkHostedDeployment(t *testing.T, standard, hosted *appsv1.Deployment) {
	pod := hosted.Spec.Template.Spec
	if _, ok := pod.NodeSelector[masterRole]; ok {
		t.Errorf("nodeSelector %v selects master nodes, which a hosted cluster has none of", pod.NodeSelector)
	}
	if slices.ContainsFunc(pod.Tolerations, func(tol corev1.Toleration) bool { return tol.Key == masterRole }) {
		t.Errorf("tolerations %v tolerate the master taint", pod.Tolerations)
	}

	// The standard Deployment, scheduled as the hosted one, and with the
	// hosted one's profile.
	want := standard.DeepCopy()
	want.Annotations = maps.Clone(standard.Annotations)
	delete(want.Annotations, profileAnnotationRoot+selfManagedHighAvailability)
	delete(want.Annotations, profileAnnotationRoot+singleNodeDeveloper)
	want.Annotations[profileAnnotationRoot+ibmCloudManaged] = "true"
	delete(want.Spec.Template.Spec.NodeSelector, masterRole)
	if len(want.Spec.Template.Spec.NodeSelector) == 0 {
		want.Spec.Template.Spec.NodeSelector = nil
	}
	want.Spec.Template.Spec.Tolerations = slices.DeleteFunc(want.Spec.Template.Spec.Tolerations, func(tol corev1.Toleration) bool { return tol.Key == masterRole })
	if diff := cmp.Diff(want, hosted); diff != "" {
		t.Errorf("the hosted Deployment differs from the standard one beyond scheduling (-want +got):\n%s", diff)
	}
}
