package integration

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// BenchmarkReactionTime measures, against a local API server with the
// operator running, how long it takes from a ClusterOperator reporting a new
// version to a watcher seeing the insight's new completionPercent. Each
// latency includes the benchmark's own write of the ClusterOperator. It
// reports the median and the worst case.
//
//	make measure
func BenchmarkReactionTime(b *testing.B) {
	startOperator(b)
	const operators = 33
	versions := map[string]string{}
	for i := 0; i < operators; i++ {
		versions[fmt.Sprintf("operator-%02d", i)] = fromVersion
	}
	createClusterOperators(b, versions)
	createClusterVersion(b, nil, midUpdateStatus())
	waitForInsight(b, 30*time.Second, "present", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i != nil && i.Status.CompletionPercent == 0
	})

	ctx := context.Background()
	w, err := insightsClient.InsightsV1alpha1().ClusterVersionProgressInsights().Watch(ctx, metav1.ListOptions{
		FieldSelector: fields.OneTermEqualSelector("metadata.name", "version").String(),
	})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Stop()

	latencies := make([]time.Duration, 0, b.N)
	updated := 0
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		// Walk operators to the target one by one, then back, and so on.
		i, version := updated, toVersion
		if (n/operators)%2 == 1 {
			i, version = updated-1, fromVersion
		}
		name := fmt.Sprintf("operator-%02d", i)
		co, err := configClient.ConfigV1().ClusterOperators().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if version == toVersion {
			updated++
		} else {
			updated--
		}
		want := int32(updated * 100 / operators)

		start := time.Now()
		setOperatorVersion(b, co, version)
		if err := waitForCompletion(w, want, 10*time.Second); err != nil {
			b.Fatal(err)
		}
		latencies = append(latencies, time.Since(start))
	}
	b.StopTimer()

	slices.Sort(latencies)
	b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(latencies[len(latencies)-1].Microseconds())/1000, "max-ms")
}

func waitForCompletion(w watch.Interface, want int32, timeout time.Duration) error {
	deadline := time.After(timeout)
	for {
		select {
		case e, ok := <-w.ResultChan():
			if !ok {
				return fmt.Errorf("the watch closed")
			}
			if i, ok := e.Object.(*insightsv1alpha1.ClusterVersionProgressInsight); ok && i.Status.CompletionPercent == want {
				return nil
			}
		case <-deadline:
			return fmt.Errorf("no insight at %d%% within %s", want, timeout)
		}
	}
}
