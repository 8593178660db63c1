package integration

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

// A finding naming 31 nodes with AWS names has an identity over the 1,024
// characters an UpdatePlan holds: the plan is written all the same, with
// the identity shortened, and the administrator accepts the finding by it.
func TestAFindingOfManyNodesIsAcceptedByItsShortenedIdentity(t *testing.T) {
	createClusterVersion(t, nil, plannedStatus())
	var nodes []protocol.Resource
	for i := range 31 {
		nodes = append(nodes, protocol.Resource{Kind: "Node", Name: fmt.Sprintf("ip-10-0-%d-%d.us-east-2.compute.internal", 100+i, 10+i)})
	}
	answer := informertest.PlanFunc(func(context.Context, *protocol.UpdatePlanInsightsRequest) (*protocol.UpdatePlanInsightsResponse, error) {
		return &protocol.UpdatePlanInsightsResponse{
			Spec: protocol.ResponseSpec{Insights: []protocol.Insight{{
				UID:    "drain",
				Scope:  protocol.Scope{Type: protocol.ScopeControlPlane, Resources: nodes},
				Impact: protocol.Impact{Level: protocol.LevelWarning, Type: protocol.ImpactUpdateSpeed, Summary: "31 nodes will drain slowly"},
			}}},
			Status: protocol.ResponseStatus{Response: protocol.ResponseSuccess},
		}, nil
	})
	handler, err := informer.NewHandler(answer)
	if err != nil {
		t.Fatal(err)
	}
	ca := informertest.NewCA(t)
	server := informertest.NewTLSServer(t, handler, ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	createInformer(t, &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: "wide"},
		Spec:       insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{URL: ptr.To(server.URL), CABundle: ca.PEM}},
	})
	startOperator(t, informerInterval)
	deletePlanAtEnd(t, planTarget)
	plans := insightsClient.InsightsV1alpha1().UpdatePlans()
	if _, err := createAndDelete(t, plans.Create, plans.Delete, updatePlan(planTarget, planTarget)); err != nil {
		t.Fatal(err)
	}

	var identity string
	waitFor(t, eventually, "the wide finding in the plan", getPlan(planTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		for _, id := range planFindings(p) {
			if strings.HasPrefix(id, "wide/") {
				identity = id
				return true
			}
		}
		return false
	})
	if len(identity) > protocol.MaxIdentityLength || !strings.HasPrefix(identity, "wide/ControlPlane/Node/ip-10-0-100-10.us-east-2.compute.internal,") {
		t.Errorf("the finding's identity (%d bytes) is not bounded, or does not start with what it names: %s", len(identity), identity)
	}

	// The plan's other finding, a conditional update risk, stays
	// unaccepted: the command exits 1, and shows this one accepted.
	out, errOut, code := command(t, "pre-checks", "--to", planTarget, "--accept", identity)
	if code != 1 || !strings.Contains(out, "   wide                       Yes        31 nodes will drain slowly") {
		t.Errorf("accepting the finding by its identity: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	waitFor(t, eventually, "the finding accepted", getPlan(planTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		for _, id := range planFindings(p) {
			if id == identity+" (accepted)" {
				return true
			}
		}
		return false
	})
}
