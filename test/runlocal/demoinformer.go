package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/openshift/library-go/pkg/crypto"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

// The demonstration informer's name, its one status insight, which the
// check looks for in UpdateStatus, and its one plan finding, which the
// check looks for in an UpdatePlan.
const (
	demoInformerName   = "demo-informer"
	demoInsightUID     = "demo-informer-slow-mirror"
	demoPlanFindingUID = "demo-informer-mirror-missing-release"
)

// demoInformer is an UpdateInformer served beside the operator, as a
// component outside the cluster would serve one: it answers Wait to the
// first status call, as an informer still building its data does, and
// Success with one warning after that. Asked about an update it plans, it
// answers one warning: the mirror registry does not hold the target
// release's images yet.
type demoInformer struct {
	learned metav1.Time

	mu    sync.Mutex
	calls int

	addr    string
	stopped chan struct{}
	stop    context.CancelFunc
}

// StatusInsights is the informer's answer to the operator.
func (d *demoInformer) StatusInsights(_ context.Context, req *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error) {
	d.mu.Lock()
	d.calls++
	first := d.calls == 1
	d.mu.Unlock()
	if first {
		return &protocol.UpdateInsightsResponse{Status: protocol.ResponseStatus{
			Response: protocol.ResponseWait, Message: "still measuring the mirror registry"}}, nil
	}
	if req.Spec.TargetControlPlaneVersion == req.Spec.ControlPlaneVersion {
		// No update is pending: how fast the registry serves a release's
		// images matters to none.
		return &protocol.UpdateInsightsResponse{}, nil
	}
	return &protocol.UpdateInsightsResponse{Spec: protocol.ResponseSpec{Insights: []protocol.Insight{{
		UID:             demoInsightUID,
		AcquisitionTime: &d.learned,
		Scope: protocol.Scope{Type: protocol.ScopeControlPlane, Resources: []protocol.Resource{
			{Group: "config.openshift.io", Kind: "ClusterVersion", Name: "version"}}},
		Impact: protocol.Impact{
			Level:   protocol.LevelWarning,
			Type:    protocol.ImpactUpdateSpeed,
			Summary: "Demonstration informer: the mirror registry serves the release images slowly",
			Description: "Pulls of the target release's images from the mirror registry took 4 times as long as in the last update. " +
				"Nodes will take longer to update; check the registry's load and network before the worker pools update.",
		},
		Remediation: protocol.Remediation{
			Reference: "https://github.com/update-insights/update-insights-operator/blob/main/docs/informers.md#writing-and-registering-an-informer",
		},
	}}}}, nil
}

// PlanInsights is the informer's answer about an update to the plan's
// target release. The finding's uid does not depend on the target: an
// UpdatePlan is for one release, and its acceptance must survive a new
// evaluation.
func (d *demoInformer) PlanInsights(_ context.Context, req *protocol.UpdatePlanInsightsRequest) (*protocol.UpdatePlanInsightsResponse, error) {
	target := req.Spec.TargetControlPlaneVersion
	return &protocol.UpdatePlanInsightsResponse{Spec: protocol.ResponseSpec{Insights: []protocol.Insight{demoPlanFinding(target, d.learned)}}}, nil
}

// demoPlanFinding is the demonstration informer's finding about an update to
// target.
func demoPlanFinding(target string, learned metav1.Time) protocol.Insight {
	return protocol.Insight{
		UID:             demoPlanFindingUID,
		AcquisitionTime: &learned,
		Scope: protocol.Scope{Type: protocol.ScopeControlPlane, Resources: []protocol.Resource{
			{Group: "config.openshift.io", Kind: "ClusterVersion", Name: "version"}}},
		Impact: protocol.Impact{
			Level:   protocol.LevelWarning,
			Type:    protocol.ImpactUpdateStalled,
			Summary: fmt.Sprintf("Demonstration informer: the mirror registry does not hold the images of %s yet", target),
			Description: fmt.Sprintf("The cluster pulls its release images from a mirror registry, which holds none of the images of %s yet. "+
				"Started now, the update would stall pulling them; mirror the release (oc adm release mirror, or oc-mirror) first, "+
				"or accept this finding if the mirror will be filled before the nodes pull.", target),
		},
		Remediation: protocol.Remediation{
			Reference: "https://docs.openshift.com/container-platform/latest/disconnected/mirroring/index.html",
		},
	}
}

// statusCalls is how many status calls the informer has answered.
func (d *demoInformer) statusCalls() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.calls
}

// startDemoInformer serves the informer over HTTPS on a loopback port, with
// a serving certificate of a CA made for this run, and registers it with an
// UpdateInformer whose caBundle is that CA: the operator verifies it as any
// informer's.
func startDemoInformer(ctx context.Context, c *clients) (*demoInformer, error) {
	certPEM, keyPEM, caPEM, err := servingCertificate("run-local demonstration informer CA")
	if err != nil {
		return nil, err
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, err
	}

	d := &demoInformer{learned: metav1.Now(), stopped: make(chan struct{})}
	server, err := informer.NewServer(d, informer.WithTLSConfig(&tls.Config{Certificates: []tls.Certificate{cert}}))
	if err != nil {
		return nil, err
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	d.addr = listener.Addr().String()
	serveCtx, stop := context.WithCancel(context.Background())
	d.stop = stop
	go func() {
		defer close(d.stopped)
		if err := server.Serve(serveCtx, listener); err != nil {
			say("demonstration informer: %v", err)
		}
	}()

	if err := registerInformer(ctx, c, demoInformerName, "https://"+d.addr, caPEM); err != nil {
		d.close()
		return nil, fmt.Errorf("registering the demonstration informer: %w", err)
	}
	return d, nil
}

// registerInformer creates the UpdateInformer of an informer served at url
// with a certificate of the CA caPEM.
func registerInformer(ctx context.Context, c *clients, name, url string, caPEM []byte) error {
	registration := &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: insightsv1alpha1.UpdateInformerSpec{
			Enabled:      ptr.To(true),
			ClientConfig: insightsv1alpha1.InformerClientConfig{URL: &url, CABundle: caPEM},
		},
	}
	_, err := c.insights.InsightsV1alpha1().UpdateInformers().Create(ctx, registration, metav1.CreateOptions{})
	return err
}

// servingCertificate makes a CA for this run, named caName, and a serving
// certificate it signs for 127.0.0.1: an informer on loopback serves with
// the certificate, and its UpdateInformer's caBundle is the CA, so that the
// operator verifies it as any informer's.
func servingCertificate(caName string) (certPEM, keyPEM, caPEM []byte, err error) {
	caConfig, err := crypto.MakeSelfSignedCAConfigForDuration(caName, 24*time.Hour)
	if err != nil {
		return nil, nil, nil, err
	}
	ca := &crypto.CA{Config: caConfig, SerialGenerator: &crypto.RandomSerialGenerator{}}
	serving, err := ca.MakeServerCertForDuration(sets.New("127.0.0.1"), 24*time.Hour)
	if err != nil {
		return nil, nil, nil, err
	}
	if certPEM, keyPEM, err = serving.GetPEMBytes(); err != nil {
		return nil, nil, nil, err
	}
	if caPEM, _, err = caConfig.GetPEMBytes(); err != nil {
		return nil, nil, nil, err
	}
	return certPEM, keyPEM, caPEM, nil
}

// close stops serving, letting a call in flight finish.
func (d *demoInformer) close() {
	d.stop()
	<-d.stopped
}
