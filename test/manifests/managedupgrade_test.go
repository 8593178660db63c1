package manifests

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/cmd/informer"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

const (
	// managedUpgradeDir holds the manifests of the Managed Upgrade
	// Operator's informer, which managed clusters apply themselves.
	managedUpgradeDir = manifestDir + "/managed-upgrade-informer"
	// The Managed Upgrade Operator's namespace, where its UpgradeConfigs and
	// its configuration live.
	managedUpgradeNamespace = "openshift-managed-upgrade-operator"
	informerServiceAccount  = "managed-upgrade-informer"
	// injectCABundleAnnotation has the service CA fill a ConfigMap with its
	// certificate, under service-ca.crt.
	injectCABundleAnnotation = "service.beta.openshift.io/inject-cabundle"
)

var (
	managedUpgradeFileName = regexp.MustCompile(`^[0-9]{2}_[a-z0-9-]+\.yaml$`)
	// Annotations the CVO acts on: none belongs on manifests it must not
	// apply.
	cvoAnnotationPrefixes = []string{"include.release.openshift.io/", "exclude.release.openshift.io/", "release.openshift.io/"}
)

func TestManagedUpgradeInformerManifestsAreNotPayload(t *testing.T) {
	entries, err := os.ReadDir(managedUpgradeDir)
	if err != nil {
		t.Fatal(err)
	}
	prefixes := map[string]string{}
	for _, e := range entries {
		if e.Name() == "README.md" {
			continue
		}
		// Numbered in the order they are applied, one file per number.
		if !managedUpgradeFileName.MatchString(e.Name()) {
			t.Errorf("%s does not match %s", e.Name(), managedUpgradeFileName)
			continue
		}
		if other, ok := prefixes[e.Name()[:2]]; ok {
			t.Errorf("%s and %s share their number", other, e.Name())
		}
		prefixes[e.Name()[:2]] = e.Name()
	}
	for _, m := range loadManifestsFrom(t, managedUpgradeDir) {
		object := m.object.(metav1.Object)
		for a := range object.GetAnnotations() {
			for _, prefix := range cvoAnnotationPrefixes {
				if strings.HasPrefix(a, prefix) {
					t.Errorf("%s: %T %s carries the CVO annotation %s", m.file, m.object, object.GetName(), a)
				}
			}
		}
		namespace := object.GetNamespace()
		switch m.object.(type) {
		case *rbacv1.ClusterRole, *rbacv1.ClusterRoleBinding, *insightsv1alpha1.UpdateInformer:
			if namespace != "" {
				t.Errorf("%s: cluster-scoped %T has namespace %q", m.file, m.object, namespace)
			}
		case *rbacv1.Role, *rbacv1.RoleBinding:
			if namespace != operatorNamespace && namespace != managedUpgradeNamespace {
				t.Errorf("%s: %T is in namespace %q, want %q or %q", m.file, m.object, namespace, operatorNamespace, managedUpgradeNamespace)
			}
		default:
			if namespace != operatorNamespace {
				t.Errorf("%s: %T is in namespace %q, want %q", m.file, m.object, namespace, operatorNamespace)
			}
		}
	}
}

