// Package servingcert holds a serving certificate read from a pair of files
// that the service CA writes, and reloads it when they change, for the
// servers the operator's binary runs besides the operator itself: the
// managed-upgrade informer and the console plugin's.
package servingcert

import (
	"context"
	"crypto/tls"
	"fmt"
	"sync/atomic"

	"k8s.io/apiserver/pkg/server/dynamiccertificates"
	"k8s.io/klog/v2"
)

// Certificate is the serving certificate of a pair of files, which Run
// reloads when they change (the service CA rotates it). The pair is parsed
// once per change, not at each handshake.
type Certificate struct {
	content *dynamiccertificates.DynamicCertKeyPairContent
	current atomic.Pointer[tls.Certificate]
}

// New reads the pair of files, and fails when they do not hold a valid pair.
func New(certFile, keyFile string) (*Certificate, error) {
	content, err := dynamiccertificates.NewDynamicServingContentFromFiles("serving-cert", certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("loading the serving certificate: %w", err)
	}
	c := &Certificate{content: content}
	if err := c.load(); err != nil {
		return nil, err
	}
	content.AddListener(c)
	return c, nil
}

// Run watches the files until ctx ends.
func (c *Certificate) Run(ctx context.Context) {
	c.content.Run(ctx, 1)
}

// GetCertificate is the current certificate, for tls.Config.
func (c *Certificate) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return c.current.Load(), nil
}

// Enqueue is called when the files hold a new, valid pair.
func (c *Certificate) Enqueue() {
	if err := c.load(); err != nil {
		klog.ErrorS(err, "Keeping the previous serving certificate")
	}
}

func (c *Certificate) load() error {
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
