package protocol

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The contract's examples, and answers that break it in the ways informers
// have, seed the targets below.
var answerSeeds = []string{
	`{"apiVersion":"config.openshift.io/v1beta1","kind":"UpdateInsightsResponse","spec":{"insights":[` +
		`{"uid":"cpu","acquisitionTime":"2024-08-02T10:00:00Z","scope":{"type":"ControlPlane","resources":[` +
		`{"kind":"Node","name":"ip-10-0-137-108.ec2.internal"},{"kind":"Pod","namespace":"a-namespace","name":"api-server"}]},` +
		`"impact":{"level":"warning","type":"API Availability","summary":"High control plane CPU during upgrade","description":"Abnormally high."},` +
		`"remediation":{"reference":"https://docs.example.com/cpu","resolved":false,"estimatedFinish":"2024-08-02T10:41:00Z"}},` +
		`{"uid":"reboot","acquisitionTime":"2024-08-02T10:00:00Z","scope":{"type":"WorkerPool",` +
		`"workerPool":[{"group":"machine.openshift.io","kind":"MachineSet","namespace":"openshift-machine-api","name":"my-machine-set"}],` +
		`"resources":[{"kind":"Node","name":"ip-10-0-137-108.ec2.internal"}]},` +
		`"impact":{"level":"status","summary":"Node rebooting"},"remediation":{"estimatedFinish":"15m"}}` +
		`]},"status":{"response":"Success"}}`,
	`{"apiVersion":"config.openshift.io/v1beta1","kind":"UpdatePlanInsightsResponse","spec":{"insights":[]},"status":{"response":"Wait","message":"building"}}`,
	`{"apiVersion":"config.openshift.io/v1beta1","kind":"UpdateInsightsResponse","spec":{"insights":[` +
		`{"uid":"a","scope":{"type":"ControlPlane"},"impact":{"level":"info","summary":"s"},"remediation":{"estimatedFinish":"1h"}},` +
		`{"uid":"a","scope":{"type":"ControlPlane"},"impact":{"level":"info","summary":"s"}}]},"status":{"response":"Failure"}}`,
	`{"apiVersion":"config.openshift.io/v1beta1","kind":"DiscoveryResponse","apiLevel":"v1alpha",` +
		`"handlers":[{"name":"status","timeoutSeconds":10},{"name":"plan","timeoutSeconds":30}]}`,
	`{"apiVersion":"config.openshift.io/v1beta1","kind":"DiscoveryResponse","apiLevel":"v1alpha","handlers":[{"name":"status","timeoutSeconds":31}]}`,
	`{"kind":"UpdateInsightsResponse","spec":{"insights":null},"status":{}}`,
	`{"apiVersion":"config.openshift.io/v1beta1","kind":"UpdateInsightsResponse","spec":{"insights":[` +
		`{"uid":"late","scope":{"type":"ControlPlane"},"impact":{"level":"info","summary":"s"},"remediation":{"estimatedFinish":"9999-12-31T23:00:00-05:00"}},` +
		`{"uid":"later","acquisitionTime":"9999-12-31T23:00:00Z","scope":{"type":"ControlPlane"},"impact":{"level":"info","summary":"s"},"remediation":{"estimatedFinish":"2h"}}]},` +
		`"status":{"response":"Success"}}`,
	`[]`,
}

// FuzzResponse decodes arbitrary bytes as each answer of the protocol and
// validates them. Beyond not panicking: validation says the same of the
// same answer; an answer it accepts says what the contract promises (a
// response it knows, insights with a UID, a level and a summary, identities
// unique within the answer and independent of the resources' order, an
// estimated finish that parses), and reads back the same once written.
// Discovery it accepts gives each handler a budget within the contract's.
func FuzzResponse(f *testing.F) {
	for _, s := range answerSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var status UpdateInsightsResponse
		if json.Unmarshal(body, &status) == nil {
			checkResponse(t, &status, status.Spec, status.Status)
		}
		var plan UpdatePlanInsightsResponse
		if json.Unmarshal(body, &plan) == nil {
			checkResponse(t, &plan, plan.Spec, plan.Status)
		}
		var discovery DiscoveryResponse
		if json.Unmarshal(body, &discovery) == nil {
			first := discovery.Validate()
			if again := discovery.Validate(); !sameError(first, again) {
				t.Fatalf("validation said %v, then %v", first, again)
			}
			if first == nil {
				for _, name := range handlerNames {
					h, ok := discovery.Handler(name)
					if timeout := h.Timeout(); ok && (timeout < MinTimeoutSeconds*time.Second || timeout > MaxTimeoutSeconds*time.Second) {
						t.Errorf("handler %s has a budget of %s", name, timeout)
					}
				}
			}
		}
	})
}

