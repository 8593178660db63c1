package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/utils/ptr"

	"github.com/update-insights/update-insights-operator/pkg/hypershift"
	"github.com/update-insights/update-insights-operator/test/internal/hostedobjects"
)

// managementCRDs are a management cluster's: OpenShift's, the operator's,
// and HyperShift's and Cluster API's as they ship (test/testdata/hypershift).
var managementCRDs = []string{"test/testdata/crds", "manifests", "test/testdata/hypershift"}

// clustersNamespace holds the HostedClusters and NodePools, as `hypershift
// create cluster` puts them by default.
const clustersNamespace = "clusters"

// The played hosted clusters: one whose control plane updates and
// completes, one whose Replace NodePool rolls machine by machine with a
// Machine held by a drain, and one whose minor update the guest's
// ClusterVersionUpgradeable=False blocks beside an InPlace NodePool.
const (
	paymentsCluster = "payments"
	ledgerCluster   = "ledger"
	billingCluster  = "billing"
)

// management plays HyperShift's and Cluster API's controllers on a local
// management cluster.
type management struct {
	dyn dynamic.Interface
	// installed is when the hosted clusters were installed, completed when
	// they last completed an update.
	installed, completed time.Time
}

// runManagement plays a management cluster of three hosted clusters: it
// starts kube-apiserver and etcd with HyperShift's and Cluster API's CRDs,
// the operator against them, and plays a control-plane update that
// completes, a Replace NodePool's rollout held by a drain, and a minor
// update blocked beside an InPlace NodePool's update, printing what
// `status --hosted-clusters` and `status --hosted-cluster` show at each
// step; with check, it fails unless they say at each what HyperShift's code
// makes true then (managementExpectations).
func runManagement(ctx context.Context, o options) (err error) {
	if err := os.MkdirAll(o.workdir, 0o755); err != nil {
		return err
	}
	cluster, err := startLocalCluster(managementCRDs)
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
	dyn, err := dynamic.NewForConfig(cluster.cfg)
	if err != nil {
		return err
	}
	now := time.Now().Truncate(time.Second)
	m := &management{dyn: dyn, installed: now.Add(-60 * 24 * time.Hour), completed: now.Add(-30 * 24 * time.Hour)}
	for _, ns := range []string{operatorNamespace, clustersNamespace, m.controlPlane(paymentsCluster), m.controlPlane(ledgerCluster), m.controlPlane(billingCluster)} {
		if _, err := c.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	if err := m.createClusters(ctx); err != nil {
		return err
	}
	say("loading a management cluster: HostedClusters %s (4.17.2), %s and %s (4.17.3) in %s, each with a NodePool at 4.17.2 and its Cluster API objects in its control-plane namespace",
		paymentsCluster, ledgerCluster, billingCluster, clustersNamespace)

	logPath, _ := filepath.Abs(filepath.Join(o.workdir, "operator.log"))
	if op, err = startOperator(o.operator, kubeconfig, logPath, informerInterval(o.step)); err != nil {
		return err
	}
	say("started update-insights-operator (log: %s)", shown(logPath))
	st := &managementStatus{walk: walkthrough{binary: o.operator, kubeconfig: kubeconfig}}
	for _, step := range m.steps(st) {
		if step.play != nil {
			if err := step.play(ctx); err != nil || ctx.Err() != nil {
				return interrupted(ctx, err)
			}
		}
		if err := st.show(ctx, step.moment); err != nil {
			return err
		}
		if !sleep(ctx, o.step) {
			return interrupted(ctx, nil)
		}
	}
	if o.check {
		if len(st.failures) > 0 {
			return fmt.Errorf("the management cluster:\n  %s", strings.Join(st.failures, "\n  "))
		}
		say("check passed: at each step status --hosted-clusters and --hosted-cluster said what HyperShift's code makes true, and upgrade set or refused what HyperShift would")
		return nil
	}
	if ctx.Err() == nil {
		say("the hosted clusters' updates are played; the management cluster keeps running:")
		say("  %s", st.walk.commandLine([]string{"status", "--hosted-clusters"}))
		say("Ctrl-C stops everything")
		<-ctx.Done()
	}
	return interrupted(ctx, nil)
}

// managementStep is a moment of the play: what HyperShift's and Cluster
// API's controllers do, then what status must say.
type managementStep struct {
	moment string
	play   func(context.Context) error
}

// steps are the play, in order.
func (m *management) steps(st *managementStatus) []managementStep {
	return []managementStep{
		{moment: "idle"},
		{moment: "payments updating", play: func(ctx context.Context) error {
			if err := st.upgrade(ctx, 0, "--hosted-cluster", clustersNamespace+"/"+paymentsCluster, "--to", "4.17.3"); err != nil {
				return err
			}
			say("the guest CVO of %s starts on 4.17.3: HyperShift copies its status up", paymentsCluster)
			return m.startControlPlane(ctx, paymentsCluster, "4.17.3", "Working towards 4.17.3: 435 of 870 done (50% complete)")
		}},
		{moment: "payments updated", play: func(ctx context.Context) error {
			say("the guest CVO of %s completes 4.17.3", paymentsCluster)
			return m.completeControlPlane(ctx, paymentsCluster, "4.17.3")
		}},
		{moment: "ledger held by a drain", play: func(ctx context.Context) error {
			if err := st.upgrade(ctx, 0, "--nodepool", clustersNamespace+"/"+ledgerCluster+"-workers", "--to", "4.17.3"); err != nil {
				return err
			}
			say("HyperShift rolls %s-workers' MachineDeployment out to 4.17.3: a new Machine joins, and the drain of the first old one is held by a budget", ledgerCluster)
			return m.startReplace(ctx, ledgerCluster)
		}},
		{moment: "ledger replaced", play: func(ctx context.Context) error {
			say("the budget allows the eviction: the old Machines go, new ones join, and HyperShift records %s-workers at 4.17.3", ledgerCluster)
			return m.completeReplace(ctx, ledgerCluster)
		}},
		{moment: "ledger new configuration", play: func(ctx context.Context) error {
			say("%s-workers gets a new configuration, its release unchanged: HyperShift rolls a new MachineDeployment template out, and Cluster API surges a Machine of it", ledgerCluster)
			return m.startConfigRollout(ctx, ledgerCluster)
		}},
		{moment: "billing blocked", play: func(ctx context.Context) error {
			// The operator's own checks refuse what HyperShift would
			// hold: the administrator sets it anyway, as `oc patch`
			// would, and HyperShift blocks it.
			if err := st.upgrade(ctx, 1, "--hosted-cluster", clustersNamespace+"/"+billingCluster, "--to", "4.18.1"); err != nil {
				return err
			}
			say("the administrator sets %s's spec.release.image to 4.18.1 with oc patch; HyperShift does not start it while the guest says ClusterVersionUpgradeable=False", billingCluster)
			if err := m.blockMinor(ctx, billingCluster, "4.18.1"); err != nil {
				return err
			}
			if err := st.upgrade(ctx, 0, "--nodepool", clustersNamespace+"/"+billingCluster+"-workers", "--to", "4.17.3"); err != nil {
				return err
			}
			say("the in-place upgrader updates %s-workers' nodes one by one: 1 of 2 updated", billingCluster)
			return m.updateInPlace(ctx, billingCluster)
		}},
	}
}

func (m *management) controlPlane(cluster string) string {
	return hypershift.ControlPlaneNamespace(clustersNamespace, cluster)
}

// createClusters creates the three hosted clusters, each with a NodePool at
// 4.17.2 and its Cluster API objects.
func (m *management) createClusters(ctx context.Context) error {
	for _, hc := range []struct {
		name, version string
		upgradeType   string
		replicas      int64
		offered       []string
		upgradeable   bool
	}{
		{name: paymentsCluster, version: "4.17.2", upgradeType: hypershift.UpgradeTypeReplace, replicas: 2, offered: []string{"4.17.3"}, upgradeable: true},
		{name: ledgerCluster, version: "4.17.3", upgradeType: hypershift.UpgradeTypeReplace, replicas: 3, upgradeable: true},
		{name: billingCluster, version: "4.17.3", upgradeType: hypershift.UpgradeTypeInPlace, replicas: 2, offered: []string{"4.18.1"}},
	} {
		history := []any{hostedobjects.HistoryEntry("4.17.2", "Completed", m.installed, ptr.To(m.installed.Add(40*time.Minute)))}
		if hc.version != "4.17.2" {
			history = append([]any{hostedobjects.HistoryEntry(hc.version, "Completed", m.completed.Add(-50*time.Minute), &m.completed)}, history...)
		}
		offers := []any{}
		for _, v := range hc.offered {
			offers = append(offers, map[string]any{"version": v, "image": hostedobjects.ReleaseImages[v]})
		}
		conditions := hostedobjects.HostedConditions(m.completed, false, "Cluster version is "+hc.version)
		if !hc.upgradeable {
			conditions = replaceCondition(conditions, hostedobjects.Condition(hypershift.ClusterVersionUpgradeable, "False", "AdminAckRequired",
				"Kubernetes 1.31 and therefore OpenShift 4.18 remove several APIs which require admin consideration. Please see the knowledge article https://access.redhat.com/articles/7031404 for details and instructions.", m.completed))
		}
		status := map[string]any{
			"version": map[string]any{
				"desired":            map[string]any{"version": hc.version, "image": hostedobjects.ReleaseImages[hc.version]},
				"history":            history,
				"observedGeneration": int64(1),
				"availableUpdates":   offers,
			},
			"conditions": conditions,
		}
		if _, err := m.create(ctx, hypershift.HostedClusters, hostedobjects.HostedCluster(clustersNamespace, hc.name, hc.version, status)); err != nil {
			return err
		}
		pool := hc.name + "-workers"
		if _, err := m.create(ctx, hypershift.NodePools, hostedobjects.NodePool(clustersNamespace, pool, hc.name, "4.17.2", hc.upgradeType, hc.replicas, map[string]any{
			"replicas": hc.replicas, "version": "4.17.2",
			"conditions": []any{hostedobjects.NodePoolCondition(hypershift.NodePoolReady, "True", "AsExpected", "", m.installed)},
		})); err != nil {
			return err
		}
		cp, key := m.controlPlane(hc.name), clustersNamespace+"/"+pool
		ready := map[string]any{"replicas": hc.replicas, "readyReplicas": hc.replicas, "availableReplicas": hc.replicas, "upToDateReplicas": hc.replicas}
		if hc.upgradeType == hypershift.UpgradeTypeReplace {
			_, err := m.create(ctx, hypershift.MachineDeployments, hostedobjects.MachineDeployment(cp, pool, key, "4.17.2", hc.replicas, ready))
			if err != nil {
				return err
			}
		} else if _, err := m.create(ctx, hypershift.MachineSets, hostedobjects.MachineSet(cp, pool, key, "4.17.2", hc.replicas, nil)); err != nil {
			return err
		}
		for i := range hc.replicas {
			name := fmt.Sprintf("%s-%c", pool, 'a'+i)
			if _, err := m.create(ctx, hypershift.Machines, hostedobjects.Machine(cp, name, key, "4.17.2", hostedobjects.RunningMachine(name+"-node"))); err != nil {
				return err
			}
		}
	}
	return nil
}

// startControlPlane is the guest CVO starting on version, as HyperShift
// copies it up (hostedcluster_controller.go computeClusterVersionStatus):
// the desired release, a Partial history entry, ClusterVersionProgressing
// True with the CVO's count.
func (m *management) startControlPlane(ctx context.Context, cluster, version, progress string) error {
	started := time.Now().Truncate(time.Second)
	return m.writeStatus(ctx, hypershift.HostedClusters, clustersNamespace, cluster, func(status map[string]any) {
		v := status["version"].(map[string]any)
		v["desired"] = map[string]any{"version": version, "image": hostedobjects.ReleaseImages[version]}
		v["history"] = append([]any{hostedobjects.HistoryEntry(version, "Partial", started, nil)}, v["history"].([]any)...)
		v["availableUpdates"] = []any{}
		status["conditions"] = hostedobjects.HostedConditions(started, true, progress)
	})
}

// completeControlPlane is the guest CVO completing version.
func (m *management) completeControlPlane(ctx context.Context, cluster, version string) error {
	done := time.Now().Truncate(time.Second)
	return m.writeStatus(ctx, hypershift.HostedClusters, clustersNamespace, cluster, func(status map[string]any) {
		entry := status["version"].(map[string]any)["history"].([]any)[0].(map[string]any)
		entry["state"], entry["completionTime"] = "Completed", hostedobjects.RFC3339(done)
		status["conditions"] = hostedobjects.HostedConditions(done, false, "Cluster version is "+version)
	})
}

// startReplace is HyperShift rolling a Replace NodePool's MachineDeployment
// out to 4.17.3 (nodepool capi.go): its template and the NodePool's
// UpdatingVersion; Cluster API surging one new Machine, then deleting the
// first old one, whose drain a budget holds (the Machine keeps its
// finalizer while it drains: cluster-api machine_controller.go).
func (m *management) startReplace(ctx context.Context, cluster string) error {
	pool, cp := cluster+"-workers", m.controlPlane(cluster)
	key := clustersNamespace + "/" + pool
	// The rollout began rolloutAgo, as long as the new Machine took to
	// join; the old one's drain begins now.
	const rolloutAgo = 9 * time.Minute
	drained := time.Now().Truncate(time.Second)
	started := drained.Add(-rolloutAgo)
	if err := m.update(ctx, hypershift.MachineDeployments, cp, pool, func(md *unstructured.Unstructured) {
		_ = unstructured.SetNestedField(md.Object, "4.17.3", "spec", "template", "metadata", "annotations", hypershift.ReleaseVersionAnnotation)
	}); err != nil {
		return err
	}
	if err := m.writeStatus(ctx, hypershift.NodePools, clustersNamespace, pool, func(status map[string]any) {
		status["conditions"] = []any{
			hostedobjects.NodePoolCondition(hypershift.NodePoolUpdatingVersion, "True", "AsExpected", "Updating version in progress. Target version: 4.17.3", started),
			hostedobjects.NodePoolCondition(hypershift.NodePoolReady, "True", "AsExpected", "", m.installed),
		}
	}); err != nil {
		return err
	}
	if _, err := m.create(ctx, hypershift.Machines, hostedobjects.Machine(cp, pool+"-d", key, "4.17.3", hostedobjects.RunningMachine(pool+"-d-node"))); err != nil {
		return err
	}
	old := pool + "-a"
	if err := m.update(ctx, hypershift.Machines, cp, old, func(u *unstructured.Unstructured) {
		u.SetFinalizers([]string{"machine.cluster.x-k8s.io"})
	}); err != nil {
		return err
	}
	if err := m.dyn.Resource(hypershift.Machines).Namespace(cp).Delete(ctx, old, metav1.DeleteOptions{}); err != nil {
		return err
	}
	return m.writeStatus(ctx, hypershift.Machines, cp, old, func(status map[string]any) {
		for k, v := range hostedobjects.DrainingMachine(old+"-node", cluster+"/api-0", "api", drained) {
			status[k] = v
		}
	})
}

// completeReplace is the drain allowed: the old Machines go as new ones
// join, and HyperShift records the NodePool's version once every Machine
// runs it (nodepool_controller.go).
func (m *management) completeReplace(ctx context.Context, cluster string) error {
	pool, cp := cluster+"-workers", m.controlPlane(cluster)
	key := clustersNamespace + "/" + pool
	machines := m.dyn.Resource(hypershift.Machines).Namespace(cp)
	if err := m.update(ctx, hypershift.Machines, cp, pool+"-a", func(u *unstructured.Unstructured) { u.SetFinalizers(nil) }); err != nil {
		return err
	}
	for _, suffix := range []string{"b", "c"} {
		if err := machines.Delete(ctx, pool+"-"+suffix, metav1.DeleteOptions{}); err != nil {
			return err
		}
	}
	for _, suffix := range []string{"e", "f"} {
		if _, err := m.create(ctx, hypershift.Machines, hostedobjects.Machine(cp, pool+"-"+suffix, key, "4.17.3", hostedobjects.RunningMachine(pool+"-"+suffix+"-node"))); err != nil {
			return err
		}
	}
	done := time.Now().Truncate(time.Second)
	return m.writeStatus(ctx, hypershift.NodePools, clustersNamespace, pool, func(status map[string]any) {
		status["version"] = "4.17.3"
		status["conditions"] = []any{
			hostedobjects.NodePoolCondition(hypershift.NodePoolUpdatingVersion, "False", "AsExpected", "", done),
			hostedobjects.NodePoolCondition(hypershift.NodePoolReady, "True", "AsExpected", "", m.installed),
		}
	})
}

// startConfigRollout is a Replace NodePool's new configuration rolling
// out, its release unchanged: UpdatingConfig True with the new hash
// (nodepool conditions.go updatingConfigCondition), and Cluster API's
// MachineDeployment counting the one surged Machine of its new template up
// to date (cluster-api machinedeployment status upToDateReplicas).
func (m *management) startConfigRollout(ctx context.Context, cluster string) error {
	pool, cp := cluster+"-workers", m.controlPlane(cluster)
	key := clustersNamespace + "/" + pool
	started := time.Now().Truncate(time.Second).Add(-6 * time.Minute)
	if err := m.writeStatus(ctx, hypershift.NodePools, clustersNamespace, pool, func(status map[string]any) {
		status["conditions"] = []any{
			hostedobjects.NodePoolCondition(hypershift.NodePoolUpdatingVersion, "False", "AsExpected", "", m.installed),
			hostedobjects.NodePoolCondition(hypershift.NodePoolUpdatingConfig, "True", "AsExpected", "Updating config in progress. Target config: 6f1c2b3a", started),
			hostedobjects.NodePoolCondition(hypershift.NodePoolReady, "True", "AsExpected", "", m.installed),
		}
	}); err != nil {
		return err
	}
	if _, err := m.create(ctx, hypershift.Machines, hostedobjects.Machine(cp, pool+"-g", key, "4.17.3", hostedobjects.RunningMachine(pool+"-g-node"))); err != nil {
		return err
	}
	return m.writeStatus(ctx, hypershift.MachineDeployments, cp, pool, func(status map[string]any) {
		status["replicas"], status["upToDateReplicas"] = int64(4), int64(1)
	})
}

// blockMinor is spec.release.image set to version by hand, and HyperShift
// holding it: Progressing False, reason Blocked, with isProgressing's
// error, and no new history (hostedcluster_controller.go).
func (m *management) blockMinor(ctx context.Context, cluster, version string) error {
	patch := fmt.Sprintf(`{"spec":{"release":{"image":%q}}}`, hostedobjects.ReleaseImages[version])
	if _, err := m.dyn.Resource(hypershift.HostedClusters).Namespace(clustersNamespace).Patch(ctx, cluster, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		return err
	}
	blocked := time.Now().Truncate(time.Second)
	return m.writeStatus(ctx, hypershift.HostedClusters, clustersNamespace, cluster, func(status map[string]any) {
		status["conditions"] = replaceCondition(status["conditions"].([]any), hostedobjects.Condition(hypershift.HostedClusterProgressing, "False", hypershift.BlockedReason,
			"ClusterVersionUpgradeable condition is false: cluster version is not upgradeable", blocked))
	})
}

// updateInPlace is HyperShift updating an InPlace NodePool to 4.17.3: its
// UpdatingVersion, and the in-place upgrader's progress on its MachineSet.
func (m *management) updateInPlace(ctx context.Context, cluster string) error {
	pool, cp := cluster+"-workers", m.controlPlane(cluster)
	started := time.Now().Truncate(time.Second)
	if err := m.writeStatus(ctx, hypershift.NodePools, clustersNamespace, pool, func(status map[string]any) {
		status["conditions"] = []any{
			hostedobjects.NodePoolCondition(hypershift.NodePoolUpdatingVersion, "True", "AsExpected", "Updating version in progress. Target version: 4.17.3", started),
			hostedobjects.NodePoolCondition(hypershift.NodePoolReady, "True", "AsExpected", "", m.installed),
		}
	}); err != nil {
		return err
	}
	return m.update(ctx, hypershift.MachineSets, cp, pool, func(u *unstructured.Unstructured) {
		a := u.GetAnnotations()
		for k, v := range hostedobjects.InPlaceProgress("b7e0c1a2", 2, 1) {
			a[k] = v
		}
		u.SetAnnotations(a)
	})
}

// create creates obj of resource, then writes its status, as the
// controllers that own it do.
func (m *management) create(ctx context.Context, resource schema.GroupVersionResource, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	client := m.dyn.Resource(resource).Namespace(obj.GetNamespace())
	status, hasStatus := obj.Object["status"]
	created, err := client.Create(ctx, obj, metav1.CreateOptions{})
	if err != nil || !hasStatus || status == nil {
		return created, err
	}
	created.Object["status"] = status
	return client.UpdateStatus(ctx, created, metav1.UpdateOptions{})
}

// writeStatus changes the status of an object, retrying on a conflict.
func (m *management) writeStatus(ctx context.Context, resource schema.GroupVersionResource, namespace, name string, change func(status map[string]any)) error {
	client := m.dyn.Resource(resource).Namespace(namespace)
	for {
		u, err := client.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		status, _ := u.Object["status"].(map[string]any)
		if status == nil {
			status = map[string]any{}
		}
		change(status)
		u.Object["status"] = status
		if _, err = client.UpdateStatus(ctx, u, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
			return err
		}
	}
}

// update changes an object, retrying on a conflict.
func (m *management) update(ctx context.Context, resource schema.GroupVersionResource, namespace, name string, change func(*unstructured.Unstructured)) error {
	client := m.dyn.Resource(resource).Namespace(namespace)
	for {
		u, err := client.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		change(u)
		if _, err = client.Update(ctx, u, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
			return err
		}
	}
}

// replaceCondition is conditions with c in place of the one of its type.
func replaceCondition(conditions []any, c map[string]any) []any {
	out := make([]any, 0, len(conditions))
	for _, existing := range conditions {
		if e, ok := existing.(map[string]any); ok && e["type"] == c["type"] {
			continue
		}
		out = append(out, existing)
	}
	return append(out, c)
}