// The CVO applies what the image holds in /manifests: the Dockerfile must
// copy none of the informer's manifests there.
func TestDockerfileCopiesNoManifestSubdirectory(t *testing.T) {
	sources := payloadCopySources(t)
	files, err := filepath.Glob(filepath.Join(managedUpgradeDir, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no files in %s: %v", managedUpgradeDir, err)
	}
	// Paths as the Dockerfile names them, from the repository's root.
	subdir := strings.TrimPrefix(managedUpgradeDir, "../../")
	paths := []string{subdir}
	for _, f := range files {
		paths = append(paths, path.Join(subdir, filepath.Base(f)))
	}
	for _, src := range sources {
		src = path.Clean(src)
		for _, p := range paths {
			// A source that is a directory is copied with everything under
			// it; a glob that matches a directory copies its content.
			matched, err := path.Match(src, p)
			if err != nil {
				t.Fatalf("COPY source %q: %v", src, err)
			}
			if matched || src == "." || strings.HasPrefix(p, src+"/") {
				t.Errorf("the Dockerfile's COPY of %q into /manifests/ includes %s", src, p)
			}
		}
	}
	// The check above would pass on a Dockerfile that copies nothing.
	if !slices.Contains(sources, "manifests/*.yaml") {
		t.Errorf("COPY sources %v do not copy manifests/*.yaml, the payload manifests", sources)
	}
}

// payloadCopySources returns the sources of the one COPY into /manifests/.
func payloadCopySources(t *testing.T) []string {
	t.Helper()
	content, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var found [][]string
	scanner := bufio.NewScanner(bytes.NewReader(content))
	for scanner.Scan() {
		fields := strings.Fields(scanner.Text())
		if len(fields) < 3 || !strings.EqualFold(fields[0], "COPY") {
			continue
		}
		args := slices.DeleteFunc(fields[1:], func(f string) bool { return strings.HasPrefix(f, "--") })
		if len(args) >= 2 && path.Clean(args[len(args)-1]) == "/manifests" {
			found = append(found, args[:len(args)-1])
		}
	}
	if err := scanner.Err(); err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 {
		t.Fatalf("found %d COPY instructions into /manifests/, want 1", len(found))
	}
	return found[0]
}

// A grant in a namespace, or cluster-wide ("").
type scopedGrant struct {
	Namespace string
	Grant     grant
}

// effectiveGrants returns what subject is granted by the bindings of
// manifests to the roles of manifests, in the namespace of each binding.
func effectiveGrants(t *testing.T, manifests []manifest, subject rbacv1.Subject) []scopedGrant {
	t.Helper()
	roles := rolesOf(manifests)
	var got []scopedGrant
	for _, m := range manifests {
		key, subjects, ok := bindingOf(m.object)
		if !ok || !slices.Contains(subjects, subject) {
			continue
		}
		rules, ok := roles[key]
		if !ok {
			// Roles the cluster provides are checked by the payload's tests;
			// nothing here binds one.
			t.Errorf("%s: binds %s, which is not among the manifests", m.file, key)
			continue
		}
		for _, g := range grants(rules) {
			got = append(got, scopedGrant{Namespace: m.object.(metav1.Object).GetNamespace(), Grant: g})
		}
	}
	slices.SortFunc(got, func(a, b scopedGrant) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
	return slices.Compact(got)
}

func TestManagedUpgradeInformerRBACIsLeastPrivilege(t *testing.T) {
	informerManifests := loadManifestsFrom(t, managedUpgradeDir)
	// Both sets, so that a payload binding to the informer's account counts.
	all := append(loadManifests(t), informerManifests...)
	informer := rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: informerServiceAccount, Namespace: operatorNamespace}
	got := effectiveGrants(t, all, informer)

	want := []scopedGrant{
		// Drains: the nodes, the budgets that hold them up, and the pods of
		// the nodes being drained, watched by spec.nodeName.
		{"", grant{"", "nodes", "list", ""}},
		{"", grant{"", "nodes", "watch", ""}},
		{"", grant{"", "pods", "list", ""}},
		{"", grant{"", "pods", "watch", ""}},
		{"", grant{"policy", "poddisruptionbudgets", "list", ""}},
		{"", grant{"policy", "poddisruptionbudgets", "watch", ""}},
		// The Managed Upgrade Operator's UpgradeConfigs and its
		// configuration, in its namespace only; the ConfigMap watched by
		// name.
		{managedUpgradeNamespace, grant{"", "configmaps", "list", "managed-upgrade-operator-config"}},
		{managedUpgradeNamespace, grant{"", "configmaps", "watch", "managed-upgrade-operator-config"}},
		{managedUpgradeNamespace, grant{"upgrade.managed.openshift.io", "upgradeconfigs", "get", ""}},
		{managedUpgradeNamespace, grant{"upgrade.managed.openshift.io", "upgradeconfigs", "list", ""}},
		{managedUpgradeNamespace, grant{"upgrade.managed.openshift.io", "upgradeconfigs", "watch", ""}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the informer's grants differ (-want +got):\n%s", diff)
	}
	// Said on their own, so that a change of the list above keeps them.
	for _, g := range got {
		if slices.Contains([]string{"create", "update", "patch", "delete", "deletecollection", "*"}, g.Grant.Verb) {
			t.Errorf("the informer may %s %s: it only reads", g.Grant.Verb, g.Grant.Resource)
		}
		if g.Grant.Resource == "secrets" {
			t.Errorf("the informer may %s secrets in %q", g.Grant.Verb, g.Namespace)
		}
		if g.Namespace == "" && (g.Grant.Resource == "upgradeconfigs" || g.Grant.Resource == "configmaps") {
			t.Errorf("the informer may %s %s cluster-wide", g.Grant.Verb, g.Grant.Resource)
		}
	}

	// What the informer's manifests grant the operator: the CA's ConfigMap
	// only, never the serving certificate's Secret and its private key.
	operator := rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: serviceAccount, Namespace: operatorNamespace}
	wantOperator := []scopedGrant{{operatorNamespace, grant{"", "configmaps", "get", informerCAConfigMap(t, informerManifests).Name}}}
	if diff := cmp.Diff(wantOperator, effectiveGrants(t, informerManifests, operator)); diff != "" {
		t.Errorf("the operator's grants from the informer's manifests differ (-want +got):\n%s", diff)
	}

	// Every role is bound, and to no one else.
	bound := map[roleKey]bool{}
	for _, m := range informerManifests {
		if key, subjects, ok := bindingOf(m.object); ok {
			bound[key] = true
			checkSubjects(t, m.file, subjects, informer, operator)
		}
	}
	for _, m := range informerManifests {
		switch o := m.object.(type) {
		case *rbacv1.ClusterRole:
			if !bound[roleKey{"ClusterRole", "", o.Name}] {
				t.Errorf("%s: ClusterRole %s is bound to no one", m.file, o.Name)
			}
		case *rbacv1.Role:
			if !bound[roleKey{"Role", o.Namespace, o.Name}] {
				t.Errorf("%s: Role %s/%s is bound to no one", m.file, o.Namespace, o.Name)
			}
		}
	}
}

func checkSubjects(t *testing.T, file string, subjects []rbacv1.Subject, allowed ...rbacv1.Subject) {
	t.Helper()
	if len(subjects) != 1 || !slices.Contains(allowed, subjects[0]) {
		t.Errorf("%s: subjects %v, want one of %v", file, subjects, allowed)
	}
}

// informerCAConfigMap returns the ConfigMap the service CA fills with its
// certificate, as its annotation asks.
func informerCAConfigMap(t *testing.T, manifests []manifest) *corev1.ConfigMap {
	t.Helper()
	cm := only[*corev1.ConfigMap](t, manifests)
	if cm.Annotations[injectCABundleAnnotation] != "true" {
		t.Fatalf("ConfigMap %s lacks annotation %s: \"true\", so the service CA does not fill it", cm.Name, injectCABundleAnnotation)
	}
	return cm
}

// informerCASecret returns the Secret the service CA issues the informer's
// certificate into, as the Service's annotation names it.
func informerCASecret(t *testing.T, manifests []manifest) string {
	t.Helper()
	secret := only[*corev1.Service](t, manifests).Annotations[servingCertAnnotation]
	if secret == "" {
		t.Fatalf("the informer's Service lacks annotation %s, so the service CA issues it no certificate", servingCertAnnotation)
	}
	return secret
}

func TestManagedUpgradeInformerDeployment(t *testing.T) {
	manifests := loadManifestsFrom(t, managedUpgradeDir)
	deployment := only[*appsv1.Deployment](t, manifests)
	svc := only[*corev1.Service](t, manifests)
	sa := only[*corev1.ServiceAccount](t, manifests)
	secretName := informerCASecret(t, manifests)
	pod := deployment.Spec.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("found %d containers, want 1", len(pod.Containers))
	}
	c := pod.Containers[0]

	certDir := "/var/run/secrets/serving-cert"
	wantArgs := []string{
		"--namespace=" + managedUpgradeNamespace,
		"--listen=:8443",
		"--tls-cert-file=" + certDir + "/tls.crt",
		"--tls-private-key-file=" + certDir + "/tls.key",
	}
	listenPort := flagPort(t, c.Args, "--listen")

	var volumes []corev1.Volume
	for _, v := range pod.Volumes {
		if v.Secret != nil && v.Secret.SecretName == secretName {
			volumes = append(volumes, v)
		}
	}
	if len(volumes) != 1 {
		t.Fatalf("found %d volumes of Secret %s, the Service's serving certificate, want 1", len(volumes), secretName)
	}
	var mounts []corev1.VolumeMount
	for _, m := range c.VolumeMounts {
		if m.Name == volumes[0].Name {
			mounts = append(mounts, m)
		}
	}
	// The service CA writes tls.crt and tls.key: the flags must name them in
	// the mounted Secret.
	var certFiles []string
	for _, m := range mounts {
		certFiles = append(certFiles, path.Join(m.MountPath, "tls.crt"), path.Join(m.MountPath, "tls.key"))
	}

	if len(svc.Spec.Ports) != 1 {
		t.Fatalf("the Service has %d ports, want 1", len(svc.Spec.Ports))
	}
	servicePort := svc.Spec.Ports[0]
	containerPort := func(port intstr.IntOrString) int32 {
		if port.Type == intstr.Int {
			return port.IntVal
		}
		for _, p := range c.Ports {
			if p.Name == port.StrVal {
				return p.ContainerPort
			}
		}
		return 0
	}
	probe := func(p *corev1.Probe) any {
		if p == nil || p.HTTPGet == nil {
			return p
		}
		return []any{p.HTTPGet.Scheme, p.HTTPGet.Path, containerPort(p.HTTPGet.Port)}
	}
	wantProbe := []any{corev1.URISchemeHTTPS, protocol.DiscoveryPath, listenPort}

	for _, tc := range []struct {
		name      string
		got, want any
	}{
		{"command", c.Command, []string{"update-insights-operator", "informer", "managed-upgrade"}},
		{"args", c.Args, wantArgs},
		{"image", c.Image, referencedImage(t)},
		{"replicas", deployment.Spec.Replicas, ptr.To[int32](1)},
		{"service account", pod.ServiceAccountName, sa.Name},
		{"priority class", pod.PriorityClassName, "system-cluster-critical"},
		{"serving certificate mounts", mounts, []corev1.VolumeMount{{Name: volumes[0].Name, MountPath: certDir, ReadOnly: true}}},
		{"serving certificate files", certFiles, []string{flagValue(t, c.Args, "--tls-cert-file"), flagValue(t, c.Args, "--tls-private-key-file")}},
		{"container port of the Service's targetPort", containerPort(servicePort.TargetPort), listenPort},
		{"container ports", len(c.Ports), 1},
		{"Service port protocol", servicePort.Protocol, corev1.ProtocolTCP},
		{"Service selects the pods", labels.SelectorFromSet(svc.Spec.Selector).Matches(labels.Set(deployment.Spec.Template.Labels)) && len(svc.Spec.Selector) > 0, true},
		{"readiness probe", probe(c.ReadinessProbe), wantProbe},
		{"liveness probe", probe(c.LivenessProbe), wantProbe},
		{"pod security context", pod.SecurityContext, &corev1.PodSecurityContext{
			RunAsNonRoot:   ptr.To(true),
			SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
		}},
		{"container security context", c.SecurityContext, &corev1.SecurityContext{
			AllowPrivilegeEscalation: ptr.To(false),
			ReadOnlyRootFilesystem:   ptr.To(true),
			Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
		}},
		{"requests", !c.Resources.Requests.Cpu().IsZero() && !c.Resources.Requests.Memory().IsZero(), true},
		{"limits", len(c.Resources.Limits), 0},
		{"control plane node selector", pod.NodeSelector, map[string]string{"node-role.kubernetes.io/master": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.got); diff != "" {
				t.Errorf("%s differs (-want +got):\n%s", tc.name, diff)
			}
		})
	}
}

