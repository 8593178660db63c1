package informer

import (
	"context"
	"crypto/tls"
	"fmt"
	"sync/atomic"

	"k8s.io/apiserver/pkg/server/dynamiccertificates"
	"k8s.io/klog/v2"
)

// servingCertificate is the serving certificate of a pair of files, which
// Run reloads when they change (the service CA rotates it). The pair is
// parsed once per change, not at each handshake.
type servingCertificate struct {
	content *dynamiccertificates.DynamicCertKeyPairContent
	current atomic.Pointer[tls.Certificate]
}

func newServingCertificate(certFile, keyFile string) (*servingCertificate, error) {
	content, err := dynamiccertificates.NewDynamicServingContentFromFiles("serving-cert", certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("loading the serving certificate: %w", err)
	}
	c := &servingCertificate{content: content}
	if err := c.load(); err != nil {
		return nil, err
	}
	content.AddListener(c)
	return c, nil
}

// Run watches the files until ctx ends.
func (c *servingCertificate) Run(ctx context.Context) {
	c.content.Run(ctx, 1)
}

// GetCertificate is the current certificate, for tls.Config.
func (c *servingCertificate) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return c.current.Load(), nil
}

// Enqueue is called when the files hold a new, valid pair.
func (c *servingCertificate) Enqueue() {
	if err := c.load(); err != nil {
		klog.ErrorS(err, "Keeping the previous serving certificate")
	}
}

func (c *servingCertificate) load() error {
	certPEM, keyPEM := c.content.CurrentCertKeyContent()
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return fmt.Errorf("parsing the serving certificate: %w", err)
	}
	c.current.Store(&pair)
	leaf := pair.Leaf
	klog.InfoS("Serving certificate loaded", "subject", leaf.Subject.String(), "serial", leaf.SerialNumber.String(),
		"notBefore", leaf.NotBefore, "notAfter", leaf.NotAfter)
	return nil
}
