package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// hostedCRDs are the CRDs of a hosted cluster that the operator reads: no
// MachineConfig or MachineConfigPool CRD, which HyperShift deletes from a
// hosted cluster (control-plane-operator/controllers/hostedcontrolplane/
// v2/cvo/deployment.go, resourcesToRemove).
var hostedCRDs = []string{
	"test/testdata/crds/0000_00_cluster-version-operator_01_clusteroperators.crd.yaml",
	"test/testdata/crds/0000_00_cluster-version-operator_01_clusterversions-Default.crd.yaml",
	"test/testdata/crds/0000_10_config-operator_01_infrastructures-Default.crd.yaml",
	"manifests",
}

// The hosted cluster's NodePools: one updated in place, one by replacing
// its nodes, and one left three minors behind (HyperShift allows it:
// support/supportedversion/version.go, ValidateVersionSkew).
const (
	inPlacePool = hostedClusterName + "-inplace"
	replacePool = hostedClusterName + "-replace"
	behindPool  = hostedClusterName + "-legacy"
	poolSize    = 2
)

// runHosted plays a hosted cluster: it starts kube-apiserver and etcd with
// a hosted cluster's CRDs and objects, the operator against them, and then
// plays a control-plane update, an InPlace NodePool's update and a Replace
// NodePool's rollout, printing what status shows at each step; with
// check, it fails unless status says at each what HyperShift's code makes
// true then (hostedExpectations).
func runHosted(ctx context.Context, o options) (err error) {
	if err := os.MkdirAll(o.workdir, 0o755); err != nil {
		return err
	}
	s, err := loadScenario(hostedRecording, time.Now())
	if err != nil {
		return err
	}
	if err := hostedScenario(s, from4_16); err != nil {
		return fmt.Errorf("%s: %w", hostedRecording, err)
	}
	cluster, err := startLocalCluster(hostedCRDs)
	if err != nil {
		return err
	}
	var op *operatorProcess
	defer func() {
		say("stopping the operator, kube-apiserver and etcd")
		if op != nil {
			op.stop()
		}
		if stopErr := cluster.stop(); err == nil {
			err = stopErr
		}
	}()
	kubeconfig, err := writeKubeconfig(cluster.env, o.workdir)
	if err != nil {
		return err
	}
	say("the local cluster's kubeconfig: export KUBECONFIG=%s", shown(kubeconfig))
	c, err := newClients(cluster.cfg)
	if err != nil {
		return err
	}

	if err := createInfrastructure(ctx, c, infrastructure(hostedClusterName, "us-east-1")); err != nil {
		return err
	}
	if err := s.create(ctx, c); err != nil {
		return err
	}
	say("loading a hosted cluster: Infrastructure cluster with controlPlaneTopology External; %s's ClusterVersion (no desiredUpdate) and a hosted cluster's real ClusterOperators at %s; the six synthetic ClusterOperators as the hosted-cluster-config-operator writes them; no machine-config CRDs",
		filepath.Base(hostedRecording), s.from())
	nodes := &hostedNodes{pools: []*nodePool{
		{name: inPlacePool, upgradeType: upgradeInPlace, release: from4_16, machineSet: inPlacePool},
		{name: replacePool, upgradeType: upgradeReplace, release: from4_16},
		{name: behindPool, upgradeType: upgradeReplace, release: old4_14},
	}}
	for _, p := range nodes.pools[1:] {
		p.machineSet = nodes.generated(p.name)
	}
	if err := nodes.create(ctx, c, map[string]int{inPlacePool: poolSize, replacePool: poolSize, behindPool: poolSize}); err != nil {
		return err
	}
	for _, p := range nodes.pools {
		say("NodePool %s (%s, MachineSet %s): nodes %s at %s", p.name, p.upgradeType, p.machineSet, strings.Join(p.nodes, ", "), p.release.kubelet)
	}

	// The operator runs the target release already, as the payload's
	// component does once the control plane's update reached it.
	if err := os.Setenv("RELEASE_VERSION", s.target()); err != nil {
		return err
	}
	logPath, _ := filepath.Abs(filepath.Join(o.workdir, "operator.log"))
	if op, err = startOperator(o.operator, kubeconfig, logPath, informerInterval(o.step)); err != nil {
		return err
	}
	say("started update-insights-operator (log: %s)", shown(logPath))
	displayCtx, stopDisplay := context.WithCancel(ctx)
	defer stopDisplay()
	seen := watchInsight(displayCtx, c, nil)

	st := &hostedStatus{walk: walkthrough{binary: o.operator, kubeconfig: kubeconfig}, check: o.check, nodes: nodes, counted: counted(s)}
	show := func(moment string) error { return st.show(ctx, moment) }
	if err := show("idle"); err != nil {
		return err
	}
	if err := s.playControlPlane(ctx, c, to4_17, o.step, show); err != nil || ctx.Err() != nil {
		return interrupted(ctx, err)
	}
	if err := show("control plane updated"); err != nil {
		return err
	}
	if err := nodes.updateInPlace(ctx, c, nodes.pools[0], to4_17, o.step, show); err != nil || ctx.Err() != nil {
		return interrupted(ctx, err)
	}
	if err := show("in place updated"); err != nil {
		return err
	}
	if err := nodes.replace(ctx, c, nodes.pools[1], to4_17, o.step, show); err != nil || ctx.Err() != nil {
		return interrupted(ctx, err)
	}
	if err := show("replaced"); err != nil {
		return err
	}
	completed := waitForCompleted(ctx, seen, time.Minute)
	stopDisplay()
	status, healthy := ownClusterOperator(ctx, c, s.target())
	say("%s", status)
	message, err := ownAvailableMessage(ctx, c)
	if err != nil {
		return err
	}
	if o.check {
		if err := st.checked(seen.progressing(), completed, healthy, message); err != nil {
			return err
		}
		say("check passed: at each step status said what HyperShift's code makes true, never MachineConfigPool; the insight went from Progressing to Completed; the operator's ClusterOperator is Available in the hosted mode and not Degraded")
		return nil
	}
	if ctx.Err() == nil {
		say("the hosted cluster's updates are played; it keeps running:")
		say("  %s", st.walk.commandLine([]string{"status"}))
		say("Ctrl-C stops everything")
		<-ctx.Done()
	}
	return interrupted(ctx, nil)
}

// counted is how many ClusterOperators the control plane's completion
// counts: the payload's, the operator's own among them.
func counted(s *scenario) int {
	return len(s.payload()) + 1
}

// interrupted is err, after saying so when ctx ended.
func interrupted(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		say("interrupted")
		return nil
	}
	return err
}
