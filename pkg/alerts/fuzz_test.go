package alerts

import (
	"bytes"
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzDecode reads arbitrary alerts answers: an error and no alerts, or a
// list (empty when nothing fires, never absent), the same for the same
// answer; alerts with the same labels, and only those, have the same
// identity, whatever their labels' order; every alert has a description.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"status":"success","data":{"alerts":[{"labels":{"alertname":"KubePodNotReady","namespace":"openshift-kube-apiserver","severity":"warning"},` +
			`"annotations":{"summary":"Pod has been in a non-ready state for more than 15 minutes."},"state":"firing","activeAt":"2023-11-24T15:43:23.156620559Z","value":"1e+00","partialResponseStrategy":"WARN"}]}}`,
		`{"status":"success","data":{"alerts":[{"labels":{"alertname":"A","a":"1"},"annotations":{"description":"d","message":"m"}},{"labels":{"a":"1","alertname":"A"}},{"labels":{"alertname":"A","a":"2"}}]}}`,
		`{"status":"success","data":{"alerts":[{"labels":{"a":"1\u0001b\u00002"}},{"labels":{"a":"1","b":"2"}}]}}`,
		`{"status":"success","data":{"alerts":[]}}`,
		`{"status":"success","data":{}}`,
		`{"status":"error","errorType":"unavailable","error":"no store matched"}`,
		`{"status":"success","data":{"alerts":[{"labels":null,"activeAt":"not a time"}]}}`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, answer []byte) {
		alerts, err := Decode(bytes.NewReader(answer))
		if err != nil {
			if alerts != nil {
				t.Errorf("alerts with the error %v", err)
			}
			return
		}
		if alerts == nil {
			t.Fatal("neither alerts nor an error")
		}
		again, err := Decode(bytes.NewReader(answer))
		if err != nil {
			t.Fatalf("read again: %v", err)
		}
		if diff := cmp.Diff(alerts, again); diff != "" {
			t.Errorf("read twice (-first +second):\n%s", diff)
		}
		for i := range alerts {
			if !strings.HasPrefix(alerts[i].Description(), "The alert") {
				t.Errorf("alert %d: description %q", i, alerts[i].Description())
			}
			copied := Alert{Labels: maps.Clone(alerts[i].Labels)}
			if copied.Identity() != alerts[i].Identity() {
				t.Errorf("alert %d: the identity of the same labels differs", i)
			}
			for j := range i {
				sameLabels := maps.Equal(alerts[i].Labels, alerts[j].Labels)
				if sameIdentity := alerts[i].Identity() == alerts[j].Identity(); sameLabels != sameIdentity {
					t.Errorf("alerts %d %v and %d %v: same labels %t, same identity %t", j, alerts[j].Labels, i, alerts[i].Labels, sameLabels, sameIdentity)
				}
			}
		}
	})
}
