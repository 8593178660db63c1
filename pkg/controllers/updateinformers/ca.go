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
	"k8s.io/klog/v2"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// caKey is the key of the CA in the Secret the annotation names, as
// cert-manager writes it.
const caKey = "ca.crt"

// injectCA copies the ca.crt of the Secret the informer's annotation names
// into its caBundle when it differs, and returns the informer as it should
// be called. The Secret is read with a GET at each sync, not watched: the
// operator may read only the Secrets informer authors let it read (a Role
// in their namespace), so it cannot watch Secrets cluster-wide, and the
// syncs come at least every --informer-interval for an informer with the
// annotation, so a rotated CA is picked up within it.
func (c *Controller) injectCA(ctx context.Context, informer *insightsv1alpha1.UpdateInformer) (*insightsv1alpha1.UpdateInformer, error) {
	ref, ok := informer.Annotations[insightsv1alpha1.InjectCAFromSecretAnnotation]
	if !ok {
		return informer, nil
	}
	namespace, name, ok := strings.Cut(ref, "/")
	if !ok || namespace == "" || name == "" || strings.Contains(name, "/") {
		return informer, unreachable("annotation %s: %q is not <namespace>/<name>", insightsv1alpha1.InjectCAFromSecretAnnotation, ref)
	}
	secret, err := c.secrets.Secrets(namespace).Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err) || apierrors.IsForbidden(err):
		// Forbidden: the informer's author has not let the operator read
		// it, which the message says.
		return informer, unreachable("cannot read the CA Secret %s/%s named by annotation %s: %v", namespace, name, insightsv1alpha1.InjectCAFromSecretAnnotation, err)
	case err != nil:
		return informer, err
	}
	ca := secret.Data[caKey]
	if len(ca) == 0 {
		// The service CA writes a serving certificate Secret without
		// ca.crt: its tls.crt is the serving certificate followed by the
		// service CA's.
		ca = authorities(secret.Data[corev1.TLSCertKey])
	}
	if len(ca) == 0 {
		return informer, unreachable("the CA Secret %s/%s has no %s, and no CA certificate in its %s", namespace, name, caKey, corev1.TLSCertKey)
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
		return informer, fmt.Errorf("injecting the CA of Secret %s/%s into UpdateInformer %s: %w", namespace, name, informer.Name, err)
	}
	klog.InfoS("Injected the CA of a Secret into an UpdateInformer", "informer", informer.Name, "secret", ref)
	return patched, nil
}

// authorities are the CA certificates of a PEM chain, in PEM.
func authorities(chain []byte) []byte {
	var out []byte
	for rest := chain; ; {
		var block *pem.Block
		if block, rest = pem.Decode(rest); block == nil {
			return out
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		if cert, err := x509.ParseCertificate(block.Bytes); err == nil && cert.BasicConstraintsValid && cert.IsCA {
			out = append(out, pem.EncodeToMemory(block)...)
		}
	}
}
