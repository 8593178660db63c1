package integration

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/update-insights/update-insights-operator/pkg/hypershift"
	"github.com/update-insights/update-insights-operator/test/internal/hostedobjects"
)

// upgradeRun is what one `upgrade` run printed and its exit code.
type upgradeRun struct {
	stdout, stderr string
	code           int
}

func runUpgrade(t *testing.T, args ...string) upgradeRun {
	t.Helper()
	cmd := exec.Command(operatorBinary, append([]string{"upgrade", "--kubeconfig", kubeconfigPath}, args...)...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run()
	return upgradeRun{stdout: stdout.String(), stderr: stderr.String(), code: cmd.ProcessState.ExitCode()}
}

// TestUpgradeAHostedClusterFromTheManagementCluster updates a hosted
// cluster's control plane and then its NodePool through the `upgrade`
// command against a real API server serving HyperShift's shipped CRDs, and
// has it refuse what HyperShift would hold: a minor update while the guest
// says ClusterVersionUpgradeable=False (hostedcluster_controller.go
// isUpgrading), a NodePool ahead of its control plane (nodepool
// conditions.go supportedVersionSkewCondition).
func TestUpgradeAHostedClusterFromTheManagementCluster(t *testing.T) {
	installManagementCRDs(t)
	namespace := createTestNamespace(t, "clusters-")
	completed := time.Now().Add(-30 * 24 * time.Hour)
	offers := []any{
		map[string]any{"version": "4.17.3", "image": hostedobjects.ReleaseImages["4.17.3"]},
		map[string]any{"version": "4.18.1", "image": hostedobjects.ReleaseImages["4.18.1"]},
	}
	createHostedObject(t, hypershift.HostedClusters, hostedobjects.HostedCluster(namespace, "payments", "4.17.2", map[string]any{
		"conditions": []any{
			hostedobjects.Condition(hypershift.ClusterVersionUpgradeable, "False", "AdminAckRequired", "Kubernetes 1.31 removes APIs", completed),
		},
		"version": map[string]any{
			"desired":            map[string]any{"version": "4.17.2", "image": hostedobjects.ReleaseImages["4.17.2"]},
			"history":            []any{hostedobjects.HistoryEntry("4.17.2", "Completed", completed.Add(-time.Hour), &completed)},
			"observedGeneration": int64(1),
			"availableUpdates":   offers,
		},
	}))
	createHostedObject(t, hypershift.NodePools, hostedobjects.NodePool(namespace, "payments-workers", "payments", "4.17.2", "Replace", 2,
		map[string]any{"replicas": int64(2), "version": "4.17.2"}))
	releaseImage := func(resource, name string) string {
		t.Helper()
		u, err := dynamic.NewForConfigOrDie(testEnv.Config).Resource(hypershift.HostedClusters.GroupVersion().WithResource(resource)).Namespace(namespace).
			Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		image, _, _ := unstructured.NestedString(u.Object, "spec", "release", "image")
		return image
	}
	hostedCluster, nodePool := namespace+"/payments", namespace+"/payments-workers"

	for _, step := range []struct {
		name       string
		args       []string
		wantCode   int
		wantOutput string
		// wantCluster and wantNodePool are the releases spec.release.image
		// names after the step.
		wantCluster, wantNodePool string
	}{
		{
			name:        "a minor update while the guest is not upgradeable",
			args:        []string{"--hosted-cluster", hostedCluster, "--to", "4.18.1"},
			wantCode:    1,
			wantOutput:  "4.18.1 is a minor update, which HyperShift does not start while ClusterVersionUpgradeable is False (AdminAckRequired: Kubernetes 1.31 removes APIs)",
			wantCluster: "4.17.2", wantNodePool: "4.17.2",
		},
		{
			name:        "the NodePool ahead of its control plane",
			args:        []string{"--nodepool", nodePool, "--to", "4.17.3"},
			wantCode:    1,
			wantOutput:  "4.17.3 is not a release the control plane of " + hostedCluster + " runs or ran (4.17.2)",
			wantCluster: "4.17.2", wantNodePool: "4.17.2",
		},
		{
			name:        "a dry run of the patch update",
			args:        []string{"--hosted-cluster", hostedCluster, "--to", "4.17.3", "--dry-run"},
			wantOutput:  "Would set HostedCluster " + hostedCluster + "'s spec.release.image to " + hostedobjects.ReleaseImages["4.17.3"],
			wantCluster: "4.17.2", wantNodePool: "4.17.2",
		},
		{
			name:        "the patch update",
			args:        []string{"--hosted-cluster", hostedCluster, "--to", "4.17.3"},
			wantOutput:  "Requested update of HostedCluster " + hostedCluster + " to 4.17.3: spec.release.image is " + hostedobjects.ReleaseImages["4.17.3"],
			wantCluster: "4.17.3", wantNodePool: "4.17.2",
		},
		{
			name:        "asked again",
			args:        []string{"--hosted-cluster", hostedCluster, "--to", "4.17.3"},
			wantOutput:  "HostedCluster " + hostedCluster + " already asks for 4.17.3 in spec.release.image.",
			wantCluster: "4.17.3", wantNodePool: "4.17.2",
		},
	} {
		t.Run(step.name, func(t *testing.T) {
			run := runUpgrade(t, step.args...)
			if run.code != step.wantCode || !strings.Contains(run.stdout+run.stderr, step.wantOutput) {
				t.Errorf("upgrade %v exited %d, want %d, printing %q; it printed:\n%s%s", step.args, run.code, step.wantCode, step.wantOutput, run.stdout, run.stderr)
			}
			if got := releaseImage("hostedclusters", "payments"); got != hostedobjects.ReleaseImages[step.wantCluster] {
				t.Errorf("the HostedCluster's spec.release.image is %s, want %s's", got, step.wantCluster)
			}
			if got := releaseImage("nodepools", "payments-workers"); got != hostedobjects.ReleaseImages[step.wantNodePool] {
				t.Errorf("the NodePool's spec.release.image is %s, want %s's", got, step.wantNodePool)
			}
		})
	}

	// The guest completes 4.17.3, as HyperShift copies it up: the NodePool
	// may follow.
	hcClient := dynamic.NewForConfigOrDie(testEnv.Config).Resource(hypershift.HostedClusters).Namespace(namespace)
	hc, err := hcClient.Get(context.Background(), "payments", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	status := hc.Object["status"].(map[string]any)
	version := status["version"].(map[string]any)
	version["desired"] = map[string]any{"version": "4.17.3", "image": hostedobjects.ReleaseImages["4.17.3"]}
	version["history"] = append([]any{hostedobjects.HistoryEntry("4.17.3", "Completed", now.Add(-time.Hour), &now)}, version["history"].([]any)...)
	writeStatus(t, hypershift.HostedClusters, hc, status)
	run := runUpgrade(t, "--nodepool", nodePool, "--to", "4.17.3")
	if want := "Requested update of NodePool " + nodePool + " to 4.17.3: spec.release.image is " + hostedobjects.ReleaseImages["4.17.3"]; run.code != 0 || !strings.Contains(run.stdout, want) {
		t.Errorf("upgrade --nodepool exited %d, want 0 printing %q; it printed:\n%s%s", run.code, want, run.stdout, run.stderr)
	}
	if got := releaseImage("nodepools", "payments-workers"); got != hostedobjects.ReleaseImages["4.17.3"] {
		t.Errorf("the NodePool's spec.release.image is %s, want 4.17.3's", got)
	}
}
