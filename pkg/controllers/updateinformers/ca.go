package updateinformers

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	coreclient "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/klog/v2"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// The keys of the CA certificates: cert-manager's ca.crt in a Secret or a
// ConfigMap, and the service CA's service-ca.crt in a ConfigMap it fills.
const (
	caKey        = "ca.crt"
	serviceCAKey = "service-ca.crt"
)

// caSources are where the CAs the annotations name are read from.
type caSources interface {
	coreclient.SecretsGetter
	coreclient.ConfigMapsGetter
}

// caSource is the Secret or ConfigMap an informer's annotation names.
type caSource struct {
	annotation, kind, namespace, name string
}

func (s caSource) String() string { return s.kind + " " + s.namespace + "/" + s.name }

// caSourceOf is the CA source an informer's annotations name, if any.
// Whoever may create UpdateInformers must not read, through the operator,
// what they could not read themselves: a Secret is named only by an
// informer given by service, in its Service's namespace (whose author runs
// the informer there), and so is a ConfigMap; an informer given by url
// names its CA in caBundle, or in a ConfigMap of any namespace, whose CA
// certificates only are copied, as anyone may see them on the wire.
func caSourceOf(informer *insightsv1alpha1.UpdateInformer) (caSource, bool, error) {
	secretRef, fromSecret := informer.Annotations[insightsv1alpha1.InjectCAFromSecretAnnotation]
	configMapRef, fromConfigMap := informer.Annotations[insightsv1alpha1.InjectCAFromConfigMapAnnotation]
	var s caSource
	switch {
	case fromSecret && fromConfigMap:
		return s, false, unreachable("annotations %s and %s: name one CA source, not both",
			insightsv1alpha1.InjectCAFromSecretAnnotation, insightsv1alpha1.InjectCAFromConfigMapAnnotation)
	case fromSecret:
		s = caSource{annotation: insightsv1alpha1.InjectCAFromSecretAnnotation, kind: "Secret"}
		s.namespace, s.name = splitRef(secretRef)
	case fromConfigMap:
		s = caSource{annotation: insightsv1alpha1.InjectCAFromConfigMapAnnotation, kind: "ConfigMap"}
		s.namespace, s.name = splitRef(configMapRef)
	default:
		return s, false, nil
	}
	if s.namespace == "" || s.name == "" {
		return s, false, unreachable("annotation %s: %q is not <namespace>/<name>", s.annotation, informer.Annotations[s.annotation])
	}
	service := informer.Spec.ClientConfig.Service
	switch {
	case service == nil && fromSecret:
		return s, false, unreachable("annotation %s: an informer given by url names its CA in caBundle, or a ConfigMap with annotation %s, not a Secret",
			s.annotation, insightsv1alpha1.InjectCAFromConfigMapAnnotation)
	case service != nil && s.namespace != service.Namespace:
		return s, false, unreachable("annotation %s: the %s must be in the namespace of the informer's Service, %s, not %s",
			s.annotation, s.kind, service.Namespace, s.namespace)
	}
	return s, true, nil
}

func splitRef(ref string) (namespace, name string) {
	namespace, name, ok := strings.Cut(ref, "/")
	if !ok || strings.Contains(name, "/") {
		return "", ""
	}
	return namespace, name
}

// injectCA copies the CA certificates of the Secret or ConfigMap the
// informer's annotation names into its caBundle when they differ, and
// returns the informer as it should be called. The source is read with a
// GET at each sync, not watched: the operator may read only what informer
// authors let it read (a Role in their namespace), so it cannot watch
// cluster-wide, and the syncs come at least every --informer-interval for
// an informer with the annotation, so a rotated CA is picked up within it.
func (c *Controller) injectCA(ctx context.Context, informer *insightsv1alpha1.UpdateInformer) (*insightsv1alpha1.UpdateInformer, error) {
	source, ok, err := caSourceOf(informer)
	if !ok {
		return informer, err
	}
	var candidates [][]byte
	if source.kind == "Secret" {
		secret, err := c.caSources.Secrets(source.namespace).Get(ctx, source.name, metav1.GetOptions{})
		if err != nil {
			return informer, readError(source, err)
		}
		// The service CA writes a serving certificate Secret without
		// ca.crt: its tls.crt is the serving certificate followed by the
		// service CA's.
		candidates = [][]byte{secret.Data[caKey], secret.Data[corev1.TLSCertKey]}
	} else {
		configMap, err := c.caSources.ConfigMaps(source.namespace).Get(ctx, source.name, metav1.GetOptions{})
		if err != nil {
			return informer, readError(source, err)
		}
		candidates = [][]byte{[]byte(configMap.Data[serviceCAKey]), []byte(configMap.Data[caKey])}
	}
	var ca []byte
	for _, c := range candidates {
		if ca = authorities(c); len(ca) > 0 {
			break
		}
	}
	if len(ca) == 0 {
		return informer, unreachable("the CA %s holds no PEM CA certificate (in %s)", source, caKeys(source.kind))
	}
	if bytes.Equal(ca, informer.Spec.ClientConfig.CABundle) {
		return informer, nil
	}
	patch, err := json.Marshal(map[string]any{"spec": map[string]any{"clientConfig": map[string]any{"caBundle": ca}}})
	if err != nil {
		return informer, err
	}
	patched, err := c.client.UpdateInformers().Patch(ctx, informer.Name, types.MergePatchType, patch, metav1.PatchOptions{})
	if err != nil {
		return informer, fmt.Errorf("injecting the CA of %s into UpdateInformer %s: %w", source, informer.Name, err)
	}
	klog.InfoS("Injected a CA into an UpdateInformer", "informer", informer.Name, "source", source.String())
	return patched, nil
}

func caKeys(kind string) string {
	if kind == "Secret" {
		return caKey + " or " + corev1.TLSCertKey
	}
	return serviceCAKey + " or " + caKey
}

// readError says why the CA source could not be read. Not found or
// forbidden (its author has not let the operator read it) leave the
// informer unreachable, which the message says.
func readError(source caSource, err error) error {
	if apierrors.IsNotFound(err) || apierrors.IsForbidden(err) {
		return unreachable("cannot read the CA %s named by annotation %s: %v", source, source.annotation, err)
	}
	return err
}

// authorities are the CA certificates of PEM data, re-encoded from the
// parsed certificates: nothing else of the data (other blocks, headers,
// bytes between blocks, a private key) is ever copied.
func authorities(data []byte) []byte {
	var out []byte
	for rest := data; ; {
		var block *pem.Block
		if block, rest = pem.Decode(rest); block == nil {
			return out
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		if cert, err := x509.ParseCertificate(block.Bytes); err == nil && cert.BasicConstraintsValid && cert.IsCA {
			out = append(out, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw})...)
		}
	}
}
