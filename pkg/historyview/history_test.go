package historyview

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/output"
)

var (
	m       = time.Minute
	started = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	now     = time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
)

func at(d time.Duration) metav1.Time       { return metav1.NewTime(started.Add(d)) }
func atp(d time.Duration) *metav1.Time     { t := at(d); return &t }
func dur(d time.Duration) *metav1.Duration { return &metav1.Duration{Duration: d} }

// completedRecord is the record of an update from 4.15.30 to 4.16.12 whose
// control plane took 72 minutes: etcd took 20 of them, kube-apiserver 35,
// dns updated unseen; a drain held a node for 14 minutes; the estimate at
// 25 percent was 12 minutes early, at 50 right, at 75 three minutes late.
// Its three workers, two at a time, took from 40 minutes in to 110, the
// held one 38 minutes.
func completedRecord() insightsv1alpha1.UpdateRecord {
	return insightsv1alpha1.UpdateRecord{
		ObjectMeta: metav1.ObjectMeta{Name: "4.16.12-20261120-090000"},
		Status: insightsv1alpha1.UpdateRecordStatus{
			From: &insightsv1alpha1.Version{Version: "4.15.30"}, To: insightsv1alpha1.Version{Version: "4.16.12"},
			State: insightsv1alpha1.UpdateRecordCompleted, StartedAt: at(0), ControlPlaneCompletedAt: atp(72 * m),
			CompletedAt: atp(110 * m), ObservedUntil: at(110 * m),
			Durations: insightsv1alpha1.UpdateRecordDurations{ControlPlane: &metav1.Duration{Duration: 72 * m},
				Workers: &metav1.Duration{Duration: 110 * m}, Total: &metav1.Duration{Duration: 110 * m}},
			Pools: []insightsv1alpha1.PoolUpdateRecord{
				{Name: "master", ScopeType: insightsv1alpha1.ScopeTypeControlPlane, Assessment: insightsv1alpha1.PoolCompleted, Nodes: 3, Updated: 3,
					StartedAt: atp(62 * m), CompletedAt: atp(70 * m),
					NodeTimes:    insightsv1alpha1.NodeTimes{Timed: 1, Median: dur(8 * m), P90: dur(8 * m), Minutes: []insightsv1alpha1.MinuteCount{{Minutes: 8, Nodes: 1}}},
					SlowestNodes: []insightsv1alpha1.NodeUpdateRecord{{Name: "master-2", StartedAt: at(62 * m), CompletedAt: atp(70 * m), Updating: dur(3 * m), Rebooting: dur(5 * m)}}},
				{Name: "worker", ScopeType: insightsv1alpha1.ScopeTypeWorkerPool, Assessment: insightsv1alpha1.PoolCompleted, Nodes: 3, Updated: 3,
					StartedAt: atp(40 * m), CompletedAt: atp(110 * m),
					Phases: []insightsv1alpha1.PhaseRecord{
						{Phase: "Draining", StartedAt: at(40 * m), EndedAt: atp(91 * m)},
						{Phase: "Updating", StartedAt: at(56 * m), EndedAt: atp(101 * m)},
						{Phase: "Rebooting", StartedAt: at(68 * m), EndedAt: atp(110 * m)},
					},
					NodeTimes: insightsv1alpha1.NodeTimes{Timed: 3, Median: dur(25 * m), P90: dur(38 * m),
						Minutes: []insightsv1alpha1.MinuteCount{{Minutes: 20, Nodes: 1}, {Minutes: 25, Nodes: 1}, {Minutes: 38, Nodes: 1}}},
					SlowestNodes: []insightsv1alpha1.NodeUpdateRecord{
						{Name: "worker-a", StartedAt: at(40 * m), CompletedAt: atp(78 * m), Draining: dur(16 * m), Updating: dur(12 * m), Rebooting: dur(10 * m)},
						{Name: "worker-c", StartedAt: at(85 * m), CompletedAt: atp(110 * m), Draining: dur(6 * m), Updating: dur(10 * m), Rebooting: dur(9 * m)},
						{Name: "worker-b", StartedAt: at(78 * m), CompletedAt: atp(98 * m), Draining: dur(5 * m), Updating: dur(8 * m), Rebooting: dur(7 * m)},
					}},
			},
			NotObserved: []insightsv1alpha1.TimeSpan{{From: at(0), To: at(3 * m)}},
			ClusterOperators: []insightsv1alpha1.OperatorUpdateRecord{
				{Name: "dns", CompletedAt: nil, Updated: true},
				{Name: "etcd", StartedAt: atp(5 * m), CompletedAt: atp(25 * m), Updated: true},
				{Name: "kube-apiserver", StartedAt: atp(25 * m), CompletedAt: atp(60 * m), Updated: true},
			},
			Stalls: []insightsv1alpha1.UpdateStall{{
				Name: "drain-worker-a", Level: insightsv1alpha1.WarningImpactLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
				Scope: insightsv1alpha1.ScopeTypeWorkerPool, Summary: "Drain of node worker-a held by pod shop/api-0 under disruption budget shop/api",
				Resources: []insightsv1alpha1.ResourceRef{{Resource: "nodes", Name: "worker-a"}, {Resource: "pods", Namespace: "shop", Name: "api-0"}},
				StartedAt: atp(40 * m), FirstSeenAt: at(41 * m), EndedAt: atp(54 * m),
			}},
			Estimates: []insightsv1alpha1.EstimateRecord{
				{Percent: 25, ObservedAt: at(20 * m), CompletionPercent: 27, EstimatedCompletedAt: atp(84 * m)},
				{Percent: 50, ObservedAt: at(35 * m), CompletionPercent: 51, EstimatedCompletedAt: atp(72 * m)},
				{Percent: 75, ObservedAt: at(55 * m), CompletionPercent: 75, EstimatedCompletedAt: atp(69 * m)},
			},
		},
	}
}

