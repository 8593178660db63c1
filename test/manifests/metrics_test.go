package manifests

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

const (
	// The service CA issues a certificate for a Service into the Secret this
	// annotation names.
	servingCertAnnotation = "service.beta.openshift.io/serving-cert-secret-name"
	// library-go's controllercmd serves with tls.crt and tls.key from this
	// directory, and with a self-signed certificate if they are missing.
	servingCertDir = "/var/run/secrets/serving-cert"
	// Platform monitoring scrapes only namespaces with this label.
	clusterMonitoringLabel = "openshift.io/cluster-monitoring"
)

// serviceMonitor holds the fields of a monitoring.coreos.com/v1
// ServiceMonitor the manifests use. It is decoded strictly, so a misspelt
// field fails the test; a field the manifest starts to use needs adding here.
type serviceMonitor struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Metadata   metav1.ObjectMeta `json:"metadata"`
	Spec       struct {
		Endpoints []struct {
			Port            string `json:"port"`
			Scheme          string `json:"scheme"`
			Interval        string `json:"interval"`
			Path            string `json:"path"`
			BearerTokenFile string `json:"bearerTokenFile"`
			TLSConfig       struct {
				CAFile     string `json:"caFile"`
				ServerName string `json:"serverName"`
			} `json:"tlsConfig"`
		} `json:"endpoints"`
		NamespaceSelector struct {
			MatchNames []string `json:"matchNames"`
		} `json:"namespaceSelector"`
		Selector metav1.LabelSelector `json:"selector"`
	} `json:"spec"`
}

