package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// planAnswer is what an informer started by startPlanInformerAnswering
// answers plans, which a test may change; nil answers an error.
type planAnswer struct {
	findings atomic.Pointer[[]protocol.Insight]
}

func (a *planAnswer) set(findings ...protocol.Insight) { a.findings.Store(&findings) }

// startPlanInformerAnswering starts an informer that handles plans,
// answering what answer holds.
func startPlanInformerAnswering(t *testing.T, name string, answer *planAnswer) {
	t.Helper()
	handler, err := informer.NewHandler(informertest.PlanFunc(func(context.Context, *protocol.UpdatePlanInsightsRequest) (*protocol.UpdatePlanInsightsResponse, error) {
		findings := answer.findings.Load()
		if findings == nil {
			return &protocol.UpdatePlanInsightsResponse{Status: protocol.ResponseStatus{Response: protocol.ResponseFailure, Message: "cannot tell"}}, nil
		}
		return &protocol.UpdatePlanInsightsResponse{Spec: protocol.ResponseSpec{Insights: *findings}, Status: protocol.ResponseStatus{Response: protocol.ResponseSuccess}}, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	ca := informertest.NewCA(t)
	server := informertest.NewTLSServer(t, handler, ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	createInformer(t, &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{URL: ptr.To(server.URL), CABundle: ca.PEM}},
	})
}

// startOperatorKnowing starts the operator and waits until it has
// discovered that each of the informers handles plans: a plan evaluated
// before would ask none of them.
func startOperatorKnowing(t *testing.T, informers ...string) {
	t.Helper()
	startOperator(t, informerInterval)
	for _, name := range informers {
		waitFor(t, eventually, name+" discovered as handling plans", getInformer(name), func(i *insightsv1alpha1.UpdateInformer) bool {
			return i != nil && slices.ContainsFunc(i.Status.Handlers, func(h insightsv1alpha1.InformerHandler) bool { return h.Name == insightsv1alpha1.PlanHandler })
		})
	}
}

// planFinding is a control-plane warning of a plan.
func planFinding(uid, summary string) protocol.Insight {
	return protocol.Insight{UID: uid, Scope: protocol.Scope{Type: protocol.ScopeControlPlane},
		Impact: protocol.Impact{Level: protocol.LevelWarning, Type: protocol.ImpactUpdateSpeed, Summary: summary}}
}

// acceptAll runs pre-checks accepting every finding the plan shows, and
// returns its output and exit code.
func acceptAll(t *testing.T) (string, int) {
	t.Helper()
	var ids []string
	for _, id := range planFindings(mustGet(t, getPlan(planTarget))) {
		ids = append(ids, strings.TrimSuffix(id, " (accepted)"))
	}
	out, errOut, code := command(t, "pre-checks", "--to", planTarget, "--accept", strings.Join(ids, ","))
	return out + errOut, code
}

// A finding the API would refuse (a uid over 256 characters) is left out
// of the plan, and said to be: the plan cannot be accepted, pre-checks
// exits non-zero naming it, and the informer's Online condition counts it;
// the well-behaved informer beside it is heard anew all the while.
func TestAPlanFindingLeftOutKeepsThePlanFromBeingAccepted(t *testing.T) {
	createClusterVersion(t, nil, plannedStatus())
	var good, wide planAnswer
	good.set(planFinding("g1", "good found g1"))
	longUID := strings.Repeat("u", 300)
	wide.set(planFinding("kept", "wide found kept"), planFinding(longUID, "wide found a long uid"))
	startPlanInformerAnswering(t, "good", &good)
	startPlanInformerAnswering(t, "wide", &wide)
	startOperatorKnowing(t, "good", "wide")
	deletePlanAtEnd(t, planTarget)
	plans := insightsClient.InsightsV1alpha1().UpdatePlans()
	if _, err := createAndDelete(t, plans.Create, plans.Delete, updatePlan(planTarget, planTarget)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, eventually, "the findings of both informers", getPlan(planTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		ids := strings.Join(planFindings(p), " ")
		return strings.Contains(ids, "good/ControlPlane//g1") && strings.Contains(ids, "wide/ControlPlane//kept")
	})

	good.set(planFinding("g2", "good found g2"))
	if out, errOut, _ := command(t, "pre-checks", "--to", planTarget); !strings.Contains(out, "good found g2") {
		t.Errorf("pre-checks evaluating afresh does not show good's new finding:\n%s\n%s", out, errOut)
	}
	out, code := acceptAll(t)
	if code == 0 || !strings.Contains(out, "FindingsCut") || !strings.Contains(out, "uid longer than 256 characters") {
		t.Errorf("pre-checks accepting every finding shown: exit %d, want non-zero, naming the finding left out:\n%s", code, out)
	}
	waitFor(t, eventually, "every shown finding accepted, the plan not", getPlan(planTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		for _, id := range planFindings(p) {
			if !strings.HasSuffix(id, " (accepted)") {
				return false
			}
		}
		return planCondition(p, "Accepted") == "False/FindingsCut"
	})
	waitForOnlineMessage(t, "the finding left out", "wide", "True/Called", "UpdatePlan "+planTarget+": 1 insights left out, which the API would refuse")
	t.Logf("pre-checks:\n%s", out)
}

// An informer answering 200 legal findings of 4,096 four-byte characters
// each (over 3 MB, under the protocol's 4 MiB; the 128 a plan's control
// plane holds take 2.1 MB) is cut to its share of the plan's size budget, and says
// so; the plan is written, with the well-behaved informer's new finding,
// and cannot be accepted while findings are cut.
func TestAPlanFloodIsCutToItsShareAndTheOthersAreWritten(t *testing.T) {
	createClusterVersion(t, nil, plannedStatus())
	var good, flood planAnswer
	good.set(planFinding("g1", "good found g1"))
	var findings []protocol.Insight
	for i := range 200 {
		f := planFinding(fmt.Sprintf("flood-%03d", i), "flood found one")
		f.Impact.Description = strings.Repeat("𝄞", 4096)
		findings = append(findings, f)
	}
	flood.set(findings...)
	startPlanInformerAnswering(t, "good", &good)
	startPlanInformerAnswering(t, "flood", &flood)
	startOperatorKnowing(t, "good", "flood")
	deletePlanAtEnd(t, planTarget)
	plans := insightsClient.InsightsV1alpha1().UpdatePlans()
	if _, err := createAndDelete(t, plans.Create, plans.Delete, updatePlan(planTarget, planTarget)); err != nil {
		t.Fatal(err)
	}
	// The operator knows both informers for the plan once it holds their
	// findings: a pre-check before that would ask neither.
	waitFor(t, eventually, "the findings of both informers", getPlan(planTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		ids := strings.Join(planFindings(p), " ")
		return strings.Contains(ids, "good/ControlPlane//g1") && strings.Contains(ids, "flood/ControlPlane//flood-")
	})
	good.set(planFinding("g2", "good found g2"))
	out, errOut, code := command(t, "pre-checks", "--to", planTarget)
	if code == 0 || !strings.Contains(out, "good found g2") || !strings.Contains(out, "FindingsCut") || !strings.Contains(out, "flood: ") {
		t.Errorf("pre-checks beside the flood: exit %d, want non-zero, good's new finding and the flood's cut:\n%s\n%s", code, out, errOut)
	}
	p := waitFor(t, eventually, "the flood cut", getPlan(planTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		return planCondition(p, "Accepted") == "False/FindingsCut"
	})
	raw, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) > updatestatus.MaxStatusBytes {
		t.Errorf("the plan is %d bytes of JSON, over %d", len(raw), updatestatus.MaxStatusBytes)
	}
	waitForOnlineMessage(t, "the flood cut", "flood", "True/Called", "cut to keep the plan within its size budget")
	t.Logf("UpdatePlan: %d bytes of JSON; flood Online: %q", len(raw), onlineMessage(mustGet(t, getInformer("flood"))))
}

// An informer that answers a fresh evaluation with a failure keeps the
// findings it gave the former one in the plan, stale, beside the
// operator's finding that it did not answer, while the well-behaved
// informer's new finding arrives.
func TestAPlanKeepsTheFindingsOfAnInformerThatAnswersBadlyStale(t *testing.T) {
	createClusterVersion(t, nil, plannedStatus())
	var good, flaky planAnswer
	good.set(planFinding("g1", "good found g1"))
	flaky.set(planFinding("f1", "flaky found f1"))
	startPlanInformerAnswering(t, "good", &good)
	startPlanInformerAnswering(t, "flaky", &flaky)
	startOperatorKnowing(t, "good", "flaky")
	deletePlanAtEnd(t, planTarget)
	if out, errOut, _ := command(t, "pre-checks", "--to", planTarget); !strings.Contains(out, "flaky found f1") {
		t.Fatalf("pre-checks does not show flaky's finding:\n%s\n%s", out, errOut)
	}

	good.set(planFinding("g2", "good found g2"))
	flaky.findings.Store(nil)
	out, errOut, code := command(t, "pre-checks", "--to", planTarget)
	for _, want := range []string{"good found g2", "flaky found f1", "Warning: flaky did not answer the last evaluation: its findings are from its last answer.", "Update informer flaky did not answer"} {
		if !strings.Contains(out, want) {
			t.Errorf("pre-checks after flaky failed does not say %q: exit %d\n%s\n%s", want, code, out, errOut)
		}
	}
	p := mustGet(t, getPlan(planTarget))
	for _, i := range p.Status.ControlPlane.Informers {
		if i.Name == "flaky" && (!i.Stale || len(i.Insights) != 1) {
			t.Errorf("flaky's entry: stale %v with %d findings, want its one finding, stale", i.Stale, len(i.Insights))
		}
	}
}

// A finding's summary over 256 characters is shortened, counted on the
// informer's Online condition, and blocks nothing: the finding is there to
// read and accept, and accepting every finding makes the plan accepted.
func TestAShortenedPlanFindingIsCountedAndAccepted(t *testing.T) {
	createClusterVersion(t, nil, plannedStatus())
	var good, verbose planAnswer
	good.set(planFinding("g1", "good found g1"))
	verbose.set(planFinding("long", strings.Repeat("é", 1000)))
	startPlanInformerAnswering(t, "good", &good)
	startPlanInformerAnswering(t, "verbose", &verbose)
	startOperatorKnowing(t, "good", "verbose")
	deletePlanAtEnd(t, planTarget)
	if out, errOut, _ := command(t, "pre-checks", "--to", planTarget); !strings.Contains(out, "good found g1") {
		t.Fatalf("pre-checks does not show good's finding:\n%s\n%s", out, errOut)
	}
	waitForOnlineMessage(t, "the summary shortened", "verbose", "True/Called", "UpdatePlan "+planTarget+": 1 summary cut to 256 characters")
	if out, code := acceptAll(t); code != 0 {
		t.Errorf("pre-checks accepting every finding: exit %d, want 0:\n%s", code, out)
	}
}

// An informer whose new findings the API server refuses keeps in the plan
// those of its the API server accepted, stale, while the well-behaved
// informer's new finding arrives; the refusal keeps the plan from being
// accepted.
func TestAPlanKeepsTheAcceptedFindingsOfAnInformerWhoseNewAreRefused(t *testing.T) {
	createClusterVersion(t, nil, plannedStatus())
	plans := insightsClient.InsightsV1alpha1().UpdatePlans()
	if _, err := createAndDelete(t, plans.Create, plans.Delete, updatePlan(planTarget, planTarget)); err != nil {
		t.Fatal(err)
	}
	refusePoison(t, "updateplans."+insightsv1alpha1.GroupName, planRefusesPoison(planTarget))
	var good, turning planAnswer
	good.set(planFinding("g1", "good found g1"))
	turning.set(planFinding("t1", "turning found t1"))
	startPlanInformerAnswering(t, "good", &good)
	startPlanInformerAnswering(t, "turning", &turning)
	startOperatorKnowing(t, "good", "turning")
	if out, errOut, _ := command(t, "pre-checks", "--to", planTarget); !strings.Contains(out, "turning found t1") {
		t.Fatalf("pre-checks does not show turning's finding:\n%s\n%s", out, errOut)
	}

	good.set(planFinding("g2", "good found g2"))
	turning.set(planFinding("t2", "turning found t2"), planFinding(poisonUID, "turning found the poison"))
	out, errOut, code := command(t, "pre-checks", "--to", planTarget)
	for _, want := range []string{"good found g2", "turning found t1"} {
		if !strings.Contains(out, want) {
			t.Errorf("pre-checks after turning's findings were refused does not say %q: exit %d\n%s\n%s", want, code, out, errOut)
		}
	}
	p := mustGet(t, getPlan(planTarget))
	for _, i := range p.Status.ControlPlane.Informers {
		if i.Name == "turning" && (!i.Stale || len(i.Insights) != 1 || i.Insights[0].UID != "t1") {
			t.Errorf("turning's entry: stale %v with %d findings, want t1, stale", i.Stale, len(i.Insights))
		}
	}
	if c := meta.FindStatusCondition(p.Status.Conditions, updateplan.ConditionAccepted); c == nil || c.Status == metav1.ConditionTrue {
		t.Errorf("Accepted %+v, want not True while turning's findings are refused", c)
	}
}