// The Deployment's command line is one the binary's informer command
// accepts: a flag renamed in the code, and not in the manifest, fails here
// rather than in a crash-looping pod.
func TestManagedUpgradeInformerArgsParse(t *testing.T) {
	c := only[*appsv1.Deployment](t, loadManifestsFrom(t, managedUpgradeDir)).Spec.Template.Spec.Containers[0]
	root := informer.NewCommand(context.Background(), clock.RealClock{})
	cmd, rest, err := root.Find(c.Command[2:])
	if err != nil || cmd == root || len(rest) != 0 {
		t.Fatalf("the command %v names no informer subcommand: %v", c.Command, err)
	}
	if err := cmd.ParseFlags(c.Args); err != nil {
		t.Fatalf("args %v: %v", c.Args, err)
	}
	if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
		t.Errorf("args %v: %v", c.Args, err)
	}
}

// flagValue returns the value of --name=value among args.
func flagValue(t *testing.T, args []string, name string) string {
	t.Helper()
	for _, a := range args {
		if value, ok := strings.CutPrefix(a, name+"="); ok {
			return value
		}
	}
	t.Fatalf("args %v do not set %s", args, name)
	return ""
}

// flagPort returns the port of the host:port flag name.
func flagPort(t *testing.T, args []string, name string) int32 {
	t.Helper()
	value := flagValue(t, args, name)
	_, port, err := net.SplitHostPort(value)
	if err != nil {
		t.Fatalf("%s=%s: %v", name, value, err)
	}
	n, err := strconv.ParseInt(port, 10, 32)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%s: the port is not a positive number", name, value)
	}
	return int32(n)
}

