package integration

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// BenchmarkManagedUpgradeReaction measures how long a managed update's
// change takes from its UpgradeConfig to UpdateStatus, as a watch of
// UpdateStatus sees it: from just before the UpgradeConfig's write that
// moves its upgradeAt, until the watch delivers the awaiting-window insight
// with the new time. It includes the write (write-p50-ms), the informer's
// watch of UpgradeConfigs, the wait for the operator's next poll (every
// statusReactionInterval, reported as informer-interval-s), the call, and
// UpdateStatus following: 50 ms after a quiet second, else at the end of
// that second (updatestatus.Coalesce). The changes are made statusReactionIdle and a
// random part of a second apart, so that they fall anywhere in the poll's
// cycle rather than always at the same point of it.
//
// It then counts how often UpdateStatus is written in a minute while the
// schedule stays the same and the informer is asked every
// statusReactionInterval (unchanged-writes-per-min): an informer that
// reported each answer as new would make it one write per poll; the
// awaiting-window insight changes only with its minutes to go.
//
//	KUBEBUILDER_ASSETS=$(hack/install-testbin.sh) go test ./test/integration/ -run '^$' -bench ManagedUpgradeReaction -benchtime 1x
//
// The samples are taken once per call of the benchmark function, whatever
// b.N, so use -benchtime 1x.
func BenchmarkManagedUpgradeReaction(b *testing.B) {
	deleteUpdateStatusAtEnd(b)
	ns := createTestNamespace(b, "muo-bench-")
	createMUOConfigMap(b, ns)
	installUpgradeConfigCRD(b)
	configs := upgradeConfigsIn(ns)
	createClusterVersion(b, nil, completedStatus())
	informer := startMUOInformer(b, ns)
	createInformer(b, &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: muoInformerName},
		Spec: insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{
			URL: ptr.To(informer.url()), CABundle: informer.ca.PEM,
		}},
	})
	startOperator(b, "--informer-interval="+statusReactionInterval.String())

	w, err := insightsClient.InsightsV1alpha1().UpdateStatuses().Watch(context.Background(), metav1.ListOptions{
		FieldSelector: fields.OneTermEqualSelector("metadata.name", insightsv1alpha1.UpdateStatusName).String(),
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(w.Stop)
	r := &statusReaction{b: b, watch: w}

	// Hours ahead, a minute apart: every change is a new time, whatever
	// the minute the benchmark runs at.
	base := time.Now().Add(3 * time.Hour).UTC().Truncate(time.Minute)
	shows := func(at time.Time) func(*insightsv1alpha1.UpdateStatus) bool {
		return func(s *insightsv1alpha1.UpdateStatus) bool {
			i, stale := informerInsight(s, muoInformerName, "", "awaiting-window")
			return i != nil && !stale && i.Remediation.EstimatedFinish != nil && i.Remediation.EstimatedFinish.Time.Equal(at)
		}
	}
	configs.write(b, managedUpdate(toVersion, base, nil))
	r.await("the first schedule", shows(base))

	var reactions, writes []time.Duration
	for n := 1; n <= statusReactionSamples; n++ {
		time.Sleep(statusReactionIdle + rand.N(time.Second))
		at := base.Add(time.Duration(n) * time.Minute)
		start := time.Now()
		configs.write(b, managedUpdate(toVersion, at, nil))
		writes = append(writes, time.Since(start))
		seen := r.await(fmt.Sprintf("the schedule moved to %s", at.Format(time.RFC3339)), shows(at))
		reactions = append(reactions, seen.Sub(start))
	}
	b.ReportMetric(statusReactionInterval.Seconds(), "informer-interval-s")
	reportLatencies(b, "upgradeconfig", reactions)
	b.ReportMetric(float64(writesIn(r.watch, time.Minute)), "unchanged-writes-per-min")
	b.ReportMetric(milliseconds(percentile(slices.Sorted(slices.Values(writes)), 50)), "write-p50-ms")
}

// writesIn counts the changes a watch delivers for a while.
func writesIn(w watch.Interface, d time.Duration) int {
	n := 0
	timeout := time.After(d)
	for {
		select {
		case _, ok := <-w.ResultChan():
			if !ok {
				return n
			}
			n++
		case <-timeout:
			return n
		}
	}
}
