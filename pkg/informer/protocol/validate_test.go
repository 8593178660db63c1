package protocol

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// The contract's examples, as JSON: the types must read them with the names
// the contract gives, and write them back the same.
func TestWireNames(t *testing.T) {
	tests := []struct {
		name string
		body string
		into interface{ Validate() error }
	}{
		{
			name: "discovery",
			body: `{"apiVersion":"config.openshift.io/v1beta1","kind":"DiscoveryResponse","apiLevel":"v1alpha",` +
				`"handlers":[{"name":"status","timeoutSeconds":10},{"name":"plan","timeoutSeconds":30}]}`,
			into: &DiscoveryResponse{},
		},
		{
			name: "insights request",
			body: `{"apiVersion":"config.openshift.io/v1beta1","kind":"UpdateInsightsRequest",` +
				`"spec":{"clusterID":"c1","controlPlaneVersion":"4.16.0","targetControlPlaneVersion":"4.17.0","informerUpdate":true}}`,
			into: &UpdateInsightsRequest{},
		},
		{
			name: "plan request",
			body: `{"apiVersion":"config.openshift.io/v1beta1","kind":"UpdatePlanInsightsRequest",` +
				`"spec":{"clusterID":"c1","controlPlaneVersion":"4.16.0","targetControlPlaneVersion":"4.17.0","informerUpdate":false}}`,
			into: &UpdatePlanInsightsRequest{},
		},
		{
			name: "insights response",
			body: `{"apiVersion":"config.openshift.io/v1beta1","kind":"UpdateInsightsResponse","spec":{"insights":[` +
				`{"uid":"cpu","acquisitionTime":"2024-08-02T10:00:00Z","scope":{"type":"ControlPlane","resources":[` +
				`{"kind":"Node","name":"ip-10-0-137-108.ec2.internal"},{"kind":"Pod","namespace":"a-namespace","name":"api-server"}]},` +
				`"impact":{"level":"warning","type":"API Availability","summary":"High control plane CPU during upgrade","description":"Abnormally high."},` +
				`"remediation":{"reference":"https://docs.example.com/cpu","resolved":false,"estimatedFinish":"2024-08-02T10:41:00Z"}},` +
				`{"uid":"reboot","acquisitionTime":"2024-08-02T10:00:00Z","scope":{"type":"WorkerPool",` +
				`"workerPool":[{"group":"machine.openshift.io","kind":"MachineSet","namespace":"openshift-machine-api","name":"my-machine-set"}],` +
				`"resources":[{"kind":"Node","name":"ip-10-0-137-108.ec2.internal"}]},` +
				`"impact":{"level":"status","summary":"Node rebooting"},"remediation":{"estimatedFinish":"15m"}}` +
				`]},"status":{"response":"Success"}}`,
			into: &UpdateInsightsResponse{},
		},
		{
			name: "plan response",
			body: `{"apiVersion":"config.openshift.io/v1beta1","kind":"UpdatePlanInsightsResponse","spec":{"insights":[]},` +
				`"status":{"response":"Wait","message":"building"}}`,
			into: &UpdatePlanInsightsResponse{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			decoder := json.NewDecoder(strings.NewReader(tt.body))
			decoder.DisallowUnknownFields()
			if err := decoder.Decode(tt.into); err != nil {
				t.Fatalf("decoding: %v", err)
			}
			if err := tt.into.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
			out, err := json.Marshal(tt.into)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.body, string(out)); diff != "" {
				t.Errorf("written back (-contract +got):\n%s", diff)
			}
		})
	}
}

