package protocol

import (
	"fmt"
	"slices"
	"strings"
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

// An insight naming 31 nodes with AWS-style names has an identity over
// 1,024 bytes, which the plan holds at most (MaxIdentityLength).
func TestIdentityIsBounded(t *testing.T) {
	nodes := func(n int, last string) []Resource {
		var out []Resource
		for i := range n {
			out = append(out, Resource{Kind: "Node", Name: fmt.Sprintf("ip-10-0-%d-%d.ec2.internal", 100+i, 200+i)})
		}
		return append(out, Resource{Kind: "Node", Name: last})
	}
	full := func(resources []Resource) string {
		var names []string
		for _, r := range resources {
			names = append(names, ResourceString(r))
		}
		slices.Sort(names)
		return "mco/WorkerPool/" + strings.Join(names, ",") + "/drain"
	}
	a := Insight{UID: "drain", Scope: Scope{Type: ScopeWorkerPool, Resources: nodes(30, "ip-10-0-99-1.ec2.internal")}}
	b := Insight{UID: "drain", Scope: Scope{Type: ScopeWorkerPool, Resources: nodes(30, "ip-10-0-99-2.ec2.internal")}}
	if n := len(full(a.Scope.Resources)); n <= MaxIdentityLength {
		t.Fatalf("the unbounded identity has %d bytes, not over %d: no case", n, MaxIdentityLength)
	}
	idA, idB := Identity("mco", a), Identity("mco", b)
	for _, id := range []string{idA, idB} {
		if len(id) > MaxIdentityLength {
			t.Errorf("identity of %d bytes, over %d: %q", len(id), MaxIdentityLength, id)
		}
		if !strings.HasPrefix(id, "mco/WorkerPool/Node/ip-10-0-100-200.ec2.internal,") {
			t.Errorf("identity %q does not start with what it is about", id)
		}
	}
	if idA == idB {
		t.Errorf("two insights about different nodes share the identity %q", idA)
	}
	// Reordered resources: the same insight, the same identity.
	slices.Reverse(a.Scope.Resources)
	if again := Identity("mco", a); again != idA {
		t.Errorf("the same insight's identity changed with the order of its resources: %q, then %q", idA, again)
	}
}

func TestEstimatedFinish(t *testing.T) {
	acquired := metav1.NewTime(time.Date(2024, 8, 2, 10, 0, 0, 0, time.UTC))
	lateAcquired := metav1.NewTime(time.Date(9999, 12, 31, 12, 0, 0, 0, time.UTC))

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
		// Within range in their own zone, out of it in UTC, where the API
		// stores them.
		{name: "year 10000 in UTC", value: "9999-12-31T23:00:00-01:30", wantErr: true},
		{name: "year -1 in UTC", value: "0000-01-01T00:00:00+00:01", wantErr: true},
		{name: "last second of 9999", value: "9999-12-31T23:59:59Z", want: time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC), wantOK: true},
		{name: "duration past 9999", acquired: &lateAcquired, value: "24h", wantErr: true},
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
