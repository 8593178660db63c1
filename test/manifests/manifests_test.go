// Package manifests checks the payload manifests against the rules the CVO
// and OpenShift's payload conventions impose, without an API server.
package manifests

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	consolev1 "github.com/openshift/api/console/v1"
	imagev1 "github.com/openshift/api/image/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

const (
	machineConfigNamespace = "openshift-machine-config-operator"
	manifestDir            = "../../manifests"
	operatorNamespace      = names.OwnNamespace
	serviceAccount         = "update-insights-operator"
	operatorDeploymentName = "update-insights-operator"
	// metricsService is the operator's metrics Service; the console
	// plugin's is another.
	metricsService = "metrics"

	// Events on a cluster-scoped object, such as the ClusterVersion insight,
	// go to namespace default, where the operator has a Role of this name.
	eventsNamespace = "default"
	eventsRole      = "update-insights-operator-events"
)

var (
	fileName = regexp.MustCompile(`^0000_[0-9]{2}_update-insights-operator_[0-9]{2}_[a-z0-9.-]+\.yaml$`)

	serviceMonitorKind = schema.GroupVersionKind{Group: "monitoring.coreos.com", Version: "v1", Kind: "ServiceMonitor"}
	// The PrometheusRule's content is tested by test/rules.
	prometheusRuleKind = schema.GroupVersionKind{Group: "monitoring.coreos.com", Version: "v1", Kind: "PrometheusRule"}
	// Kinds whose Go types are not vendored, decoded as unstructured. Any
	// other kind the scheme does not know fails to decode.
	unstructuredKinds = []schema.GroupVersionKind{serviceMonitorKind, prometheusRuleKind}
)

type manifest struct {
	file   string
	object runtime.Object
	// raw is the document as the API server receives it.
	raw []byte
}

// loadManifests returns the payload manifests: the top-level files only, as
// the Dockerfile copies them.
func loadManifests(t *testing.T) []manifest {
	t.Helper()
	return loadManifestsFrom(t, manifestDir)
}

// loadManifestsFrom decodes the documents of the .yaml files directly in dir.
func loadManifestsFrom(t *testing.T, dir string) []manifest {
	t.Helper()
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{scheme.AddToScheme, apiextensionsv1.AddToScheme, configv1.Install, consolev1.Install, insightsv1alpha1.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	// Strict, as the API server decodes: a misspelt or unknown field fails
	// instead of vanishing.
	decoder := serializer.NewCodecFactory(s, serializer.EnableStrict).UniversalDeserializer()

	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in %s: %v", dir, err)
	}
	var manifests []manifest
	for _, file := range files {
		content, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		reader := utilyaml.NewYAMLReader(bufioReader(content))
		for {
			doc, err := reader.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if len(bytes.TrimSpace(doc)) == 0 || string(bytes.TrimSpace(doc)) == "---" {
				continue
			}
			obj, err := decode(decoder, doc)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			manifests = append(manifests, manifest{file: filepath.Base(file), object: obj, raw: bytes.Clone(doc)})
		}
	}
	return manifests
}

// decode decodes a typed object, or an unstructured one for the kinds in
// unstructuredKinds.
func decode(decoder runtime.Decoder, doc []byte) (runtime.Object, error) {
	var typeMeta metav1.TypeMeta
	if err := yaml.Unmarshal(doc, &typeMeta); err != nil {
		return nil, err
	}
	if !slices.Contains(unstructuredKinds, typeMeta.GroupVersionKind()) {
		obj, _, err := decoder.Decode(doc, nil, nil)
		return obj, err
	}
	content, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return nil, err
	}
	obj, _, err := unstructured.UnstructuredJSONScheme.Decode(content, nil, nil)
	return obj, err
}

func TestFileNamesFollowTheCVOConvention(t *testing.T) {
	entries, err := os.ReadDir(manifestDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		// The Dockerfile copies only the top-level files into the payload
		// (TestDockerfileCopiesNoManifestSubdirectory): a directory holds
		// manifests the CVO does not apply.
		if e.Name() == "image-references" || e.IsDir() {
			continue
		}
		if !fileName.MatchString(e.Name()) {
			t.Errorf("%s does not match %s", e.Name(), fileName)
		}
	}
}

