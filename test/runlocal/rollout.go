package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/metrics"
)

// operatorMetrics reads the operator's metrics endpoint, as Prometheus
// scrapes it: over HTTPS (the operator's certificate is self-signed here),
// authenticated as the local cluster's administrator.
type operatorMetrics struct {
	client *http.Client
	url    string
}

func newOperatorMetrics(cfg *rest.Config, address string) (*operatorMetrics, error) {
	cfg = rest.CopyConfig(cfg)
	cfg.Host = "https://" + address
	cfg.TLSClientConfig.Insecure = true
	cfg.TLSClientConfig.CAData, cfg.TLSClientConfig.CAFile = nil, ""
	client, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, err
	}
	return &operatorMetrics{client: client, url: cfg.Host + "/metrics"}, nil
}

// gauge is the value of a gauge without labels.
func (m *operatorMetrics) gauge(ctx context.Context, name string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, m.url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := m.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s: %s", m.url, resp.Status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		return 0, fmt.Errorf("parsing %s: %w", m.url, err)
	}
	family, ok := families[name]
	if !ok || len(family.GetMetric()) != 1 {
		return 0, fmt.Errorf("%s does not serve one %s", m.url, name)
	}
	return family.GetMetric()[0].GetGauge().GetValue(), nil
}

// rolloutsShown are the configuration rollouts the pools' insights show,
// one line a pool, and the fleet gauge of rollouts in progress: after a
// played update, whose nodes reach their pools' configurations, none is
// left.
func rolloutsShown(ctx context.Context, c *clients, m *operatorMetrics) ([]string, error) {
	pools, err := c.insights.InsightsV1alpha1().MachineConfigPoolProgressInsights().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var shown []string
	for _, p := range pools.Items {
		updating := meta.FindStatusCondition(p.Status.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightUpdating)
		if updating != nil && updating.Reason == insightsv1alpha1.MachineConfigPoolRollingOutConfiguration {
			shown = append(shown, fmt.Sprintf("pool %s: %s", p.Status.Name, updating.Message))
		}
	}
	inProgress, err := m.gauge(ctx, metrics.ConfigRolloutInProgressMetric)
	if err != nil {
		return nil, err
	}
	if inProgress != 0 {
		shown = append(shown, fmt.Sprintf("%s %g", metrics.ConfigRolloutInProgressMetric, inProgress))
	}
	return shown, nil
}

// waitForNoRollout waits until neither the pools' insights nor the fleet
// gauge show a configuration rollout, at most timeout, and returns what
// they still show.
func waitForNoRollout(ctx context.Context, c *clients, m *operatorMetrics, timeout time.Duration) ([]string, error) {
	deadline := time.Now().Add(timeout)
	for {
		shown, err := rolloutsShown(ctx, c, m)
		if err == nil && len(shown) == 0 || time.Now().After(deadline) || !sleep(ctx, time.Second) {
			return shown, err
		}
	}
}
