package alerts

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestDecode(t *testing.T) {
	active := time.Date(2023, 11, 24, 15, 43, 23, 156620559, time.UTC)
	tests := []struct {
		name    string
		answer  string
		want    []Alert
		wantErr string
	}{
		{
			name: "what the Thanos querier answers",
			answer: `{"status":"success","data":{"alerts":[{"labels":{"alertname":"KubePodNotReady","namespace":"openshift-kube-apiserver","severity":"warning"},` +
				`"annotations":{"summary":"Pod has been in a non-ready state for more than 15 minutes."},"state":"firing","activeAt":"2023-11-24T15:43:23.156620559Z","value":"1e+00","partialResponseStrategy":"WARN"}]}}`,
			want: []Alert{{
				Labels:      map[string]string{"alertname": "KubePodNotReady", "namespace": "openshift-kube-apiserver", "severity": "warning"},
				Annotations: map[string]string{"summary": "Pod has been in a non-ready state for more than 15 minutes."},
				State:       StateFiring,
				ActiveAt:    active,
				Value:       "1e+00",
			}},
		},
		{
			name:   "no alert firing",
			answer: `{"status":"success","data":{"alerts":[]}}`,
			want:   []Alert{},
		},
		{
			name:    "an error answer",
			answer:  `{"status":"error","errorType":"unavailable","error":"no store matched"}`,
			wantErr: "the alerts answer is an error: unavailable: no store matched",
		},
		{
			name:    "another status",
			answer:  `{"status":"maybe","data":{"alerts":[]}}`,
			wantErr: `the alerts answer has status "maybe", want success`,
		},
		{
			name:    "success without alerts is not no alerts",
			answer:  `{"status":"success","data":{}}`,
			wantErr: "the alerts answer has no data.alerts list",
		},
		{
			name:    "not JSON",
			answer:  `<html>Application is not available</html>`,
			wantErr: "the alerts answer is not the Prometheus API's JSON: invalid character '<' looking for beginning of value",
		},
		{
			name:    "larger than the bound",
			answer:  `{"status":"success","data":{"alerts":[` + strings.Repeat(" ", MaxResponseBytes) + `]}}`,
			wantErr: "the alerts answer is larger than 33554432 bytes",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode(strings.NewReader(tt.answer))
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("alerts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestIdentityIsTheLabelSet(t *testing.T) {
	a := Alert{Labels: map[string]string{"alertname": "A", "pod": "x"}}
	same := Alert{Labels: map[string]string{"pod": "x", "alertname": "A"}, State: StatePending, Annotations: map[string]string{"summary": "s"}}
	other := Alert{Labels: map[string]string{"alertname": "A", "pod": "y"}}
	shifted := Alert{Labels: map[string]string{"alertname": "A", "po": "dx"}}
	if a.Identity() != same.Identity() {
		t.Errorf("the same label set in another order has another identity")
	}
	if a.Identity() == other.Identity() || a.Identity() == shifted.Identity() {
		t.Errorf("other label sets share the identity %q", a.Identity())
	}
}

// Label values may hold any character: no value can forge the separators
// between the pairs of another label set.
func TestIdentitiesDoNotCollide(t *testing.T) {
	pairs := [][2]map[string]string{
		// The separators the identity once used, inside a value.
		{{"alertname": "A", "a": "x\x01b\x00y"}, {"alertname": "A", "a": "x", "b": "y"}},
		{{"alertname": "A", "a": `x", "b"="y`}, {"alertname": "A", "a": "x", "b": "y"}},
		{{"alertname": "A", "a": "x=y"}, {"alertname": "A", "a=x": "y"}},
		{{"alertname": "A", "a": ""}, {"alertname": "A"}},
	}
	for _, p := range pairs {
		a, b := Alert{Labels: p[0]}, Alert{Labels: p[1]}
		if a.Identity() == b.Identity() {
			t.Errorf("label sets %q and %q share the identity %q", p[0], p[1], a.Identity())
		}
	}
	if got, want := (&Alert{Labels: map[string]string{"severity": "critical", "alertname": "A"}}).Identity(), `{"alertname"="A", "severity"="critical"}`; got != want {
		t.Errorf("identity %s, want %s", got, want)
	}
}
