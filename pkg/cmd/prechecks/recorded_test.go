package prechecks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/blang/semver/v4"
	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/precheck"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// What `pre-checks --details` prints for an update to the next minor
// release of every recorded cluster, held in golden files
// (test/testdata/golden/prechecks; -update rewrites them). The operator's
// side is its own computation on the recording: the built-in informer's
// findings are precheck.Run's, the plan's status updateplan's, at the clock
// the recording's reference was printed at; the command reads the recorded
// ClusterVersion. A change meant to keep behaviour (a refactor) must print
// the same bytes for every recorded cluster; hack/outputs.sh records
// analyze and status, which run offline, and this test pre-checks, which
// asks the operator.
//
// No recording is offered its next minor release, so the command is given
// --allow-not-offered, as an administrator checking a release before it is
// offered would.
func TestPreChecksOfRecordedClusters(t *testing.T) {
	for _, c := range recordedtest.Cases(t) {
		t.Run(c.Name, func(t *testing.T) {
			if len(c.Cluster.ClusterVersions) != 1 {
				t.Fatalf("%d ClusterVersions recorded, want one", len(c.Cluster.ClusterVersions))
			}
			cv := c.Cluster.ClusterVersions[0]
			target, err := nextMinor(cv)
			if err != nil {
				t.Fatal(err)
			}
			operator := &controller{
				answers: []updatestatus.Answer{{Informer: updatestatus.BuiltinInformer, Insights: precheck.Run(precheck.Input{
					ClusterVersion: cv, Target: target,
					ClusterOperators: c.Cluster.ClusterOperators, Nodes: c.Cluster.Nodes, Pools: c.Cluster.MachineConfigPools,
					Alerts: c.Cluster.Alerts, Now: c.Now,
				})}},
				pools:     workerPools(c.Cluster.MachineConfigPools),
				nodePools: precheck.NodePools(c.Cluster.Nodes, c.Cluster.MachineConfigPools),
			}
			client, clock := setUpController(operator, c.Now)
			newClients := fakeClientsWith(client, kubefake.NewSimpleClientset(), configfake.NewSimpleClientset(cv))
			out, errOut, err := runWithClients(t, newClients, clock, "--to", target, "--details", "--allow-not-offered")
			// The command fails, after printing the plan, only while a
			// finding is not accepted: none is, on a fresh plan.
			if err != nil && !strings.HasPrefix(err.Error(), "the update to "+target+" is not ready: ") {
				t.Fatalf("pre-checks failed: %v", err)
			}
			if errOut != "" {
				t.Errorf("pre-checks wrote to stderr: %q", errOut)
			}
			recordedtest.CheckGolden(t, recordedtest.Golden("prechecks/"+c.Name+".txt"), []byte(out))
		})
	}
}

// nextMinor is the release X.(Y+1).0 after the cluster's desired version
// X.Y.Z.
func nextMinor(cv *configv1.ClusterVersion) (string, error) {
	v, err := semver.Parse(cv.Status.Desired.Version)
	if err != nil {
		return "", fmt.Errorf("the recorded desired version %q is not a release version: %w", cv.Status.Desired.Version, err)
	}
	return fmt.Sprintf("%d.%d.0", v.Major, v.Minor+1), nil
}

// workerPools are the names of the pools whose findings have a place of
// their own, as the UpdatePlan controller gives them to updateplan.
func workerPools(pools []*machineconfigurationv1.MachineConfigPool) []string {
	var out []string
	for _, p := range pools {
		if nodes.ScopeType(p.Name) == insightsv1alpha1.ScopeTypeWorkerPool {
			out = append(out, p.Name)
		}
	}
	return out
}
