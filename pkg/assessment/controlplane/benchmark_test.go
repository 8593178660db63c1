package controlplane

import (
	"fmt"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
)

// largeCluster is an update of 1,000 payload ClusterOperators, 400 of them
// done, on a cluster with 100 history entries.
func largeCluster() (*configv1.ClusterVersion, []*configv1.ClusterOperator) {
	cv := updating()
	for i := 0; i < 97; i++ {
		cv.Status.History = append(cv.Status.History[:len(cv.Status.History)-1],
			configv1.UpdateHistory{Version: fmt.Sprintf("4.14.%d", 100-i), State: configv1.PartialUpdate, StartedTime: cv.Status.History[1].StartedTime},
			cv.Status.History[len(cv.Status.History)-1])
	}
	operators := make([]*configv1.ClusterOperator, 1000)
	for i := range operators {
		version := "4.15.3"
		if i%5 < 2 {
			version = "4.16.0"
		}
		operators[i] = clusterOperator(fmt.Sprintf("operator-%04d", i), version, coProgressing(configv1.ConditionTrue, started.Add(time.Duration(i)*time.Second)))
	}
	return cv, operators
}

// BenchmarkClusterVersionProgress measures one steady-state sync's pure work:
// the assessment, the estimate, and the significance check.
func BenchmarkClusterVersionProgress(b *testing.B) {
	cv, operators := largeCluster()
	if n := len(cv.Status.History); n != 100 {
		b.Fatalf("history has %d entries, want 100", n)
	}
	current := ClusterVersionProgress(cv, operators, "", nil, now)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		desired := ClusterVersionProgress(cv, operators, "", &current, now)
		if ClusterVersionProgressChanged(&current, &desired) {
			b.Fatal("a steady state changed")
		}
	}
}

// BenchmarkClusterVersionProgressFirstSync is the same cluster seen for the
// first time: the last observed progress is taken from the operators.
func BenchmarkClusterVersionProgressFirstSync(b *testing.B) {
	cv, operators := largeCluster()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = ClusterVersionProgress(cv, operators, "", nil, now)
	}
}
