package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"unicode/utf8"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// The bounds the operator holds UpdateStatus to, whatever the informers
// send: each test has an informer that sends what the contract allows, or
// more, beside a well-behaved one whose new answer must reach UpdateStatus
// while the other goes on.

// onlineMessage is the message of the informer's Online condition.
func onlineMessage(i *insightsv1alpha1.UpdateInformer) string {
	if i == nil {
		return ""
	}
	if c := meta.FindStatusCondition(i.Status.Conditions, insightsv1alpha1.InformerOnline); c != nil {
		return c.Message
	}
	return ""
}

// waitForOnlineMessage waits until the informer's Online condition is as
// said (status/reason) and its message says message.
func waitForOnlineMessage(t *testing.T, what, name, online, message string) {
	t.Helper()
	waitFor(t, eventually, what+": Online "+online+" saying "+message, getInformer(name), func(i *insightsv1alpha1.UpdateInformer) bool {
		return onlineReason(i) == online && strings.Contains(onlineMessage(i), message)
	})
}

// waitForIncomplete waits until UpdateStatus' InsightsComplete is False
// saying message.
func waitForIncomplete(t *testing.T, what, message string) *insightsv1alpha1.UpdateStatus {
	t.Helper()
	return waitFor(t, eventually, what+": InsightsComplete=False saying "+message, getUpdateStatus, func(s *insightsv1alpha1.UpdateStatus) bool {
		if s == nil {
			return false
		}
		complete := meta.FindStatusCondition(s.Status.Conditions, updatestatus.ConditionInsightsComplete)
		return complete != nil && complete.Status == metav1.ConditionFalse && strings.Contains(complete.Message, message)
	})
}

// workerPoolFlood is n info insights about the worker pool, each with a
// description of the length the contract allows.
func workerPoolFlood(n int) []protocol.Insight {
	pool := protocol.Resource{Group: machineconfigurationv1.GroupName, Kind: "MachineConfigPool", Name: nodes.WorkerPool}
	var out []protocol.Insight
	for i := range n {
		out = append(out, protocol.Insight{
			UID:    fmt.Sprintf("flood-%03d", i),
			Scope:  protocol.Scope{Type: protocol.ScopeWorkerPool, WorkerPool: []protocol.Resource{pool}, Resources: []protocol.Resource{pool}},
			Impact: protocol.Impact{Level: protocol.LevelInfo, Type: protocol.ImpactUpdateSpeed, Summary: fmt.Sprintf("Flood %d", i), Description: strings.Repeat("d", 4096)},
		})
	}
	return out
}

// An informer that sends 500 worker-pool insights with descriptions of
// 4,096 characters, within every bound of one insight, sends 2 MB: more
// than etcd takes in one request. It is cut to its share of UpdateStatus'
// size budget and says so, and the others' answers are written.
func TestAnInformerOverItsShareOfTheSizeBudgetIsCutAndTheOthersAreWritten(t *testing.T) {
	deleteUpdateStatusAtEnd(t)
	t.Cleanup(func() { deleteNodeInsights(t) })
	createClusterVersion(t, nil, midUpdateStatus())
	createPool(t, nodes.WorkerPool)
	ca := informertest.NewCA(t)
	good := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	good.answer(0, protocol.ResponseSuccess, "a")
	flood := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	flood.answerInsights(workerPoolFlood(500))
	createInformer(t, informerOf("good-informer", good, ca.PEM))
	createInformer(t, informerOf("flood-informer", flood, ca.PEM))
	startOperator(t, informerInterval)

	waitForInformer(t, "beside the flood", "good-informer", []string{"a"}, false, "True/Called")
	good.answer(0, protocol.ResponseSuccess, "a2")
	waitForInformer(t, "a new answer beside the flood", "good-informer", []string{"a2"}, false, "True/Called")
	waitForOnlineMessage(t, "the flood cut", "flood-informer", "True/Called", "cut to keep UpdateStatus within its size budget")
	s := waitForIncomplete(t, "the flood cut", "flood-informer: ")
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) > updatestatus.MaxStatusBytes {
		t.Errorf("UpdateStatus is %d bytes of JSON, over the budget of %d", len(raw), updatestatus.MaxStatusBytes)
	}
	var kept int
	for _, p := range s.Status.WorkerPools {
		for _, i := range p.Informers {
			if i.Name == "flood-informer" {
				kept = len(i.Insights)
			}
		}
	}
	if kept == 0 || kept >= 500 {
		t.Errorf("UpdateStatus keeps %d of the flood's 500 insights, want some cut and some kept", kept)
	}
	t.Logf("UpdateStatus: %d bytes of JSON, %d of the flood's 500 insights kept; flood-informer Online: %q", len(raw), kept, onlineMessage(mustGet(t, getInformer("flood-informer"))))
}

