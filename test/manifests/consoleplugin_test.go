package manifests

import (
	"context"
	"encoding/json"
	"os"
	"path"
	"slices"
	"testing"

	consolev1 "github.com/openshift/api/console/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/update-insights/update-insights-operator/pkg/cmd/serveplugin"
	"github.com/update-insights/update-insights-operator/pkg/consoleplugin"
	pluginenabler "github.com/update-insights/update-insights-operator/pkg/controllers/consoleplugin"
)

const (
	// consolePluginName names the ConsolePlugin, its Service, Deployment
	// and ServiceAccount.
	consolePluginName = pluginenabler.PluginName
	// capabilityAnnotation has the CVO apply a manifest only on clusters
	// with that capability.
	capabilityAnnotation = "capability.openshift.io/name"
)

// pluginPackageName is the plugin's name as its build writes it into
// plugin-manifest.json (console-plugin/package.json consolePlugin.name):
// the console loads a plugin whose manifest names the ConsolePlugin.
func pluginPackageName(t *testing.T) string {
	t.Helper()
	content, err := os.ReadFile("../../console-plugin/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		ConsolePlugin struct {
			Name string `json:"name"`
		} `json:"consolePlugin"`
	}
	if err := json.Unmarshal(content, &pkg); err != nil {
		t.Fatal(err)
	}
	return pkg.ConsolePlugin.Name
}

// The ConsolePlugin names the plugin's Service, which selects the serving
// Deployment's pods, on the port its container serves, with the certificate
// the service CA issues into the Secret the container reads.
func TestTheConsolePluginIsServedOverTheServiceCAsTLS(t *testing.T) {
	manifests := profileManifests(t, selfManagedHighAvailability)
	plugin := named[*consolev1.ConsolePlugin](t, manifests, consolePluginName)
	svc := named[*corev1.Service](t, manifests, consolePluginName)
	deployment := named[*appsv1.Deployment](t, manifests, consolePluginName)

	if name := pluginPackageName(t); plugin.Name != name {
		t.Errorf("ConsolePlugin %s, but the plugin's build is named %s", plugin.Name, name)
	}
	backend := plugin.Spec.Backend
	if backend.Type != consolev1.Service || backend.Service == nil {
		t.Fatalf("the ConsolePlugin's backend %+v is not a Service", backend)
	}
	if backend.Service.Name != svc.Name || backend.Service.Namespace != svc.Namespace {
		t.Errorf("the ConsolePlugin names Service %s/%s, want %s/%s", backend.Service.Namespace, backend.Service.Name, svc.Namespace, svc.Name)
	}
	if backend.Service.BasePath != "/" {
		t.Errorf("basePath %q, want / (the bundle is served at the root)", backend.Service.BasePath)
	}
	if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].Port != backend.Service.Port {
		t.Fatalf("Service ports %+v, want one, the ConsolePlugin's %d", svc.Spec.Ports, backend.Service.Port)
	}

	pod := deployment.Spec.Template.Spec
	if !labels.SelectorFromSet(svc.Spec.Selector).Matches(labels.Set(deployment.Spec.Template.Labels)) || len(svc.Spec.Selector) == 0 {
		t.Errorf("the Service's selector %v does not select the plugin's pods %v", svc.Spec.Selector, deployment.Spec.Template.Labels)
	}
	c := pod.Containers[0]
	if want := []string{"update-insights-operator", "serve-console-plugin"}; !slices.Equal(c.Command, want) {
		t.Errorf("command %v, want %v", c.Command, want)
	}
	port := slices.IndexFunc(c.Ports, func(p corev1.ContainerPort) bool { return p.Name == svc.Spec.Ports[0].TargetPort.StrVal })
	if port < 0 {
		t.Fatalf("the Service's targetPort %q is no port of the container's %+v", svc.Spec.Ports[0].TargetPort.String(), c.Ports)
	}
	if listen := flagPort(t, c.Args, "--listen"); c.Ports[port].ContainerPort != listen {
		t.Errorf("the container's port %d is not the one it listens on, %d", c.Ports[port].ContainerPort, listen)
	}

	secret := svc.Annotations[servingCertAnnotation]
	if secret == "" {
		t.Fatalf("the Service has no %s annotation: the service CA issues it no certificate", servingCertAnnotation)
	}
	volume := slices.IndexFunc(pod.Volumes, func(v corev1.Volume) bool { return v.Secret != nil && v.Secret.SecretName == secret })
	if volume < 0 {
		t.Fatalf("no volume of Secret %s, where the service CA writes the certificate", secret)
	}
	mount := slices.IndexFunc(c.VolumeMounts, func(m corev1.VolumeMount) bool { return m.Name == pod.Volumes[volume].Name })
	if mount < 0 {
		t.Fatalf("the container does not mount the certificate's volume %s", pod.Volumes[volume].Name)
	}
	dir := c.VolumeMounts[mount].MountPath
	for flag, file := range map[string]string{"--tls-cert-file": "tls.crt", "--tls-private-key-file": "tls.key"} {
		if got := flagValue(t, c.Args, flag); got != path.Join(dir, file) {
			t.Errorf("%s=%s, want the service CA's %s", flag, got, path.Join(dir, file))
		}
	}

	probe := c.ReadinessProbe
	if probe == nil || probe.HTTPGet == nil || probe.HTTPGet.Path != "/"+consoleplugin.ManifestFile ||
		probe.HTTPGet.Scheme != corev1.URISchemeHTTPS || probe.HTTPGet.Port.StrVal != c.Ports[port].Name {
		t.Errorf("readiness probe %+v does not get the plugin's manifest over HTTPS on the served port", probe)
	}
}