func TestValidateResponse(t *testing.T) {
	acquired := metav1.NewTime(time.Date(2024, 8, 2, 10, 0, 0, 0, time.UTC))
	valid := func() Insight {
		return Insight{
			UID:             "a",
			AcquisitionTime: &acquired,
			Scope:           Scope{Type: ScopeControlPlane, Resources: []Resource{{Kind: "Node", Name: "master-0"}}},
			Impact:          Impact{Level: LevelWarning, Type: ImpactUpdateSpeed, Summary: "slow"},
			Remediation:     Remediation{Resolved: ptr.To(false), EstimatedFinish: "5m"},
		}
	}
	with := func(change func(*Insight)) Insight {
		i := valid()
		change(&i)
		return i
	}

	tests := []struct {
		name     string
		meta     TypeMeta
		insights []Insight
		status   ResponseStatus
		want     string
	}{
		{name: "valid", insights: []Insight{valid()}},
		{name: "no insights"},
		{
			name: "status level without impact type",
			insights: []Insight{with(func(i *Insight) {
				i.Impact = Impact{Level: LevelStatus, Summary: "Node rebooting"}
			})},
		},
		{
			name: "awaiting window",
			insights: []Insight{with(func(i *Insight) {
				i.Impact = Impact{Level: LevelStatus, Type: ImpactAwaitingWindow, Summary: "held until Saturday"}
			})},
		},
		{
			name:     "wrong kind",
			meta:     TypeMeta{APIVersion: APIVersion, Kind: KindUpdatePlanInsightsResponse},
			insights: []Insight{valid()},
			want:     `kind: Unsupported value: "UpdatePlanInsightsResponse": supported values: "UpdateInsightsResponse"`,
		},
		{
			name:     "wrong apiVersion",
			meta:     TypeMeta{APIVersion: "v1", Kind: KindUpdateInsightsResponse},
			insights: []Insight{valid()},
			want:     `apiVersion: Unsupported value: "v1": supported values: "config.openshift.io/v1beta1"`,
		},
		{
			name:     "missing uid",
			insights: []Insight{valid(), with(func(i *Insight) { i.UID = "" })},
			want:     "spec.insights[1].uid: Required value",
		},
		{
			name:     "duplicate identity",
			insights: []Insight{valid(), valid()},
			want:     `spec.insights[1].uid: Duplicate value: "a"`,
		},
		{
			name: "same uid in another scope",
			insights: []Insight{valid(), with(func(i *Insight) {
				i.Scope.Resources = []Resource{{Kind: "Node", Name: "master-1"}}
			})},
		},
		{
			name:     "unknown level",
			insights: []Insight{with(func(i *Insight) { i.Impact.Level = "fatal" })},
			want:     `spec.insights[0].impact.level: Unsupported value: "fatal"`,
		},
		{
			name:     "missing level",
			insights: []Insight{with(func(i *Insight) { i.Impact.Level = "" })},
			want:     "spec.insights[0].impact.level: Required value",
		},
		{
			name:     "unknown impact type",
			insights: []Insight{with(func(i *Insight) { i.Impact.Type = "api-availability" })},
			want:     `spec.insights[0].impact.type: Unsupported value: "api-availability"`,
		},
		{
			name:     "awaiting window above level status",
			insights: []Insight{with(func(i *Insight) { i.Impact.Type = ImpactAwaitingWindow })},
			want:     `spec.insights[0].impact.type: Invalid value: "Awaiting Window": only at level status`,
		},
		{
			name:     "blank summary",
			insights: []Insight{with(func(i *Insight) { i.Impact.Summary = " " })},
			want:     "spec.insights[0].impact.summary: Required value",
		},
		{
			name:     "unknown scope type",
			insights: []Insight{with(func(i *Insight) { i.Scope.Type = "Node" })},
			want:     `spec.insights[0].scope.type: Unsupported value: "Node"`,
		},
		{
			name: "worker pool objects in the control plane",
			insights: []Insight{with(func(i *Insight) {
				i.Scope.WorkerPool = []Resource{{Kind: "MachineSet", Name: "a"}}
			})},
			want: "spec.insights[0].scope.workerPool: Forbidden: only with type WorkerPool",
		},
		{
			name:     "resource without kind or name",
			insights: []Insight{with(func(i *Insight) { i.Scope.Resources = []Resource{{Namespace: "ns"}} })},
			want:     "spec.insights[0].scope.resources[0].kind: Required value; spec.insights[0].scope.resources[0].name: Required value",
		},
		{
			name:     "bad estimated finish",
			insights: []Insight{with(func(i *Insight) { i.Remediation.EstimatedFinish = "soon" })},
			want:     `spec.insights[0].remediation.estimatedFinish: Invalid value: "soon"`,
		},
		{
			name:     "estimated finish out of the API's range in UTC",
			insights: []Insight{with(func(i *Insight) { i.Remediation.EstimatedFinish = "9999-12-31T23:00:00-01:30" })},
			want:     `spec.insights[0].remediation.estimatedFinish: Invalid value: "9999-12-31T23:00:00-01:30": estimatedFinish "9999-12-31T23:00:00-01:30" is 10000-01-01T00:30:00Z in UTC, out of the range the API stores (years 1 to 9999 in UTC)`,
		},
		{
			name: "acquisition time out of the API's range in UTC",
			insights: []Insight{with(func(i *Insight) {
				i.AcquisitionTime = &metav1.Time{Time: time.Date(0, 1, 1, 0, 0, 0, 0, time.FixedZone("", 60))}
				i.Remediation.EstimatedFinish = ""
			})},
			want: `spec.insights[0].acquisitionTime: Invalid value: "-0001-12-31T23:59:00Z": acquisitionTime is -0001-12-31T23:59:00Z in UTC, out of the range the API stores (years 1 to 9999 in UTC)`,
		},
		{
			name:   "missing response",
			status: ResponseStatus{Message: "hello"},
			want:   "status.response: Required value",
		},
		{
			name:   "unknown response",
			status: ResponseStatus{Response: "Maybe"},
			want:   `status.response: Unsupported value: "Maybe"`,
		},
		{
			name:     "many problems",
			insights: []Insight{{}, {}},
			want:     "spec.insights[1].uid: Required value (and 3 more)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			response := UpdateInsightsResponse{
				TypeMeta: TypeMeta{APIVersion: APIVersion, Kind: KindUpdateInsightsResponse},
				Spec:     ResponseSpec{Insights: tt.insights},
				Status:   ResponseStatus{Response: ResponseSuccess},
			}
			if tt.meta != (TypeMeta{}) {
				response.TypeMeta = tt.meta
			}
			if tt.status != (ResponseStatus{}) {
				response.Status = tt.status
			}
			checkError(t, response.Validate(), tt.want)
		})
	}
}

