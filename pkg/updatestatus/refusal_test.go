package updatestatus

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

func TestRefusedInformers(t *testing.T) {
	status := &insightsv1alpha1.UpdateStatusStatus{
		ControlPlane: insightsv1alpha1.ControlPlaneUpdateStatus{Informers: []insightsv1alpha1.InformerInsights{{Name: "a"}, {Name: "b"}}},
		WorkerPools: []insightsv1alpha1.WorkerPoolUpdateStatus{
			{Informers: []insightsv1alpha1.InformerInsights{{Name: "c"}}},
			{Informers: []insightsv1alpha1.InformerInsights{{Name: "d"}, {Name: "b"}}},
		},
	}
	for _, tc := range []struct {
		name   string
		fields []string
		want   []string
	}{
		{name: "a control plane insight's field", fields: []string{"status.controlPlane.informers[1].insights[3].uid"}, want: []string{"b"}},
		{name: "an informer's entry", fields: []string{"status.workerPools[1].informers[0]"}, want: []string{"d"}},
		{name: "an informer in several places, once", fields: []string{"status.controlPlane.informers[1].insights[0]", "status.workerPools[1].informers[1].insights[2].impact.summary"}, want: []string{"b"}},
		{name: "fields of no informer", fields: []string{"status.conditions[0].message", "status", "metadata.name", ""}},
		{name: "indices out of range", fields: []string{"status.controlPlane.informers[7]", "status.workerPools[5].informers[0]"}},
		{name: "several", fields: []string{"status.workerPools[0].informers[0].insights[0]", "status.controlPlane.informers[0].insights[1]"}, want: []string{"a", "c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, RefusedInformers(tc.fields, InformerAt(status))); diff != "" {
				t.Errorf("RefusedInformers (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRefusalsLastUntilTheAnswerChanges(t *testing.T) {
	bad := Answer{Informer: "bad", Insights: []insightsv1alpha1.UpdateInsight{insight("poison", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.WarningInsightLevel)}}
	good := Answer{Informer: "good", Insights: []insightsv1alpha1.UpdateInsight{insight("a", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.WarningInsightLevel)}}
	r := Refusals{}
	if got := r.Refuse([]Answer{bad, good}, []string{"bad"}, "status.controlPlane.informers[0].insights[0]: Invalid value"); !slices.Equal(got, []string{"bad"}) {
		t.Fatalf("Refuse returned %v, want [bad]", got)
	}

	got := r.Apply([]Answer{bad, good})
	want := []Answer{
		{Informer: "bad", Refused: true, Offline: RefusedReason, Problem: "the API server refused a status holding its insights, which are left out until it answers differently: status.controlPlane.informers[0].insights[0]: Invalid value"},
		good,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the same answer again (-want +got):\n%s", diff)
	}

	changed := Answer{Informer: "bad", Insights: []insightsv1alpha1.UpdateInsight{insight("b", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.WarningInsightLevel)}}
	if diff := cmp.Diff([]Answer{changed, good}, r.Apply([]Answer{changed, good})); diff != "" {
		t.Errorf("another answer (-want +got):\n%s", diff)
	}
	if len(r) != 0 {
		t.Errorf("the refusal of an answer since changed is remembered: %v", r)
	}

	r.Refuse([]Answer{bad}, []string{"bad"}, "refused")
	r.Apply([]Answer{good})
	if len(r) != 0 {
		t.Errorf("the refusal of an informer no longer answering is remembered: %v", r)
	}
}

func TestObjectRefused(t *testing.T) {
	resource := schema.GroupResource{Group: insightsv1alpha1.GroupName, Resource: "updatestatuses"}
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{name: "invalid", err: apierrors.NewInvalid(schema.GroupKind{Group: insightsv1alpha1.GroupName, Kind: "UpdateStatus"}, "cluster", field.ErrorList{field.Invalid(field.NewPath("status", "controlPlane"), "", "too many")}), want: true},
		{name: "bad request", err: apierrors.NewBadRequest("the body is not JSON"), want: true},
		{name: "entity too large", err: apierrors.NewRequestEntityTooLargeError("limit is 3145728"), want: true},
		// As the API server answers a write etcd's client refuses.
		{name: "gRPC's limit", err: apierrors.NewInternalError(errors.New("rpc error: code = ResourceExhausted desc = trying to send message larger than max (2230620 vs. 2097152)")), want: true},
		{name: "etcd's limit", err: apierrors.NewInternalError(errors.New("etcdserver: request is too large")), want: true},
		{name: "conflict", err: apierrors.NewConflict(resource, "cluster", errors.New("the object has been modified"))},
		{name: "timeout", err: apierrors.NewTimeoutError("the server was too slow", 1)},
		{name: "unavailable", err: apierrors.NewServiceUnavailable("etcd is down")},
		{name: "other internal error", err: apierrors.NewInternalError(errors.New("etcdserver: leader changed"))},
		{name: "forbidden", err: apierrors.NewForbidden(resource, "cluster", errors.New("RBAC"))},
		{name: "no API status", err: errors.New("connection refused")},
		{name: "none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ObjectRefused(tc.err); got != tc.want {
				t.Errorf("ObjectRefused(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}

func TestRefusalsNotes(t *testing.T) {
	r := Refusals{}
	r.Refuse([]Answer{{Informer: "large"}, {Informer: "good"}}, []string{"large"}, "request is too large")
	want := map[string]string{"large": "its insights are left out until it answers differently: the API server refused a status holding them: request is too large"}
	if diff := cmp.Diff(want, r.Notes()); diff != "" {
		t.Errorf("Notes (-want +got):\n%s", diff)
	}
}