// theServiceMonitor returns the one ServiceMonitor and the file it is in.
func theServiceMonitor(t *testing.T, manifests []manifest) (*serviceMonitor, string) {
	t.Helper()
	var found []manifest
	for _, m := range manifests {
		if u, ok := m.object.(*unstructured.Unstructured); ok && u.GroupVersionKind() == serviceMonitorKind {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		t.Fatalf("found %d ServiceMonitors, want 1", len(found))
	}
	// Strict and case-sensitive, as the API server decodes.
	var sm serviceMonitor
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(found[0].object.(*unstructured.Unstructured).Object, &sm, true); err != nil {
		t.Fatalf("%s: %v", found[0].file, err)
	}
	return &sm, found[0].file
}

func TestMetricsServiceSelectsTheOperatorsMetricsPort(t *testing.T) {
	manifests := profileManifests(t, selfManagedHighAvailability)
	svc := named[*corev1.Service](t, manifests, metricsService)
	deployment := named[*appsv1.Deployment](t, manifests, operatorDeploymentName)
	pod := deployment.Spec.Template

	t.Run("selector", func(t *testing.T) {
		if len(svc.Spec.Selector) == 0 {
			t.Fatal("the Service selects no pods")
		}
		if !labels.SelectorFromSet(svc.Spec.Selector).Matches(labels.Set(pod.Labels)) {
			t.Errorf("the Service's selector %v does not match the Deployment's pod labels %v", svc.Spec.Selector, pod.Labels)
		}
	})
	t.Run("type", func(t *testing.T) {
		if svc.Spec.Type != corev1.ServiceTypeClusterIP {
			t.Errorf("type = %q, want ClusterIP: only Prometheus, inside the cluster, scrapes it", svc.Spec.Type)
		}
	})
	if len(svc.Spec.Ports) == 0 {
		t.Fatal("the Service has no ports")
	}
	for _, port := range svc.Spec.Ports {
		t.Run("port "+port.Name, func(t *testing.T) {
			// A named target port follows the container port if its number
			// changes.
			if port.TargetPort.Type != intstr.String {
				t.Fatalf("targetPort %s is a number, want the name of a container port", port.TargetPort.String())
			}
			var containerPorts []corev1.ContainerPort
			for _, c := range pod.Spec.Containers {
				for _, p := range c.Ports {
					if p.Name == port.TargetPort.StrVal {
						containerPorts = append(containerPorts, p)
					}
				}
			}
			if len(containerPorts) != 1 {
				t.Fatalf("targetPort %q names %d container ports of the Deployment, want 1", port.TargetPort.StrVal, len(containerPorts))
			}
			if port.Protocol != containerPorts[0].Protocol {
				t.Errorf("protocol = %q, the container port's is %q", port.Protocol, containerPorts[0].Protocol)
			}
		})
	}
}

func TestMetricsAreServedWithTheServiceCACertificate(t *testing.T) {
	manifests := profileManifests(t, selfManagedHighAvailability)
	svc := named[*corev1.Service](t, manifests, metricsService)
	deployment := named[*appsv1.Deployment](t, manifests, operatorDeploymentName)
	pod := deployment.Spec.Template.Spec

	secretName := svc.Annotations[servingCertAnnotation]
	if secretName == "" {
		t.Fatalf("the Service lacks annotation %s, so the service CA issues it no certificate", servingCertAnnotation)
	}
	var volumes []corev1.Volume
	for _, v := range pod.Volumes {
		if v.Secret != nil && v.Secret.SecretName == secretName {
			volumes = append(volumes, v)
		}
	}
	if len(volumes) != 1 {
		t.Fatalf("found %d volumes of Secret %s, want 1", len(volumes), secretName)
	}
	volume := volumes[0]
	var mounts []corev1.VolumeMount
	for _, c := range pod.Containers {
		for _, m := range c.VolumeMounts {
			if m.Name == volume.Name {
				mounts = append(mounts, corev1.VolumeMount{Name: m.Name, MountPath: m.MountPath, ReadOnly: m.ReadOnly})
			}
		}
	}
	for _, tc := range []struct {
		name      string
		got, want any
	}{
		// The service CA issues the Secret only once the Service exists: the
		// pod must start without it.
		{"optional", volume.Secret.Optional, ptr.To(true)},
		{"mounts", mounts, []corev1.VolumeMount{{Name: volume.Name, MountPath: servingCertDir, ReadOnly: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.got); diff != "" {
				t.Errorf("serving certificate volume %s: %s differ (-want +got):\n%s", volume.Name, tc.name, diff)
			}
		})
	}
}

func TestServiceMonitorScrapesTheMetricsService(t *testing.T) {
	manifests := loadManifests(t)
	svc := named[*corev1.Service](t, manifests, metricsService)
	namespace := only[*corev1.Namespace](t, manifests)
	sm, file := theServiceMonitor(t, manifests)

	t.Run("runlevel", func(t *testing.T) {
		// The ServiceMonitor CRD comes with the monitoring stack.
		if !strings.HasPrefix(file, "0000_90_") {
			t.Errorf("%s is not at runlevel 90, after the monitoring stack", file)
		}
	})
	t.Run("namespace label", func(t *testing.T) {
		if namespace.Labels[clusterMonitoringLabel] != "true" {
			t.Errorf("namespace %s lacks label %s=\"true\", so platform monitoring ignores the ServiceMonitor", namespace.Name, clusterMonitoringLabel)
		}
	})
	t.Run("selector", func(t *testing.T) {
		selector, err := metav1.LabelSelectorAsSelector(&sm.Spec.Selector)
		if err != nil {
			t.Fatal(err)
		}
		if selector.Empty() || !selector.Matches(labels.Set(svc.Labels)) {
			t.Errorf("selector %v does not select the Service's labels %v", selector, svc.Labels)
		}
		if diff := cmp.Diff([]string{svc.Namespace}, sm.Spec.NamespaceSelector.MatchNames); diff != "" {
			t.Errorf("namespaceSelector.matchNames differ from the Service's namespace (-want +got):\n%s", diff)
		}
	})
	if len(sm.Spec.Endpoints) == 0 {
		t.Fatal("the ServiceMonitor has no endpoints")
	}
	for _, ep := range sm.Spec.Endpoints {
		t.Run("endpoint "+ep.Port, func(t *testing.T) {
			if !slices.ContainsFunc(svc.Spec.Ports, func(p corev1.ServicePort) bool { return p.Name == ep.Port }) {
				t.Errorf("port %q names no port of Service %s", ep.Port, svc.Name)
			}
			if interval, err := time.ParseDuration(ep.Interval); err != nil || interval <= 0 {
				t.Errorf("interval %q is not a positive duration", ep.Interval)
			}
			for _, tc := range []struct{ field, got, want string }{
				{"scheme", ep.Scheme, "https"},
				{"path", ep.Path, "/metrics"},
				// The operator's delegated authentication accepts the
				// token of Prometheus' service account.
				{"bearerTokenFile", ep.BearerTokenFile, "/var/run/secrets/kubernetes.io/serviceaccount/token"},
				// The service CA's bundle, which platform Prometheus
				// mounts, verifies the certificate issued for the Service,
				// whose name is the Service's DNS name.
				{"tlsConfig.caFile", ep.TLSConfig.CAFile, "/etc/prometheus/configmaps/serving-certs-ca-bundle/service-ca.crt"},
				{"tlsConfig.serverName", ep.TLSConfig.ServerName, svc.Name + "." + svc.Namespace + ".svc"},
			} {
				if tc.got != tc.want {
					t.Errorf("%s = %q, want %q", tc.field, tc.got, tc.want)
				}
			}
		})
	}
}
