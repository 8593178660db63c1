package integration

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer"
	"github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

// The failures of an informer the operator calls, through the operator
// and a real API server: what its UpdateInformer says, and what
// UpdateStatus keeps of it.

// waitForOnline waits until the informer's conditions are as said: Online
// (status/reason) with a message that says message, and Discovered
// (status/reason).
func waitForOnline(t *testing.T, what, name, online, message, discovered string) {
	t.Helper()
	waitFor(t, eventually, what+": Online "+online+" saying "+message+", Discovered "+discovered, getInformer(name), func(i *insightsv1alpha1.UpdateInformer) bool {
		if i == nil || onlineReason(i) != online {
			return false
		}
		c := meta.FindStatusCondition(i.Status.Conditions, insightsv1alpha1.InformerOnline)
		d := meta.FindStatusCondition(i.Status.Conditions, insightsv1alpha1.InformerDiscovered)
		return strings.Contains(c.Message, message) && d != nil && string(d.Status)+"/"+d.Reason == discovered
	})
}

// informerOf is an UpdateInformer of the test informer f, at its loopback
// URL, whose certificate ca verifies.
func informerOf(name string, f *testInformer, ca []byte) *insightsv1alpha1.UpdateInformer {
	i := urlInformer(name, "https://"+f.addr)
	i.Spec.ClientConfig.CABundle = ca
	return i
}

func TestAnInformerThatFailsKeepsItsInsightsStaleUntilItIsDeleted(t *testing.T) {
	deleteUpdateStatusAtEnd(t)
	createClusterVersion(t, nil, midUpdateStatus())
	ca := informertest.NewCA(t)
	// Discovery announces a budget of one second for status, which the
	// operator keeps to.
	f := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")), informer.WithTimeout(protocol.HandlerStatus, time.Second))
	f.answer(0, protocol.ResponseSuccess, "a", "b")
	const name = "failing-informer"
	createInformer(t, informerOf(name, f, ca.PEM))
	startOperator(t, informerInterval)
	waitForInformer(t, "success", name, []string{"a", "b"}, false, "True/Called")

	oversized := []byte(`{"status":{"response":"Success"},"padding":"` + strings.Repeat("x", client.MaxResponseBytes) + `"}`)
	for _, step := range []struct {
		what            string
		fail            func()
		online, message string
	}{
		{"no answer within the budget", func() { f.answerSlowly(2 * time.Second) }, "False/Unreachable", "no answer within 1s"},
		{"garbage JSON", func() { f.answerRaw([]byte("{not JSON")) }, "False/Failure", "undecodable answer"},
		{"an answer over 4 MiB", func() { f.answerRaw(oversized) }, "False/Failure", "larger than the 4 MiB"},
	} {
		step.fail()
		waitForOnline(t, step.what, name, step.online, step.message, "True/Discovered")
		waitForInformer(t, step.what, name, []string{"a", "b"}, true, step.online)
		waitForOfflineInsight(t, step.what, name, true)

		// Each failure ends when the informer answers again, so that the
		// next one is seen for itself.
		f.answerSlowly(0)
		f.answerRaw(nil)
		waitForInformer(t, step.what+", then an answer", name, []string{"a", "b"}, false, "True/Called")
		waitForOfflineInsight(t, step.what+", then an answer", name, false)
	}

	// Deleted while offline, the informer leaves UpdateStatus, and so does
	// the operator's insight that it is offline.
	f.answer(0, protocol.ResponseFailure)
	waitForInformer(t, "failure before deletion", name, []string{"a", "b"}, true, "False/Failure")
	waitForOfflineInsight(t, "failure before deletion", name, true)
	if err := insightsClient.InsightsV1alpha1().UpdateInformers().Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitForInformer(t, "deleted", name, nil, false, "")
	waitForOfflineInsight(t, "deleted", name, false)

	// Re-created, it is called afresh.
	f.answer(0, protocol.ResponseSuccess, "c")
	createInformer(t, informerOf(name, f, ca.PEM))
	waitForInformer(t, "re-created", name, []string{"c"}, false, "True/Called")
}

func TestAnInformerWhoseDiscoveryGetsNoTrustedAnswerIsUnreachable(t *testing.T) {
	deleteUpdateStatusAtEnd(t)
	createClusterVersion(t, nil, midUpdateStatus())
	ca := informertest.NewCA(t)
	f := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	f.answer(0, protocol.ResponseSuccess, "a")
	const name = "untrusted-informer"
	createInformer(t, informerOf(name, f, informertest.NewCA(t).PEM))
	startOperator(t, informerInterval)

	// No answer it trusts: Unreachable, although it was discovery that
	// failed.
	waitForOnline(t, "a certificate of another CA at discovery", name, "False/Unreachable", "certificate signed by unknown authority", "False/DiscoveryFailed")
	waitForOfflineInsight(t, "a certificate of another CA at discovery", name, true)

	// The right CA is a new generation, which is discovered.
	i, err := insightsClient.InsightsV1alpha1().UpdateInformers().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	i.Spec.ClientConfig.CABundle = ca.PEM
	if _, err := insightsClient.InsightsV1alpha1().UpdateInformers().Update(context.Background(), i, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitForOnline(t, "the right CA", name, "True/Called", "", "True/Discovered")
	waitForInformer(t, "the right CA", name, []string{"a"}, false, "True/Called")
	waitForOfflineInsight(t, "the right CA", name, false)
}

// An UpdateInformer's URL may lead to a server that is no informer: the
// API server itself, whose answer to the operator's anonymous call says
// who asked for what. Its body stays out of the UpdateInformer's
// conditions, which everyone who may read UpdateInformers sees; the
// conditions say the status of the answer only.
func TestAnErrorAnswersBodyStaysOutOfTheConditions(t *testing.T) {
	createClusterVersion(t, nil, midUpdateStatus())
	const name = "api-server-informer"
	i := urlInformer(name, operatorConfig.Host)
	i.Spec.ClientConfig.CABundle = operatorConfig.CAData
	createInformer(t, i)
	startOperator(t, informerInterval)

	var conditions []metav1.Condition
	waitFor(t, eventually, "discovery failed on the API server's answer", getInformer(name), func(i *insightsv1alpha1.UpdateInformer) bool {
		if i == nil {
			return false
		}
		d := meta.FindStatusCondition(i.Status.Conditions, insightsv1alpha1.InformerDiscovered)
		conditions = i.Status.Conditions
		return d != nil && d.Reason == "DiscoveryFailed"
	})
	for _, c := range conditions {
		// The API server's error answers are Status objects: kind,
		// message, and the user the request was made as.
		for _, leaked := range []string{`"kind"`, "Status", "system:anonymous", "forbidden", "cannot get path"} {
			if strings.Contains(c.Message, leaked) {
				t.Errorf("condition %s says %q, of the API server's answer: %s", c.Type, leaked, c.Message)
			}
		}
		t.Logf("%s=%s (%s) %s", c.Type, c.Status, c.Reason, c.Message)
	}
}