func mustGet[T any](t *testing.T, get func(context.Context) (*T, error)) *T {
	t.Helper()
	o, err := get(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// theTestsBound is the message of the rule addControlPlaneRule adds.
const theTestsBound = "the test allows at most 20 insights an informer"

// addControlPlaneRule makes the API server refuse, until the test ends, an
// UpdateStatus whose control plane holds more than 20 insights of one
// informer: a rule on the control plane as a whole, which the API server
// reports at status.controlPlane, outside every informer's entry, and which
// stands for any bound the operator does not know of (a smaller request
// limit of etcd, say).
func addControlPlaneRule(t *testing.T) {
	t.Helper()
	rule := apiextensionsv1.ValidationRule{Rule: "!has(self.informers) || self.informers.all(i, !has(i.insights) || size(i.insights) <= 20)", Message: theTestsBound}
	refuses := func(ctx context.Context) (bool, error) {
		statuses := insightsClient.InsightsV1alpha1().UpdateStatuses()
		current, err := statuses.Get(ctx, insightsv1alpha1.UpdateStatusName, metav1.GetOptions{})
		if err != nil {
			created, cerr := statuses.Create(ctx, &insightsv1alpha1.UpdateStatus{ObjectMeta: metav1.ObjectMeta{Name: insightsv1alpha1.UpdateStatusName}}, metav1.CreateOptions{})
			if cerr != nil {
				return false, cerr
			}
			defer func() { _ = statuses.Delete(context.Background(), created.Name, metav1.DeleteOptions{}) }()
			current = created
		}
		attempt := current.DeepCopy()
		probe := insightsv1alpha1.InformerInsights{Name: "probe"}
		for i := range 21 {
			insight := poisonInsight()
			insight.UID = fmt.Sprintf("probe-%d", i)
			probe.Insights = append(probe.Insights, insight)
		}
		attempt.Status.ControlPlane.Informers = []insightsv1alpha1.InformerInsights{probe}
		_, err = statuses.UpdateStatus(ctx, attempt, metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
		return err != nil && strings.Contains(err.Error(), theTestsBound), nil
	}
	ruleUntilTheEnd(t, updateStatusCRD, func(status *apiextensionsv1.JSONSchemaProps, add bool) {
		controlPlane := status.Properties["controlPlane"]
		var rules apiextensionsv1.ValidationRules
		for _, r := range controlPlane.XValidations {
			if r.Message != theTestsBound {
				rules = append(rules, r)
			}
		}
		if add {
			rules = append(rules, rule)
		}
		controlPlane.XValidations = rules
		status.Properties["controlPlane"] = controlPlane
	}, refuses)
}

// controlPlaneInsights are n warnings about the control plane, each with
// a description of size characters.
func controlPlaneInsights(prefix string, n, size int, level protocol.Level) []protocol.Insight {
	var out []protocol.Insight
	for i := range n {
		out = append(out, protocol.Insight{
			UID:    fmt.Sprintf("%s-%02d", prefix, i),
			Scope:  protocol.Scope{Type: protocol.ScopeControlPlane},
			Impact: protocol.Impact{Level: level, Type: protocol.ImpactUpdateSpeed, Summary: prefix + " says so", Description: strings.Repeat("d", size)},
		})
	}
	return out
}

// When the API server refuses UpdateStatus for a reason the operator
// cannot place in one informer's entry, the operator leaves out the
// largest contributor, says so on its UpdateInformer and in UpdateStatus,
// and writes the others.
func TestARefusalNoInformerIsNamedInShedsTheLargestContributor(t *testing.T) {
	deleteUpdateStatusAtEnd(t)
	createClusterVersion(t, nil, midUpdateStatus())
	addControlPlaneRule(t)
	ca := informertest.NewCA(t)
	good := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	good.answer(0, protocol.ResponseSuccess, "a")
	large := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	large.answerInsights(controlPlaneInsights("large", 30, 1000, protocol.LevelWarning))
	createInformer(t, informerOf("good-informer", good, ca.PEM))
	createInformer(t, informerOf("large-informer", large, ca.PEM))
	startOperator(t, informerInterval)

	waitForInformer(t, "beside the refused informer", "good-informer", []string{"a"}, false, "True/Called")
	good.answer(0, protocol.ResponseSuccess, "a2")
	waitForInformer(t, "a new answer beside the refused informer", "good-informer", []string{"a2"}, false, "True/Called")
	waitForOfflineInsight(t, "the largest contributor shed", "large-informer", true)
	waitForOnlineMessage(t, "the largest contributor shed", "large-informer", "True/Called", "the API server refused")
	s := waitForIncomplete(t, "the largest contributor shed", "large-informer: ")
	if got := uidsOf(reported(s, "large-informer")); len(got) != 0 {
		t.Errorf("UpdateStatus holds %v of the shed informer, want none", got)
	}

	t.Logf("large-informer Online: %q", onlineMessage(mustGet(t, getInformer("large-informer"))))

	large.answerInsights(controlPlaneInsights("large", 20, 1000, protocol.LevelWarning))
	waitForOfflineInsight(t, "the informer answers what the API server takes", "large-informer", false)
}

// Thirty-four informers, each with one insight about the control plane,
// and the operator's own: more than the 32 a part of UpdateStatus holds.
// The operator's own stays, then the most serious, then by name; those
// left out say so on their UpdateInformers, and UpdateStatus is written.
func TestInformersBeyondThirtyTwoAreLeftOutByRule(t *testing.T) {
	deleteUpdateStatusAtEnd(t)
	createClusterVersion(t, nil, midUpdateStatus())
	ca := informertest.NewCA(t)
	good := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	good.answer(0, protocol.ResponseSuccess, "a")
	createInformer(t, informerOf("good-informer", good, ca.PEM))
	const crowd = 33
	for i := range crowd {
		f := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
		f.answerInsights(controlPlaneInsights("crowd", 1, 10, protocol.LevelInfo))
		createInformer(t, informerOf(fmt.Sprintf("crowd-%02d", i), f, ca.PEM))
	}
	// Thirty-four informers called every quarter of a second would be
	// a hundred and thirty-six handshakes a second.
	startOperator(t, "--informer-interval=2s")

	waitForInformer(t, "beside the crowd", "good-informer", []string{"a"}, false, "True/Called")
	good.answer(0, protocol.ResponseSuccess, "a2")
	waitForInformer(t, "a new answer beside the crowd", "good-informer", []string{"a2"}, false, "True/Called")
	s := waitForIncomplete(t, "the crowd's last left out", "crowd-32: ")
	if own := reported(s, updatestatus.BuiltinInformer); own == nil {
		t.Errorf("UpdateStatus does not hold the operator's own informer")
	}
	if n := len(s.Status.ControlPlane.Informers); n != 32 {
		t.Errorf("the control plane holds %d informers, want 32", n)
	}
	left := 32 - 2 // the operator's own and the good informer are kept
	for i := range crowd {
		name := fmt.Sprintf("crowd-%02d", i)
		if i < left {
			if reported(s, name) == nil {
				t.Errorf("%s is left out, want it kept: it comes before the last by name", name)
			}
			continue
		}
		if reported(s, name) != nil {
			t.Errorf("%s is kept, want it left out: it comes last by name", name)
		}
		waitForOnlineMessage(t, "left out", name, "True/Called", "left out of the control plane")
	}
	t.Logf("crowd-32 Online: %q", onlineMessage(mustGet(t, getInformer("crowd-32"))))
}

// A summary of 1,000 characters, each two bytes in UTF-8, is cut to 256
// characters as the contract and the API count them, and the cut is
// counted in the informer's Online message.
func TestShortenedTextIsCutInCharactersAndCounted(t *testing.T) {
	deleteUpdateStatusAtEnd(t)
	createClusterVersion(t, nil, midUpdateStatus())
	ca := informertest.NewCA(t)
	good := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	good.answer(0, protocol.ResponseSuccess, "a")
	verbose := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	verbose.answerInsights([]protocol.Insight{{
		UID:    "verbose",
		Scope:  protocol.Scope{Type: protocol.ScopeControlPlane},
		Impact: protocol.Impact{Level: protocol.LevelWarning, Type: protocol.ImpactUpdateSpeed, Summary: strings.Repeat("é", 1000), Description: strings.Repeat("ü", 5000)},
	}})
	createInformer(t, informerOf("good-informer", good, ca.PEM))
	createInformer(t, informerOf("verbose-informer", verbose, ca.PEM))
	startOperator(t, informerInterval)

	waitForInformer(t, "beside the verbose informer", "good-informer", []string{"a"}, false, "True/Called")
	good.answer(0, protocol.ResponseSuccess, "a2")
	waitForInformer(t, "a new answer beside the verbose informer", "good-informer", []string{"a2"}, false, "True/Called")
	waitForInformer(t, "the verbose informer", "verbose-informer", []string{"verbose"}, false, "True/Called")
	waitForOnlineMessage(t, "the cuts counted", "verbose-informer", "True/Called", "1 summary cut to 256 characters")
	waitForOnlineMessage(t, "the cuts counted", "verbose-informer", "True/Called", "1 description cut to 4096 characters")
	s := waitForIncomplete(t, "the cuts counted", "verbose-informer: 1 summary cut to 256 characters")
	insight := findInsight(reported(s, "verbose-informer"), "verbose")
	if n := utf8.RuneCountInString(insight.Impact.Summary); n != 256 || !strings.HasSuffix(insight.Impact.Summary, "…") {
		t.Errorf("the summary is %d characters (%d bytes), want 256 ending with an ellipsis", n, len(insight.Impact.Summary))
	}
	if n := utf8.RuneCountInString(insight.Impact.Description); n != 4096 {
		t.Errorf("the description is %d characters (%d bytes), want 4096", n, len(insight.Impact.Description))
	}
	t.Logf("verbose-informer Online: %q; summary of %d characters", onlineMessage(mustGet(t, getInformer("verbose-informer"))), utf8.RuneCountInString(insight.Impact.Summary))
}

// An informer that sends 10 MB of insights, each within the bounds of one
// insight, sends more than the protocol's 4 MiB answer: its answer is a
// failure, its last good insights are kept, stale, and its UpdateInformer
// says why; the others' new answers are written meanwhile.
func TestTenMegabytesOfInsightsCostTheOthersNothing(t *testing.T) {
	deleteUpdateStatusAtEnd(t)
	t.Cleanup(func() { deleteNodeInsights(t) })
	createClusterVersion(t, nil, midUpdateStatus())
	createPool(t, nodes.WorkerPool)
	ca := informertest.NewCA(t)
	good := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	good.answer(0, protocol.ResponseSuccess, "a")
	flood := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	flood.answer(0, protocol.ResponseSuccess, "before-the-flood")
	createInformer(t, informerOf("good-informer", good, ca.PEM))
	createInformer(t, informerOf("flood-informer", flood, ca.PEM))
	startOperator(t, informerInterval)
	waitForInformer(t, "before the flood", "flood-informer", []string{"before-the-flood"}, false, "True/Called")

	insights := workerPoolFlood(2500)
	answer := protocol.UpdateInsightsResponse{Status: protocol.ResponseStatus{Response: protocol.ResponseSuccess}}
	answer.Spec.Insights = insights
	raw, err := json.Marshal(answer)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) < 10<<20 {
		t.Fatalf("the flood's answer is %d bytes, want 10 MiB or more", len(raw))
	}
	flood.answerInsights(insights)
	waitForOnlineMessage(t, "the flood refused", "flood-informer", "False/Failure", "larger than the 4 MiB the protocol allows")
	waitForInformer(t, "the flood refused", "flood-informer", []string{"before-the-flood"}, true, "False/Failure")
	good.answer(0, protocol.ResponseSuccess, "a2")
	waitForInformer(t, "a new answer beside the flood", "good-informer", []string{"a2"}, false, "True/Called")
	t.Logf("the flood's answer: %d bytes; flood-informer Online: %q", len(raw), onlineMessage(mustGet(t, getInformer("flood-informer"))))
}
