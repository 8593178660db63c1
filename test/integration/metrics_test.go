package integration

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/rest"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// metricsClient is an HTTPS client of the operator's metrics endpoint that
// authenticates as the given configuration does.
func metricsClient(t testing.TB, op *operatorProcess, as *rest.Config) (*http.Client, string) {
	t.Helper()
	cfg := rest.CopyConfig(as)
	cfg.Host = "https://" + op.Address()
	// The operator serves a self-signed certificate when it has no
	// serving certificate of the cluster's.
	cfg.TLSClientConfig.Insecure = true
	cfg.TLSClientConfig.CAData, cfg.TLSClientConfig.CAFile = nil, ""
	client, err := rest.HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return client, cfg.Host + "/metrics"
}

// getMetrics polls url until it answers with want and, if want is 200, with
// the update metrics, and returns the body. The operator serves its endpoint
// from its start, loads the API server's client CA (which authenticates
// scrapers) a moment later, and registers the update metrics only once it
// leads.
func getMetrics(t testing.TB, client *http.Client, url string, want int) []byte {
	t.Helper()
	var body []byte
	var status string
	err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return false, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return false, nil // not listening yet
		}
		defer resp.Body.Close()
		if body, err = io.ReadAll(resp.Body); err != nil {
			return false, err
		}
		status = resp.Status
		if want == http.StatusOK && !strings.Contains(string(body), "update_insights_health_insights") {
			return false, nil
		}
		return resp.StatusCode == want, nil
	})
	if err != nil {
		t.Fatalf("GET %s did not answer %d: %v; last response: %s: %s", url, want, err, status, body)
	}
	return body
}

// scrape reads the operator's metrics endpoint as Prometheus does: over
// HTTPS, authenticated (here with the operator's own client certificate) and
// authorized by the API server.
func scrape(t testing.TB, op *operatorProcess) map[string]*dto.MetricFamily {
	t.Helper()
	client, url := metricsClient(t, op, operatorConfig)
	body := getMetrics(t, client, url, http.StatusOK)
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("parsing the metrics: %v", err)
	}
	return families
}

// tokenOf returns a token of a new service account in namespace.
func tokenOf(t testing.TB, namespace, name string) string {
	t.Helper()
	ctx := context.Background()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}
	if _, err := kubeClient.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if _, err := kubeClient.CoreV1().ServiceAccounts(namespace).Create(ctx, sa, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	token, err := kubeClient.CoreV1().ServiceAccounts(namespace).CreateToken(ctx, name, &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return token.Status.Token
}

// The platform Prometheus scrapes with its service account's token, which
// the operator has the API server authenticate, and which library-go's
// controllercmd authorizes for /metrics without any RBAC of ours; any other
// service account is refused.
func TestOnlyPrometheusMayScrapeTheMetrics(t *testing.T) {
	op := startOperator(t)
	for _, tc := range []struct {
		serviceAccount string
		want           int
	}{
		{"prometheus-k8s", http.StatusOK},
		{"someone-else", http.StatusForbidden},
	} {
		t.Run(tc.serviceAccount, func(t *testing.T) {
			client, url := metricsClient(t, op, &rest.Config{BearerToken: tokenOf(t, "openshift-monitoring", tc.serviceAccount)})
			getMetrics(t, client, url, tc.want)
		})
	}
}

// syncCounts are how many syncs of each controller were measured.
func syncCounts(families map[string]*dto.MetricFamily) map[string]uint64 {
	counts := map[string]uint64{}
	for _, m := range families["update_insights_controller_sync_duration_seconds"].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "controller" {
				counts[l.GetValue()] = m.GetHistogram().GetSampleCount()
			}
		}
	}
	return counts
}

// metricValues are the samples the test compares, by name and label values.
type metricValues map[string]float64

func gaugeValues(families map[string]*dto.MetricFamily, names ...string) metricValues {
	values := metricValues{}
	for _, name := range names {
		family, ok := families[name]
		if !ok {
			continue
		}
		for _, m := range family.GetMetric() {
			key := name
			for _, l := range m.GetLabel() {
				key += fmt.Sprintf(",%s=%s", l.GetName(), l.GetValue())
			}
			values[key] = m.GetGauge().GetValue()
		}
	}
	return values
}

