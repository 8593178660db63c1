package protocol

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestIdentity(t *testing.T) {
	node := func(name string) Resource { return Resource{Kind: "Node", Name: name} }
	pod := Resource{Kind: "Pod", Namespace: "openshift-etcd", Name: "etcd-0"}
	machineSet := Resource{Group: "machine.openshift.io", Kind: "MachineSet", Namespace: "openshift-machine-api", Name: "workers-a"}

	tests := []struct {
		name    string
		insight Insight
		want    string
	}{
		{
			name:    "no resources",
			insight: Insight{UID: "abc", Scope: Scope{Type: ScopeControlPlane}},
			want:    "mco/ControlPlane//abc",
		},
		{
			name:    "resources sorted",
			insight: Insight{UID: "abc", Scope: Scope{Type: ScopeWorkerPool, Resources: []Resource{node("b"), pod, node("a")}}},
			want:    "mco/WorkerPool/Node/a,Node/b,Pod/openshift-etcd/etcd-0/abc",
		},
		{
			name:    "same resources in another order",
			insight: Insight{UID: "abc", Scope: Scope{Type: ScopeWorkerPool, Resources: []Resource{pod, node("a"), node("b")}}},
			want:    "mco/WorkerPool/Node/a,Node/b,Pod/openshift-etcd/etcd-0/abc",
		},
		{
			name:    "grouped kind",
			insight: Insight{UID: "abc", Scope: Scope{Type: ScopeWorkerPool, Resources: []Resource{machineSet}}},
			want:    "mco/WorkerPool/MachineSet.machine.openshift.io/openshift-machine-api/workers-a/abc",
		},
		{
			name: "what is not scope resources or uid does not count",
			insight: Insight{UID: "abc", Scope: Scope{Type: ScopeWorkerPool, WorkerPool: []Resource{machineSet}, Resources: []Resource{node("a")}},
				Impact: Impact{Level: LevelError, Summary: "worse now"}},
			want: "mco/WorkerPool/Node/a/abc",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Identity("mco", tt.insight)); diff != "" {
				t.Errorf("Identity (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEstimatedFinish(t *testing.T) {
	acquired := metav1.NewTime(time.Date(2024, 8, 2, 10, 0, 0, 0, time.UTC))

	tests := []struct {
		name     string
		acquired *metav1.Time
		value    string
		want     time.Time
		wantOK   bool
		wantErr  bool
	}{
		{name: "absent"},
		{name: "RFC 3339", value: "2024-08-02T10:41:00Z", want: time.Date(2024, 8, 2, 10, 41, 0, 0, time.UTC), wantOK: true},
		{name: "RFC 3339 with an offset and fractions", value: "2024-08-02T12:41:00.5+02:00",
			want: time.Date(2024, 8, 2, 10, 41, 0, 5e8, time.UTC), wantOK: true},
		{name: "duration from acquisition", acquired: &acquired, value: "15m", want: acquired.Add(15 * time.Minute), wantOK: true},
		{name: "compound duration", acquired: &acquired, value: "1h2m3s", want: acquired.Add(time.Hour + 2*time.Minute + 3*time.Second), wantOK: true},
		{name: "duration without acquisition time", value: "15m", wantErr: true},
		{name: "negative duration", acquired: &acquired, value: "-5m", wantErr: true},
		{name: "neither", acquired: &acquired, value: "tomorrow", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			insight := Insight{AcquisitionTime: tt.acquired, Remediation: Remediation{EstimatedFinish: tt.value}}
			got, ok, err := EstimatedFinish(insight)
			if (err != nil) != tt.wantErr {
				t.Fatalf("EstimatedFinish error %v, want error %t", err, tt.wantErr)
			}
			if ok != tt.wantOK || !got.Equal(tt.want) {
				t.Errorf("EstimatedFinish = %v, %t; want %v, %t", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}
