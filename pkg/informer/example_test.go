package informer_test

import (
	"context"
	"encoding/pem"
	"fmt"
	"net/http/httptest"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/informer"
	"github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

// drainWatcher is an informer of the update in progress: it reports the
// nodes whose drain is slow.
type drainWatcher struct {
	slowNodes func() []string
}

func (d drainWatcher) StatusInsights(ctx context.Context, req *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error) {
	now := metav1.Now()
	resp := &protocol.UpdateInsightsResponse{}
	for _, node := range d.slowNodes() {
		resp.Spec.Insights = append(resp.Spec.Insights, protocol.Insight{
			// The same UID for as long as the node drains slowly.
			UID:             "slow-drain-" + node,
			AcquisitionTime: &now,
			Scope: protocol.Scope{
				Type:      protocol.ScopeWorkerPool,
				Resources: []protocol.Resource{{Kind: "Node", Name: node}},
			},
			Impact: protocol.Impact{
				Level:   protocol.LevelWarning,
				Type:    protocol.ImpactUpdateSpeed,
				Summary: fmt.Sprintf("Node %s drains slowly", node),
			},
			Remediation: protocol.Remediation{EstimatedFinish: "15m"},
		})
	}
	return resp, nil
}

// In a pod: serve on :8443 with the Service's serving certificate until the
// context ends.
func ExampleNewServer() {
	watcher := drainWatcher{slowNodes: func() []string { return []string{"worker-1"} }}
	server, err := informer.NewServer(watcher,
		informer.WithCertificateFiles("/etc/tls/tls.crt", "/etc/tls/tls.key"),
		informer.WithTimeout(protocol.HandlerStatus, 5*time.Second))
	if err != nil {
		panic(err)
	}
	if err := server.ListenAndServe(context.Background(), ":8443"); err != nil {
		panic(err)
	}
}

// In a test: the handler, served by httptest, called as the operator calls
// it.
func ExampleNewHandler() {
	watcher := drainWatcher{slowNodes: func() []string { return []string{"worker-1"} }}
	handler, err := informer.NewHandler(watcher, informer.WithTimeout(protocol.HandlerStatus, 5*time.Second))
	if err != nil {
		panic(err)
	}
	test := httptest.NewTLSServer(handler)
	defer test.Close()
	c, err := client.New(client.Config{
		URL:      test.URL,
		CABundle: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: test.Certificate().Raw}),
	})
	if err != nil {
		panic(err)
	}
	defer c.Close()

	discovery, err := c.Discover(context.Background())
	if err != nil {
		panic(err)
	}
	status, _ := discovery.Handler(protocol.HandlerStatus)
	fmt.Printf("handles %s within %s\n", status.Name, status.Timeout())

	resp, err := c.StatusInsights(context.Background(), &protocol.UpdateInsightsRequest{}, status.Timeout())
	if err != nil {
		panic(err)
	}
	for _, insight := range resp.Spec.Insights {
		fmt.Printf("%s: %s\n", protocol.Identity("drain-watcher", insight), insight.Impact.Summary)
	}
	// Output:
	// handles status within 5s
	// drain-watcher/WorkerPool/Node/worker-1/slow-drain-worker-1: Node worker-1 drains slowly
}
