package updateinformers

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clocktesting "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

func TestPlanAsker(t *testing.T) {
	cv := &configv1.ClusterVersion{
		Spec:   configv1.ClusterVersionSpec{ClusterID: "cluster-1"},
		Status: configv1.ClusterVersionStatus{History: []configv1.UpdateHistory{{Version: "4.16.3", State: configv1.CompletedUpdate}}},
	}
	unfitInsight := insight("bad-reference", nil)
	unfitInsight.Remediation.Reference = "not a url"
	tests := []struct {
		name    string
		answer  informertest.PlanFunc
		trust   bool
		want    []string
		offline string
		problem string
	}{
		{
			name: "findings, one the API would refuse left out", trust: true,
			answer: func(_ context.Context, req *protocol.UpdatePlanInsightsRequest) (*protocol.UpdatePlanInsightsResponse, error) {
				return &protocol.UpdatePlanInsightsResponse{
					Spec:   protocol.ResponseSpec{Insights: []protocol.Insight{insight("drain-"+req.Spec.TargetControlPlaneVersion+"-"+req.Spec.ControlPlaneVersion, nil), unfitInsight}},
					Status: protocol.ResponseStatus{Response: protocol.ResponseSuccess},
				}, nil
			},
			want:    []string{"drain-4.17.2-4.16.3"},
			problem: `1 insights left out, which the API would refuse: insight "bad-reference": `,
		},
		{
			name: "an answered Failure", trust: true,
			answer: func(context.Context, *protocol.UpdatePlanInsightsRequest) (*protocol.UpdatePlanInsightsResponse, error) {
				return &protocol.UpdatePlanInsightsResponse{Status: protocol.ResponseStatus{Response: protocol.ResponseFailure, Message: "cannot read pools"}}, nil
			},
			offline: "Failure",
		},
		{
			name: "a server the CA does not vouch for",
			answer: func(context.Context, *protocol.UpdatePlanInsightsRequest) (*protocol.UpdatePlanInsightsResponse, error) {
				t.Error("an untrusted server was sent the request")
				return nil, nil
			},
			offline: "Unreachable",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, ca := server(t, tt.answer)
			bundle := ca.PEM
			if !tt.trust {
				bundle = informertest.NewCA(t).PEM
			}
			i := urlInformer("mco", srv.URL, bundle)
			i.Status.Handlers = []insightsv1alpha1.InformerHandler{{Name: insightsv1alpha1.PlanHandler, TimeoutSeconds: 5}}
			kube := kubefake.NewSimpleClientset()
			asker := NewPlanAsker(kube.CoreV1(), kube.DiscoveryV1(), client.NewLimit(MaxRequestsInFlight), clocktesting.NewFakeClock(time.Now()))
			got := asker.AskPlan(context.Background(), i, cv, "4.17.2")
			var uids []string
			for _, f := range got.Insights {
				uids = append(uids, f.UID)
			}
			if diff := cmp.Diff(tt.want, uids); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			if got.Informer != "mco" || got.Offline != tt.offline {
				t.Errorf("answer of %q offline %q (%s), want of mco offline %q", got.Informer, got.Offline, got.Problem, tt.offline)
			}
			if tt.problem != "" && (len(got.Problem) < len(tt.problem) || got.Problem[:len(tt.problem)] != tt.problem) {
				t.Errorf("problem %q, want it to start with %q", got.Problem, tt.problem)
			}
			if tt.offline != "" && got.Problem == "" {
				t.Error("an offline answer without its problem")
			}
		})
	}
}