func TestManagedUpgradeUpdateInformerNamesTheService(t *testing.T) {
	manifests := loadManifestsFrom(t, managedUpgradeDir)
	informer := only[*insightsv1alpha1.UpdateInformer](t, manifests)
	svc := only[*corev1.Service](t, manifests)
	ref := informer.Spec.ClientConfig.Service
	if ref == nil {
		t.Fatalf("UpdateInformer %s names no Service", informer.Name)
	}
	if len(svc.Spec.Ports) != 1 {
		t.Fatalf("the Service has %d ports, want 1", len(svc.Spec.Ports))
	}
	port := int32(443)
	if ref.Port != nil {
		port = *ref.Port
	}
	for _, tc := range []struct {
		name      string
		got, want any
	}{
		{"service", []any{ref.Namespace, ref.Name, port}, []any{svc.Namespace, svc.Name, svc.Spec.Ports[0].Port}},
		{"url", informer.Spec.ClientConfig.URL, (*string)(nil)},
		// The operator copies the CA from the ConfigMap the service CA
		// fills, in the Service's namespace; a CA bundle written here would
		// be replaced.
		{"inject-ca annotation", informer.Annotations[insightsv1alpha1.InjectCAFromConfigMapAnnotation], svc.Namespace + "/" + informerCAConfigMap(t, manifests).Name},
		{"no Secret named", informer.Annotations[insightsv1alpha1.InjectCAFromSecretAnnotation], ""},
		{"caBundle", informer.Spec.ClientConfig.CABundle, []byte(nil)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.got); diff != "" {
				t.Errorf("UpdateInformer %s: %s differs (-want +got):\n%s", informer.Name, tc.name, diff)
			}
		})
	}
}