// expectedValues are what the metrics must say of the insights as they are.
func expectedValues(t testing.TB, at time.Time) metricValues {
	t.Helper()
	ctx := context.Background()
	insight, err := insightsClient.InsightsV1alpha1().ClusterVersionProgressInsights().Get(ctx, "version", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	health, err := insightsClient.InsightsV1alpha1().UpdateHealthInsights().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := metricValues{
		"update_insights_control_plane_completion_ratio":                       float64(insight.Status.CompletionPercent) / 100,
		"update_insights_control_plane_estimated_completion_timestamp_seconds": float64(insight.Status.EstimatedCompletedAt.Unix()),
		"update_insights_control_plane_update_duration_seconds":                at.Sub(insight.Status.StartedAt.Time).Seconds(),
	}
	for _, level := range []insightsv1alpha1.InsightImpactLevel{
		insightsv1alpha1.UnknownImpactLevel, insightsv1alpha1.InfoImpactLevel, insightsv1alpha1.WarningImpactLevel,
		insightsv1alpha1.ErrorImpactLevel, insightsv1alpha1.CriticalImpactLevel,
	} {
		want["update_insights_health_insights,level="+string(level)] = 0
	}
	for _, i := range health.Items {
		want["update_insights_health_insights,level="+string(i.Status.Impact.Level)]++
	}
	return want
}

func TestMetricsMatchTheInsights(t *testing.T) {
	op := startOperator(t)
	createClusterOperators(t, map[string]string{"etcd": toVersion, "dns": fromVersion, "network": fromVersion, "console": fromVersion})
	createClusterVersion(t, nil, midUpdateStatus())
	setDegraded(t, "etcd", configv1.ConditionTrue, time.Now().Add(-41*time.Minute))
	waitForHealthInsights(t, "an Error", func(i []insightsv1alpha1.UpdateHealthInsight) bool {
		return len(i) == 1 && i[0].Status.Impact.Level == insightsv1alpha1.ErrorImpactLevel
	})
	waitForInsight(t, eventually, "not Healthy, with an estimate", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i != nil && len(i.Status.Conditions) > 1 && i.Status.Conditions[1].Status == metav1.ConditionFalse && i.Status.EstimatedCompletedAt != nil
	})

	// The insights may still change between a scrape and the reading that
	// checks it, and some controllers may not have synced yet; the two must
	// agree once they settle.
	names := []string{
		"update_insights_control_plane_completion_ratio",
		"update_insights_control_plane_estimated_completion_timestamp_seconds",
		"update_insights_control_plane_update_duration_seconds",
		"update_insights_health_insights",
	}
	// The duration is read at the scrape, a little before the test reads the
	// insights.
	approximately := cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) <= 2 })
	// The controllers with something to do in this cluster.
	wantSynced := map[string]bool{"ClusterVersion": true, "ClusterOperator": true, "OperatorStatus": true, "UpdateEvents": true, "UpdateStatus": true}
	var diff, syncDiff string
	var families map[string]*dto.MetricFamily
	err := wait.PollUntilContextTimeout(context.Background(), 500*time.Millisecond, eventually, true, func(context.Context) (bool, error) {
		families = scrape(t, op)
		diff = cmp.Diff(expectedValues(t, time.Now()), gaugeValues(families, names...), approximately)
		counts, synced := syncCounts(families), map[string]bool{}
		for controller := range wantSynced {
			synced[controller] = counts[controller] > 0
		}
		syncDiff = cmp.Diff(wantSynced, synced)
		return diff == "" && syncDiff == "", nil
	})
	if err != nil {
		t.Fatalf("the metrics do not match the insights (-insights +metrics):\n%s\nsyncs measured (-want +got):\n%s", diff, syncDiff)
	}
	if got := gaugeValues(families, "update_insights_health_insights")["update_insights_health_insights,level=Error"]; got < 1 {
		t.Errorf("%v Error health insights counted, want the degraded etcd's", got)
	}
	if _, ok := families["update_insights_controller_sync_errors_total"]; ok {
		t.Errorf("sync errors were counted in a run without failures: %v", families["update_insights_controller_sync_errors_total"])
	}
}