func checkResponse[T interface{ Validate() error }](t *testing.T, answer T, spec ResponseSpec, status ResponseStatus) {
	t.Helper()
	first := answer.Validate()
	if again := answer.Validate(); !sameError(first, again) {
		t.Fatalf("validation said %v, then %v", first, again)
	}
	if first != nil {
		return
	}
	if !slices.Contains(responses, status.Response) {
		t.Errorf("accepted response %q", status.Response)
	}
	identities := map[string]bool{}
	for _, insight := range spec.Insights {
		if insight.UID == "" || insight.Impact.Summary == "" || !slices.Contains(levels, insight.Impact.Level) {
			t.Errorf("accepted insight %+v", insight)
		}
		if _, _, err := EstimatedFinish(insight); err != nil {
			t.Errorf("accepted insight %q whose estimated finish is refused: %v", insight.UID, err)
		}
		id := Identity("informer", insight)
		if identities[id] {
			t.Errorf("accepted two insights of identity %q", id)
		}
		identities[id] = true
		reversed := insight
		reversed.Scope.Resources = slices.Clone(insight.Scope.Resources)
		slices.Reverse(reversed.Scope.Resources)
		if other := Identity("informer", reversed); other != id {
			t.Errorf("identity %q depends on the resources' order: %q", id, other)
		}
	}
	written, err := json.Marshal(answer)
	if err != nil {
		t.Fatalf("writing an accepted answer: %v", err)
	}
	read := new(T)
	if err := json.Unmarshal(written, read); err != nil {
		t.Fatalf("reading back %s: %v", written, err)
	}
	if err := (*read).Validate(); err != nil {
		t.Errorf("%s, written back, is refused: %v", written, err)
	}
	again, err := json.Marshal(*read)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(written), string(again)); diff != "" {
		t.Errorf("written, read back and written again (-first +second):\n%s", diff)
	}
}

func sameError(a, b error) bool {
	return (a == nil) == (b == nil) && (a == nil || a.Error() == b.Error())
}

// FuzzEstimatedFinish reads arbitrary estimated finishes, from arbitrary
// acquisition times: a finish is a time, or an error, never both, and
// never before an acquisition time it counts from.
func FuzzEstimatedFinish(f *testing.F) {
	minUnix := time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	maxUnix := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC).Unix()
	for _, s := range []string{"", "15m", "2024-08-02T10:41:00Z", "-1s", "1h30m", "soon", "2024-08-02T10:41:00+02:00", "9223372036s"} {
		f.Add(s, int64(1722592800), true)
	}
	f.Fuzz(func(t *testing.T, value string, acquired int64, hasAcquisition bool) {
		insight := Insight{UID: "u", Remediation: Remediation{EstimatedFinish: value}}
		if hasAcquisition {
			// An acquisition time arrives as RFC 3339, years 0 to 9999.
			insight.AcquisitionTime = &metav1.Time{Time: time.Unix(minUnix+(acquired%(maxUnix-minUnix)+(maxUnix-minUnix))%(maxUnix-minUnix), 0)}
		}
		finish, ok, err := EstimatedFinish(insight)
		switch {
		case err != nil && (ok || !finish.IsZero()):
			t.Fatalf("%q: both %s and %v", value, finish, err)
		case ok && value == "":
			t.Fatalf("no estimate, yet %s", finish)
		case ok && hasAcquisition && finish.Before(insight.AcquisitionTime.Time):
			if _, parseErr := time.Parse(time.RFC3339, value); parseErr != nil {
				t.Errorf("duration %q from %s ends before, at %s", value, insight.AcquisitionTime, finish)
			}
		}
	})
}