func TestNamespacedObjectsLiveInTheOperatorNamespace(t *testing.T) {
	for _, m := range loadManifests(t) {
		meta := m.object.(interface{ GetNamespace() string })
		ns := meta.GetNamespace()
		// The exceptions: reading kube-system's authentication config, the
		// machine-config-operator Deployment and the admin gates and
		// acknowledgements, and recording Events on cluster-scoped objects
		// need RBAC in their namespaces.
		if rb, ok := m.object.(*rbacv1.RoleBinding); ok && rb.RoleRef.Name == "extension-apiserver-authentication-reader" {
			if ns != "kube-system" {
				t.Errorf("%s: the authentication reader binding must be in kube-system, is in %q", m.file, ns)
			}
			continue
		}
		switch m.object.(type) {
		case *rbacv1.Role, *rbacv1.RoleBinding:
			if ns == machineConfigNamespace || ns == names.ConfigManagedNamespace || ns == names.ConfigNamespace {
				continue
			}
			if ns == eventsNamespace && m.object.(metav1.Object).GetName() == eventsRole {
				continue
			}
		}
		switch m.object.(type) {
		case *corev1.Namespace, *rbacv1.ClusterRole, *rbacv1.ClusterRoleBinding, *apiextensionsv1.CustomResourceDefinition, *configv1.ClusterOperator,
			*consolev1.ConsolePlugin:
			if ns != "" {
				t.Errorf("%s: cluster-scoped %T has namespace %q", m.file, m.object, ns)
			}
		default:
			if ns != operatorNamespace {
				t.Errorf("%s: %T is in namespace %q, want %q", m.file, m.object, ns, operatorNamespace)
			}
		}
	}
}

// Insights of objects that live in namespaces are namespaced beside them:
// the management cluster's, of HostedClusters and NodePools.
var namespacedKinds = map[string]bool{"HostedClusterProgressInsight": true, "NodePoolProgressInsight": true}

func TestEveryKindHasACRDOfItsScopeWithAStatusSubresource(t *testing.T) {
	want := map[string]bool{}
	apiPackage := reflect.TypeOf(insightsv1alpha1.ClusterVersionProgressInsight{}).PkgPath()
	for gvk, goType := range insightScheme(t).AllKnownTypes() {
		if goType.PkgPath() == apiPackage && !strings.HasSuffix(gvk.Kind, "List") {
			want[gvk.Kind] = true
		}
	}
	if len(want) != 11 {
		t.Fatalf("the API registers %d kinds, want 11: seven insights, UpdateInformer, UpdateStatus, UpdatePlan and UpdateRecord", len(want))
	}
	for _, m := range loadManifests(t) {
		crd, ok := m.object.(*apiextensionsv1.CustomResourceDefinition)
		if !ok {
			continue
		}
		kind := crd.Spec.Names.Kind
		if !want[kind] {
			t.Errorf("%s: unexpected CRD for %s", m.file, kind)
			continue
		}
		delete(want, kind)
		scope := apiextensionsv1.ClusterScoped
		if namespacedKinds[kind] {
			scope = apiextensionsv1.NamespaceScoped
		}
		if crd.Spec.Scope != scope {
			t.Errorf("%s: %s is %s, want %s", m.file, kind, crd.Spec.Scope, scope)
		}
		if len(crd.Spec.Names.ShortNames) == 0 {
			t.Errorf("%s: %s has no short name", m.file, kind)
		}
		for _, v := range crd.Spec.Versions {
			if v.Subresources == nil || v.Subresources.Status == nil {
				t.Errorf("%s: %s %s has no status subresource", m.file, kind, v.Name)
			}
			if len(v.AdditionalPrinterColumns) == 0 {
				t.Errorf("%s: %s %s has no printer columns", m.file, kind, v.Name)
			}
		}
	}
	for kind := range want {
		t.Errorf("no CRD for %s", kind)
	}
}

