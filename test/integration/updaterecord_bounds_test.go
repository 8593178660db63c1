package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updaterecord"
)

// The record's budgets, as docs/insights.md states them.
const (
	// recordBudget is the most a 5,000-node update's record may take.
	recordBudget = 512 << 10
	// largestRecordBudget is the most the largest record the API allows
	// may take: under etcd's 1.5 MiB a request, with room.
	largestRecordBudget = 1 << 20
)

// writeRecord creates a record and writes its status, and returns what the
// API server kept and the size of its JSON.
func writeRecord(t *testing.T, name string, status insightsv1alpha1.UpdateRecordStatus) (insightsv1alpha1.UpdateRecordStatus, int) {
	t.Helper()
	ctx := context.Background()
	records := insightsClient.InsightsV1alpha1().UpdateRecords()
	created, err := records.Create(ctx, &insightsv1alpha1.UpdateRecord{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = records.Delete(context.Background(), name, metav1.DeleteOptions{}) })
	created.Status = status
	written, err := records.UpdateStatus(ctx, created, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("the API server refused the record: %v", err)
	}
	data, err := json.Marshal(written)
	if err != nil {
		t.Fatal(err)
	}
	return written.Status, len(data)
}

// A 5,000-node update, its workers 25 at a time, keeps a record under its
// budget: the pool's nodes are counted by the minute, the slowest named,
// the rest counted.
func TestAFiveThousandNodeUpdateRecordStaysUnderItsBudget(t *testing.T) {
	status := fiveThousandNodeUpdate()
	p := status.Pools[0]
	if p.Nodes != 5000 || p.NodeTimes.Timed != 5000 || status.State != insightsv1alpha1.UpdateRecordCompleted {
		t.Fatalf("the played update: %d nodes, %d timed, %s; want 5000, 5000, Completed", p.Nodes, p.NodeTimes.Timed, status.State)
	}
	got, size := writeRecord(t, "bounds-5000-nodes", status)
	t.Logf("the record of a 5,000-node update takes %d bytes", size)
	if size > recordBudget {
		t.Errorf("the record takes %d bytes, over its budget of %d", size, recordBudget)
	}
	if diff := cmp.Diff(asJSON(t, status), asJSON(t, got)); diff != "" {
		t.Errorf("the API server did not keep the record as written (-written +kept):\n%s", diff)
	}
}

// fiveThousandNodeUpdate plays an update of 5,000 workers, 25 at a time,
// each draining, updating and rebooting for times that vary by node,
// through updaterecord.Next as the controller would.
func fiveThousandNodeUpdate() insightsv1alpha1.UpdateRecordStatus {
	start := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	cpDone := metav1.NewTime(start.Add(70 * time.Minute))
	cv := &insightsv1alpha1.ClusterVersionProgressInsightStatus{
		Name: "version", Assessment: insightsv1alpha1.ClusterVersionAssessmentCompleted, CompletionPercent: 100,
		Versions:  insightsv1alpha1.ControlPlaneUpdateVersions{Target: insightsv1alpha1.Version{Version: "4.17.3"}, Previous: &insightsv1alpha1.Version{Version: "4.16.20"}},
		StartedAt: &metav1.Time{Time: start}, CompletedAt: &cpDone,
	}
	const total, atOnce = 5000, 25
	nodes := make([]insightsv1alpha1.NodeProgressInsightStatus, total)
	set := func(i int, status metav1.ConditionStatus, reason string, since time.Time) {
		nodes[i] = insightsv1alpha1.NodeProgressInsightStatus{
			Name: fmt.Sprintf("worker-%04d.eu-west-1.compute.internal", i), ScopeType: insightsv1alpha1.ScopeTypeWorkerPool,
			PoolResource: insightsv1alpha1.ResourceRef{Group: "machineconfiguration.openshift.io", Resource: "machineconfigpools", Name: "worker"},
			Conditions:   []metav1.Condition{{Type: insightsv1alpha1.NodeProgressInsightUpdating, Status: status, Reason: reason, LastTransitionTime: metav1.NewTime(since)}},
		}
	}
	for i := range nodes {
		set(i, metav1.ConditionFalse, insightsv1alpha1.NodePending, start.Add(-time.Hour))
	}
	var previous *insightsv1alpha1.UpdateRecordStatus
	next := func(now time.Time) {
		out := updaterecord.Next(updaterecord.Input{ClusterVersion: cv, Nodes: nodes, Previous: previous, Now: now})
		previous = &out
	}
	now := cpDone.Time
	for batch := 0; batch < total/atOnce; batch++ {
		began := now
		for i := batch * atOnce; i < (batch+1)*atOnce; i++ {
			set(i, metav1.ConditionTrue, insightsv1alpha1.NodeDraining, began)
		}
		next(began)
		// Drains take 2 to 20 minutes by node, updates 3, reboots 4.
		longest := time.Duration(0)
		for _, phase := range []string{insightsv1alpha1.NodeUpdating, insightsv1alpha1.NodeRebooting} {
			now = now.Add(2 * time.Minute)
			for i := batch * atOnce; i < (batch+1)*atOnce; i++ {
				set(i, metav1.ConditionTrue, phase, began)
			}
			next(now)
		}
		for i := batch * atOnce; i < (batch+1)*atOnce; i++ {
			took := time.Duration(9+i*7%19) * time.Minute
			set(i, metav1.ConditionFalse, insightsv1alpha1.NodeCompleted, began.Add(took))
			longest = max(longest, took)
		}
		now = began.Add(longest)
		next(now)
	}
	return *previous
}