func TestValidateDiscovery(t *testing.T) {
	meta := TypeMeta{APIVersion: APIVersion, Kind: KindDiscoveryResponse}
	tests := []struct {
		name      string
		discovery DiscoveryResponse
		want      string
	}{
		{name: "both handlers", discovery: DiscoveryResponse{TypeMeta: meta, APILevel: APILevel,
			Handlers: []Handler{{Name: HandlerStatus, TimeoutSeconds: 1}, {Name: HandlerPlan, TimeoutSeconds: 30}}}},
		{name: "default timeout", discovery: DiscoveryResponse{TypeMeta: meta, APILevel: APILevel, Handlers: []Handler{{Name: HandlerStatus}}}},
		{name: "no handlers", discovery: DiscoveryResponse{TypeMeta: meta, APILevel: APILevel}},
		{name: "other API level", discovery: DiscoveryResponse{TypeMeta: meta, APILevel: "v1"},
			want: `apiLevel: Unsupported value: "v1": supported values: "v1alpha"`},
		{name: "unknown handler", discovery: DiscoveryResponse{TypeMeta: meta, APILevel: APILevel, Handlers: []Handler{{Name: "precheck"}}},
			want: `handlers[0].name: Unsupported value: "precheck"`},
		{name: "duplicate handler", discovery: DiscoveryResponse{TypeMeta: meta, APILevel: APILevel,
			Handlers: []Handler{{Name: HandlerStatus}, {Name: HandlerStatus}}},
			want: `handlers[1].name: Duplicate value: "status"`},
		{name: "timeout too long", discovery: DiscoveryResponse{TypeMeta: meta, APILevel: APILevel,
			Handlers: []Handler{{Name: HandlerStatus, TimeoutSeconds: 31}}},
			want: "handlers[0].timeoutSeconds: Invalid value: 31: must be from 1 to 30"},
		{name: "negative timeout", discovery: DiscoveryResponse{TypeMeta: meta, APILevel: APILevel,
			Handlers: []Handler{{Name: HandlerStatus, TimeoutSeconds: -1}}},
			want: "handlers[0].timeoutSeconds: Invalid value: -1: must be from 1 to 30"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkError(t, tt.discovery.Validate(), tt.want)
		})
	}
}

func TestHandlerTimeout(t *testing.T) {
	d := DiscoveryResponse{Handlers: []Handler{{Name: HandlerStatus}, {Name: HandlerPlan, TimeoutSeconds: 30}}}
	got := map[HandlerName]time.Duration{}
	for _, name := range []HandlerName{HandlerStatus, HandlerPlan} {
		if h, ok := d.Handler(name); ok {
			got[name] = h.Timeout()
		}
	}
	want := map[HandlerName]time.Duration{HandlerStatus: 10 * time.Second, HandlerPlan: 30 * time.Second}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("timeouts (-want +got):\n%s", diff)
	}
}

func TestValidatePlanRequest(t *testing.T) {
	r := UpdatePlanInsightsRequest{TypeMeta: TypeMeta{APIVersion: APIVersion, Kind: KindUpdatePlanInsightsRequest}}
	checkError(t, r.Validate(), "spec.targetControlPlaneVersion: Required value")
	r.Spec.TargetControlPlaneVersion = "4.17.0"
	checkError(t, r.Validate(), "")
}

// checkError fails unless err is nil when want is empty, or says want.
func checkError(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("unexpected error: %v", err)
	case want != "" && err == nil:
		t.Errorf("no error, want one saying %q", want)
	case want != "" && !strings.Contains(err.Error(), want):
		t.Errorf("error %q does not say %q", err, want)
	}
}