// Only the operator's pods may call the informer, on its serving port: the
// NetworkPolicy selects the informer's pods and admits the operator's, in
// the namespace both run in, as the Deployments label them.
func TestManagedUpgradeInformerAdmitsOnlyTheOperator(t *testing.T) {
	informerManifests := loadManifestsFrom(t, managedUpgradeDir)
	policy := only[*networkingv1.NetworkPolicy](t, informerManifests)
	informerDeployment := only[*appsv1.Deployment](t, informerManifests)
	operatorDeployment := named[*appsv1.Deployment](t, profileManifests(t, selfManagedHighAvailability), operatorDeploymentName)
	informerPods := labels.Set(informerDeployment.Spec.Template.Labels)
	operatorPods := labels.Set(operatorDeployment.Spec.Template.Labels)

	selects := func(what string, selector metav1.LabelSelector, pods labels.Set) bool {
		t.Helper()
		s, err := metav1.LabelSelectorAsSelector(&selector)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return !s.Empty() && s.Matches(pods)
	}
	if policy.Namespace != informerDeployment.Namespace || operatorDeployment.Namespace != informerDeployment.Namespace {
		t.Errorf("the policy is in %q, the informer in %q, the operator in %q: want one namespace", policy.Namespace, informerDeployment.Namespace, operatorDeployment.Namespace)
	}
	if !selects("the policy's pods", policy.Spec.PodSelector, informerPods) {
		t.Errorf("the policy selects %v, not the informer's pods %v", policy.Spec.PodSelector, informerPods)
	}
	if !slices.Contains(policy.Spec.PolicyTypes, networkingv1.PolicyTypeIngress) {
		t.Errorf("policy types %v, want Ingress", policy.Spec.PolicyTypes)
	}
	if len(policy.Spec.Ingress) != 1 {
		t.Fatalf("%d ingress rules, want one", len(policy.Spec.Ingress))
	}
	rule := policy.Spec.Ingress[0]
	if len(rule.From) != 1 {
		t.Fatalf("%d peers, want one: the operator's pods", len(rule.From))
	}
	peer := rule.From[0]
	if peer.NamespaceSelector != nil || peer.IPBlock != nil || peer.PodSelector == nil {
		t.Fatalf("peer %+v, want a pod selector alone, which admits pods of the policy's namespace only", peer)
	}
	if !selects("the admitted pods", *peer.PodSelector, operatorPods) {
		t.Errorf("the policy admits %v, not the operator's pods %v", peer.PodSelector, operatorPods)
	}
	if selects("the admitted pods", *peer.PodSelector, informerPods) {
		t.Errorf("the policy admits the informer's own pods %v", informerPods)
	}

	container := informerDeployment.Spec.Template.Spec.Containers[0]
	if len(rule.Ports) != 1 || rule.Ports[0].Port == nil {
		t.Fatalf("ports %+v, want the informer's serving port alone", rule.Ports)
	}
	port := *rule.Ports[0].Port
	admitted := port.IntVal
	if port.Type == intstr.String {
		admitted = 0
		for _, p := range container.Ports {
			if p.Name == port.StrVal {
				admitted = p.ContainerPort
			}
		}
	}
	if listening := flagPort(t, container.Args, "--listen"); admitted != listening {
		t.Errorf("the policy admits port %s (%d), want the port the informer listens on, %d", port.String(), admitted, listening)
	}
}
