package integration

import (
	"context"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// TestStatusReadsTheInsightsFromTheCluster runs `update-insights-operator
// status` against the API server the operator writes to: once, and with
// --watch while a node finishes its update.
func TestStatusReadsTheInsightsFromTheCluster(t *testing.T) {
	// An insight left by an earlier test's operator would hide the case of
	// a cluster without one.
	err := insightsClient.InsightsV1alpha1().ClusterVersionProgressInsights().Delete(context.Background(), "version", metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	t.Run("without the ClusterVersion insight it says so in one line and fails", func(t *testing.T) {
		out, err := exec.Command(operatorBinary, "status", "--kubeconfig", kubeconfigPath).CombinedOutput()
		if err == nil || strings.Count(strings.TrimSpace(string(out)), "\n") != 0 || !strings.Contains(string(out), "no ClusterVersionProgressInsight found") {
			t.Errorf("status without insights: err %v, output %q; want a failure and one line saying so", err, out)
		}
	})

	startNodeOperator(t)
	createNode(t, "worker-0", atRest(oldWorkerConfig), nodes.WorkerPool)
	createNode(t, "worker-1", updatingTo(oldWorkerConfig, newWorkerConfig), nodes.WorkerPool)
	// Both nodes counted, worker-0 ready (a node's readiness comes after
	// the node itself) and worker-1 updating.
	waitFor(t, eventually, "the worker pool's insight to count both nodes", func(ctx context.Context) (*insightsv1alpha1.MachineConfigPoolProgressInsight, error) {
		return insightsClient.InsightsV1alpha1().MachineConfigPoolProgressInsights().Get(ctx, nodes.WorkerPool, metav1.GetOptions{})
	}, func(i *insightsv1alpha1.MachineConfigPoolProgressInsight) bool {
		if i == nil {
			return false
		}
		counts := map[insightsv1alpha1.NodeSummaryType]int32{}
		for _, s := range i.Status.Summaries {
			counts[s.Type] = s.Count
		}
		return counts[insightsv1alpha1.NodesTotal] == 2 && counts[insightsv1alpha1.NodesAvailable] == 1 && counts[insightsv1alpha1.NodesProgressing] == 1
	})

	waitForInsight(t, eventually, "Progressing", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentProgressing
	})

	t.Run("once", func(t *testing.T) {
		out, err := exec.Command(operatorBinary, "status", "--kubeconfig", kubeconfigPath, "--details=nodes").CombinedOutput()
		if err != nil {
			t.Fatalf("status: %v\n%s", err, out)
		}
		for _, want := range []string{
			`(?m)^= Control Plane =$`,
			`(?m)^Assessment: +Progressing$`,
			`(?m)^Target Version: +` + regexp.QuoteMeta(toVersion) + ` \(from ` + regexp.QuoteMeta(fromVersion) + `\)$`,
			`(?m)^worker +Progressing +0% \(0/2\) +`,
			`(?m)^Worker Pool Nodes: worker$`,
			`(?m)^worker-1 +Progressing +Updating +` + regexp.QuoteMeta(fromVersion) + ` +\+5m +$`,
			`(?m)^worker-0 +Outdated +Pending +` + regexp.QuoteMeta(fromVersion) + ` +\? +$`,
		} {
			if !regexp.MustCompile(want).Match(out) {
				t.Errorf("no line matching %s in:\n%s", want, out)
			}
		}
	})

	t.Run("watching while a node finishes", func(t *testing.T) {
		var out syncBuffer
		cmd := exec.Command(operatorBinary, "status", "--kubeconfig", kubeconfigPath, "--watch")
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = cmd.Process.Kill() }()
		waitForOutput(t, &out, "0% (0/2)")

		setNodeAnnotations(t, "worker-0", atRest(newWorkerConfig))
		// Through the watch, not a poll: the redraw follows the change.
		waitForOutput(t, &out, "50% (1/2)")

		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			t.Errorf("status --watch stopped by Ctrl-C: %v", err)
		}
	})
}

func waitForOutput(t *testing.T, out *syncBuffer, want string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 50*time.Millisecond, eventually, true, func(context.Context) (bool, error) {
		return strings.Contains(out.String(), want), nil
	})
	if err != nil {
		t.Fatalf("waiting for %q in the output of status --watch: %v\n%s", want, err, out.String())
	}
}