// progressingRecord is a later update to 4.16.13, in progress, whose
// estimate at 25 percent is not yet told against a completion.
func progressingRecord() insightsv1alpha1.UpdateRecord {
	s := metav1.NewTime(now.Add(-30 * m))
	return insightsv1alpha1.UpdateRecord{
		ObjectMeta: metav1.ObjectMeta{Name: "4.16.13-20261203-113000"},
		Status: insightsv1alpha1.UpdateRecordStatus{
			From: &insightsv1alpha1.Version{Version: "4.16.12"}, To: insightsv1alpha1.Version{Version: "4.16.13"},
			State: insightsv1alpha1.UpdateRecordProgressing, StartedAt: s, ObservedUntil: metav1.NewTime(now.Add(-m)),
			Durations: insightsv1alpha1.UpdateRecordDurations{ControlPlane: &metav1.Duration{Duration: 29 * m}},
			Estimates: []insightsv1alpha1.EstimateRecord{{Percent: 25, ObservedAt: metav1.NewTime(now.Add(-10 * m)), CompletionPercent: 30,
				EstimatedCompletedAt: &metav1.Time{Time: now.Add(40 * m)}}},
		},
	}
}

func TestList(t *testing.T) {
	h := List([]insightsv1alpha1.UpdateRecord{completedRecord(), progressingRecord()}, now)
	want := History{Updates: []Update{{
		Record: "4.16.13-20261203-113000", From: "4.16.12", To: "4.16.13", State: insightsv1alpha1.UpdateRecordProgressing,
		StartedAt: now.Add(-30 * m), Duration: metav1.Duration{Duration: 29 * m}, ControlPlane: metav1.Duration{Duration: 29 * m},
	}, {
		Record: "4.16.12-20261120-090000", From: "4.15.30", To: "4.16.12", State: insightsv1alpha1.UpdateRecordCompleted,
		StartedAt: started, Duration: metav1.Duration{Duration: 110 * m}, ControlPlane: metav1.Duration{Duration: 72 * m}, Stalls: 1, StallTime: metav1.Duration{Duration: 14 * m}, NotObserved: true,
		EstimateError: &EstimateError{Percent: 50},
	}}}
	if diff := cmp.Diff(want, h); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	var b bytes.Buffer
	if err := WriteList(&b, &h); err != nil {
		t.Fatal(err)
	}
	recordedtest.CheckGolden(t, recordedtest.Golden("history/list.txt"), b.Bytes())
}