// The serving container's command line is one serve-console-plugin parses.
func TestTheConsolePluginServerArgsParse(t *testing.T) {
	c := named[*appsv1.Deployment](t, profileManifests(t, selfManagedHighAvailability), consolePluginName).Spec.Template.Spec.Containers[0]
	cmd := serveplugin.NewCommand(context.Background())
	if err := cmd.ParseFlags(c.Args); err != nil {
		t.Fatalf("args %v: %v", c.Args, err)
	}
	if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
		t.Errorf("args %v: %v", c.Args, err)
	}
}

// The plugin's server reads only the APIServer's TLS security profile: its
// ServiceAccount is bound to its own ClusterRole alone (whose rules
// TestRBACGrantsOnlyTheAllowedRules holds), and its token is mounted for
// that. Without the Console capability the CVO applies none of the
// plugin's manifests: the ConsolePlugin's CRD is that capability's.
func TestTheConsolePluginServerReadsOnlyTheTLSProfileAndNeedsTheConsole(t *testing.T) {
	manifests := profileManifests(t, selfManagedHighAvailability)
	sa := named[*corev1.ServiceAccount](t, manifests, consolePluginName)
	deployment := named[*appsv1.Deployment](t, manifests, consolePluginName)
	if deployment.Spec.Template.Spec.ServiceAccountName != sa.Name {
		t.Errorf("the plugin's pods run as %q, want their own %q", deployment.Spec.Template.Spec.ServiceAccountName, sa.Name)
	}
	if a := deployment.Spec.Template.Spec.AutomountServiceAccountToken; a == nil || !*a {
		t.Errorf("the plugin's pods mount no token (automountServiceAccountToken %v): the server could not read the TLS security profile", a)
	}
	if a := sa.AutomountServiceAccountToken; a != nil && !*a {
		t.Errorf("the plugin's ServiceAccount forbids mounting its token")
	}
	var bound []roleKey
	for _, m := range manifests {
		if role, subjects, ok := bindingOf(m.object); ok {
			for _, s := range subjects {
				if s.Kind == "ServiceAccount" && s.Name == sa.Name {
					bound = append(bound, role)
				}
			}
		}
	}
	if want := []roleKey{{"ClusterRole", "", consolePluginName}}; !slices.Equal(want, bound) {
		t.Errorf("the roles bound to the plugin's ServiceAccount: %v, want %v", bound, want)
	}
	for _, m := range manifests {
		meta := m.object.(interface {
			GetName() string
			GetAnnotations() map[string]string
		})
		isPlugin := meta.GetName() == consolePluginName
		if got := meta.GetAnnotations()[capabilityAnnotation]; isPlugin != (got == "Console") {
			t.Errorf("%s: %s=%q; want Console on the plugin's objects only", m.file, capabilityAnnotation, got)
		}
	}
}