// The largest record the API allows, every list full and every string at
// its longest, is accepted by the API server and kept whole.
func TestTheLargestUpdateRecordIsAccepted(t *testing.T) {
	status := largestRecord()
	got, size := writeRecord(t, "bounds-largest", status)
	t.Logf("the largest record takes %d bytes", size)
	if size > largestRecordBudget {
		t.Errorf("the largest record takes %d bytes, over %d", size, largestRecordBudget)
	}
	if diff := cmp.Diff(asJSON(t, status), asJSON(t, got)); diff != "" {
		t.Errorf("the API server did not keep the record as written (-written +kept):\n%s", diff)
	}
}

// largestRecord is a record at every bound of the API.
func largestRecord() insightsv1alpha1.UpdateRecordStatus {
	t0 := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	at := func(m int) metav1.Time { return metav1.NewTime(t0.Add(time.Duration(m) * time.Minute)) }
	atp := func(m int) *metav1.Time { v := at(m); return &v }
	d := func(m int) *metav1.Duration { return &metav1.Duration{Duration: time.Duration(m) * time.Minute} }
	// long is a name of n characters, unique by i, valid as a DNS subdomain.
	long := func(prefix string, i, n int) string {
		s := fmt.Sprintf("%s-%04d-", prefix, i)
		return s + strings.Repeat("x", n-len(s))
	}
	version := func(i int) insightsv1alpha1.Version {
		v := insightsv1alpha1.Version{Version: long("4.17.0", i, 256)}
		for _, k := range []insightsv1alpha1.VersionMetadataKey{insightsv1alpha1.InstallationMetadata, insightsv1alpha1.PartialMetadata, insightsv1alpha1.ArchitectureMetadata} {
			v.Metadata = append(v.Metadata, insightsv1alpha1.VersionMetadata{Key: k, Value: strings.Repeat("v", 256)})
		}
		return v
	}
	node := func(i int, done bool) insightsv1alpha1.NodeUpdateRecord {
		n := insightsv1alpha1.NodeUpdateRecord{Name: long("node", i, 253), StartedAt: at(i), Draining: d(1), Updating: d(2), Rebooting: d(3)}
		if done {
			n.CompletedAt = atp(i + 9)
		} else {
			n.Phase, n.PhaseSince = insightsv1alpha1.NodeRebooting, atp(i+5)
		}
		return n
	}
	s := insightsv1alpha1.UpdateRecordStatus{
		From: ptrTo(version(0)), To: version(1), State: insightsv1alpha1.UpdateRecordCompleted,
		StartedAt: at(0), ControlPlaneCompletedAt: atp(60), CompletedAt: atp(600), ObservedUntil: at(600),
		Durations:          insightsv1alpha1.UpdateRecordDurations{ControlPlane: d(60), Workers: d(600), Total: d(600)},
		NotObservedOmitted: 1 << 30, ClusterOperatorsOmitted: 1 << 30, StallsOmitted: 1 << 30, PoolsOmitted: 1 << 30,
	}
	for i := 0; i < insightsv1alpha1.UpdateRecordMaxNotObserved; i++ {
		s.NotObserved = append(s.NotObserved, insightsv1alpha1.TimeSpan{From: at(i), To: at(i + 1)})
	}
	for i := 0; i < insightsv1alpha1.UpdateRecordMaxOperators; i++ {
		s.ClusterOperators = append(s.ClusterOperators, insightsv1alpha1.OperatorUpdateRecord{Name: long("operator", i, 253), StartedAt: atp(i), CompletedAt: atp(i + 1), Updated: true})
	}
	for i := 0; i < insightsv1alpha1.UpdateRecordMaxStalls; i++ {
		st := insightsv1alpha1.UpdateStall{
			Name: long("stall", i, 253), Level: insightsv1alpha1.CriticalImpactLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
			Scope: insightsv1alpha1.ScopeTypeWorkerPool, Summary: strings.Repeat("s", 256),
			StartedAt: atp(i), FirstSeenAt: at(i + 1), EndedAt: atp(i + 2), EndNotObserved: true,
		}
		for j := 0; j < insightsv1alpha1.UpdateRecordMaxStallResources; j++ {
			st.Resources = append(st.Resources, insightsv1alpha1.ResourceRef{Group: long("group", j, 253), Resource: long("resource", j, 253), Namespace: long("ns", j, 63), Name: long("name", j, 253)})
		}
		s.Stalls = append(s.Stalls, st)
	}
	for i, p := range []int32{25, 50, 75} {
		s.Estimates = append(s.Estimates, insightsv1alpha1.EstimateRecord{Percent: p, ObservedAt: at(i), CompletionPercent: 100, EstimatedCompletedAt: atp(i + 60)})
	}
	for i := 0; i < insightsv1alpha1.UpdateRecordMaxPools; i++ {
		p := insightsv1alpha1.PoolUpdateRecord{
			Name: long("pool", i, 253), ScopeType: insightsv1alpha1.ScopeTypeWorkerPool, Assessment: insightsv1alpha1.PoolProgressing,
			Nodes: 1 << 30, Updated: 1 << 30, StartedAt: atp(60), CompletedAt: atp(600), UpdatingOmitted: 1 << 30,
			NodeTimes: insightsv1alpha1.NodeTimes{Timed: 1 << 30, Median: d(10), P90: d(20)},
		}
		for j, phase := range []string{insightsv1alpha1.NodeDraining, insightsv1alpha1.NodeUpdating, insightsv1alpha1.NodeRebooting} {
			p.Phases = append(p.Phases, insightsv1alpha1.PhaseRecord{Phase: phase, StartedAt: at(60 + j), EndedAt: atp(600)})
		}
		for j := 0; j < insightsv1alpha1.UpdateRecordMaxNodeTimeBuckets; j++ {
			p.NodeTimes.Minutes = append(p.NodeTimes.Minutes, insightsv1alpha1.MinuteCount{Minutes: int32(1440 - insightsv1alpha1.UpdateRecordMaxNodeTimeBuckets + j), Nodes: 1 << 30})
		}
		for j := 0; j < insightsv1alpha1.UpdateRecordMaxSlowestNodes; j++ {
			p.SlowestNodes = append(p.SlowestNodes, node(j, true))
		}
		for j := 0; j < insightsv1alpha1.UpdateRecordMaxUpdatingNodes; j++ {
			p.Updating = append(p.Updating, node(100+j, false))
		}
		s.Pools = append(s.Pools, p)
	}
	return s
}

func ptrTo[T any](v T) *T { return &v }