func insightScheme(t *testing.T) *runtime.Scheme {
	s := runtime.NewScheme()
	if err := insightsv1alpha1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// Every Deployment of the payload, the operator's and the console plugin's
// server, runs the operator's image as a payload component does.
func TestDeploymentRunsAsAPayloadComponent(t *testing.T) {
	var deployments []*appsv1.Deployment
	serviceAccounts := map[string]bool{}
	for _, m := range profileManifests(t, selfManagedHighAvailability) {
		switch o := m.object.(type) {
		case *appsv1.Deployment:
			deployments = append(deployments, o)
		case *corev1.ServiceAccount:
			serviceAccounts[o.Name] = true
		}
	}
	var names []string
	for _, d := range deployments {
		names = append(names, d.Name)
	}
	if want := []string{operatorDeploymentName, consolePluginName}; !slices.Equal(names, want) {
		t.Fatalf("Deployments %v, want %v", names, want)
	}
	image := referencedImage(t)
	for _, d := range deployments {
		t.Run(d.Name, func(t *testing.T) {
			checkPayloadDeployment(t, d, image, serviceAccounts)
		})
	}
}

func checkPayloadDeployment(t *testing.T, d *appsv1.Deployment, image string, serviceAccounts map[string]bool) {
	pod := d.Spec.Template.Spec
	if !serviceAccounts[pod.ServiceAccountName] {
		t.Errorf("service account %q is not among the manifests", pod.ServiceAccountName)
	}
	if pod.PriorityClassName != "system-cluster-critical" {
		t.Errorf("priorityClassName = %q, want system-cluster-critical", pod.PriorityClassName)
	}
	if _, ok := pod.NodeSelector["node-role.kubernetes.io/master"]; !ok {
		t.Errorf("nodeSelector %v does not select control plane nodes", pod.NodeSelector)
	}
	if !slices.ContainsFunc(pod.Tolerations, func(tol corev1.Toleration) bool {
		return tol.Key == "node-role.kubernetes.io/master" && tol.Operator == corev1.TolerationOpExists && tol.Effect == corev1.TaintEffectNoSchedule
	}) {
		t.Errorf("tolerations %v do not tolerate the control plane taint", pod.Tolerations)
	}
	if sc := pod.SecurityContext; sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot ||
		sc.SeccompProfile == nil || sc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("pod security context %+v is not non-root with the RuntimeDefault seccomp profile", sc)
	}

	if len(pod.Containers) != 1 {
		t.Fatalf("found %d containers, want 1", len(pod.Containers))
	}
	c := pod.Containers[0]
	if c.Image != image {
		t.Errorf("container image %q is not the one image-references names (%q), so the CVO would not substitute it", c.Image, image)
	}
	sc := c.SecurityContext
	if sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation ||
		sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") {
		t.Errorf("container security context %+v does not forbid privilege escalation and drop ALL capabilities", sc)
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() {
		t.Errorf("container requests %v lack cpu or memory", c.Resources.Requests)
	}
	if len(c.Resources.Limits) != 0 {
		t.Errorf("container has limits %v; payload components set requests only", c.Resources.Limits)
	}
	if c.TerminationMessagePolicy != corev1.TerminationMessageFallbackToLogsOnError {
		t.Errorf("terminationMessagePolicy = %q, want FallbackToLogsOnError", c.TerminationMessagePolicy)
	}
	if d.Name != operatorDeploymentName {
		return
	}
	// The operator's own.
	if d.Spec.Replicas == nil || *d.Spec.Replicas != 1 {
		t.Errorf("replicas = %v, want 1", d.Spec.Replicas)
	}
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	if env["RELEASE_VERSION"] != "0.0.1-snapshot" {
		t.Errorf("RELEASE_VERSION = %q, want the payload placeholder 0.0.1-snapshot", env["RELEASE_VERSION"])
	}
	if env["OPERATOR_IMAGE"] != image {
		t.Errorf("OPERATOR_IMAGE = %q, want the referenced image %q", env["OPERATOR_IMAGE"], image)
	}
	if !slices.Contains(c.Args, "--namespace="+operatorNamespace) {
		t.Errorf("args %v do not name the operator namespace, where the leader Lease lives", c.Args)
	}
}

// referencedImage returns the single image that image-references names.
func referencedImage(t *testing.T) string {
	t.Helper()
	content, err := os.ReadFile(filepath.Join(manifestDir, "image-references"))
	if err != nil {
		t.Fatal(err)
	}
	var is imagev1.ImageStream
	if err := yaml.UnmarshalStrict(content, &is); err != nil {
		t.Fatalf("image-references: %v", err)
	}
	if is.Kind != "ImageStream" || len(is.Spec.Tags) != 1 || is.Spec.Tags[0].From == nil {
		t.Fatalf("image-references must name exactly one image, got %+v", is)
	}
	if is.Spec.Tags[0].Name != "update-insights-operator" {
		t.Errorf("image-references tag is %q, want update-insights-operator", is.Spec.Tags[0].Name)
	}
	return is.Spec.Tags[0].From.Name
}

func bufioReader(b []byte) *bufio.Reader {
	return bufio.NewReader(bytes.NewReader(b))
}