func TestEstimateErrors(t *testing.T) {
	r := completedRecord()
	var got []string
	for _, e := range Build(&r, now).Estimates {
		got = append(got, late(e.Late.Duration))
	}
	if diff := cmp.Diff([]string{"12m early", "on time", "3m late"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	p := progressingRecord()
	if e := Build(&p, now).Estimates[0]; e.Late != nil || e.Actual != nil {
		t.Errorf("an update in progress has its estimate told against %v: %v", e.Actual, e.Late)
	}
}

func TestPostmortem(t *testing.T) {
	for _, tt := range []struct {
		name   string
		record insightsv1alpha1.UpdateRecord
	}{
		{"completed", completedRecord()},
		{"progressing", progressingRecord()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := Build(&tt.record, now)
			var b bytes.Buffer
			if err := WritePostmortem(&b, &p); err != nil {
				t.Fatal(err)
			}
			recordedtest.CheckGolden(t, recordedtest.Golden("history/"+tt.name+".txt"), b.Bytes())
			b.Reset()
			if err := output.Write(&b, p, output.JSON); err != nil {
				t.Fatal(err)
			}
			recordedtest.CheckGolden(t, recordedtest.Golden("history/"+tt.name+".json"), b.Bytes())
		})
	}
}

func TestSlowestOperators(t *testing.T) {
	r := completedRecord()
	p := Build(&r, now)
	var got []string
	for _, o := range p.SlowestOperators {
		got = append(got, o.Name+" "+o.Duration.Duration.String())
	}
	if diff := cmp.Diff([]string{"kube-apiserver 35m0s", "etcd 20m0s"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if p.OperatorsUndated != 1 {
		t.Errorf("%d operators undated, want 1: dns updated unseen", p.OperatorsUndated)
	}
}

func TestFind(t *testing.T) {
	retried := completedRecord()
	retried.Name, retried.Status.StartedAt = "4.16.12-20261121-090000", metav1.NewTime(started.Add(24*time.Hour))
	records := []insightsv1alpha1.UpdateRecord{completedRecord(), retried, progressingRecord()}
	for _, tt := range []struct{ arg, want, err string }{
		{arg: "4.16.12", want: "4.16.12-20261121-090000"},
		{arg: "4.16.12-20261120-090000", want: "4.16.12-20261120-090000"},
		{arg: "4.17.0", err: "no recorded update to 4.17.0: `history` lists the recorded ones"},
	} {
		t.Run(tt.arg, func(t *testing.T) {
			r, err := Find(records, tt.arg)
			switch {
			case tt.err != "":
				if err == nil || err.Error() != tt.err {
					t.Errorf("error %v, want %q", err, tt.err)
				}
			case err != nil:
				t.Fatal(err)
			case r.Name != tt.want:
				t.Errorf("found %s, want %s", r.Name, tt.want)
			}
		})
	}
}

func TestEmptyHistory(t *testing.T) {
	var b bytes.Buffer
	h := List(nil, now)
	if err := WriteList(&b, &h); err != nil {
		t.Fatal(err)
	}
	if want := "No update is recorded: the operator records each update it sees from when it is installed.\n"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}

// The records as `oc get urec -o yaml` prints them are what the docs'
// examples read with --from, and read back as they were.
func TestReadRecords(t *testing.T) {
	records := []insightsv1alpha1.UpdateRecord{completedRecord(), progressingRecord()}
	list := insightsv1alpha1.UpdateRecordList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "List"}}
	for _, r := range records {
		r.TypeMeta = metav1.TypeMeta{APIVersion: insightsv1alpha1.SchemeGroupVersion.String(), Kind: "UpdateRecord"}
		list.Items = append(list.Items, r)
	}
	content, err := yaml.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	path := recordedtest.Golden("history/records.yaml")
	recordedtest.CheckGolden(t, path, content)
	got, err := ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i].TypeMeta = metav1.TypeMeta{}
	}
	if diff := cmp.Diff(records, got); diff != "" {
		t.Errorf("(-want +read):\n%s", diff)
	}
	if _, err := ReadRecords(recordedtest.Golden("history/completed.json")); err == nil {
		t.Errorf("a postmortem was read as records")
	}
}
