package integration

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
	"github.com/update-insights/update-insights-operator/test/internal/hostedobjects"
)

const (
	mgmtScaleClusters = 500
	mgmtScalePools    = 3 // per hosted cluster: 1,500 in all
	mgmtScaleMachines = 10000
	// mgmtScaleReactions is how many Machine changes the reaction time is
	// measured over.
	mgmtScaleReactions = 20
)

// BenchmarkManagementScale runs the operator in this process against a
// local API server serving HyperShift's and Cluster API's CRDs, with 500
// hosted clusters of 3 Replace NodePools each and 10,000 Machines (every
// tenth cluster mid-update, its NodePools rolling out), and reports:
//
//   - first-sync-s, first-sync-writes: from the operator's start until every
//     HostedCluster and NodePool has an insight with a status;
//   - heap-MiB: the heap in use with every object and insight cached (the
//     whole test process's, an upper bound for the operator's);
//   - writes-unchanged: the writes after every Machine's status changed in
//     a field the assessment does not read (status.lastUpdated; target 0);
//   - machine-to-insight-p50-ms, -max-ms: from a Machine's new release to
//     its NodePool's insight counting it (target p50 under 1 s).
//
// Use -benchtime 1x: the setup runs on every call.
//
//	KUBEBUILDER_ASSETS=$(hack/install-testbin.sh) go test ./test/integration/ -run '^$' -bench ManagementScale -benchtime 1x -v
func BenchmarkManagementScale(b *testing.B) {
	s := newNodeScaleOf(b, func(int) scalePhase { return scaleUpdated })
	installManagementCRDs(b)
	createClusterVersion(b, nil, completedStatus())
	m := newManagementScale(b)
	m.create()
	b.Cleanup(m.deleteInsights)

	start := time.Now()
	s.startOperator()
	m.awaitInsights(5 * time.Minute)
	s.metric(time.Since(start).Seconds(), "first-sync-s")
	s.writes.settle(b, 2*time.Second)
	s.metric(float64(s.writes.total()), "first-sync-writes")
	b.Logf("first sync wrote %s", s.writes)

	s.measureHeap()

	s.writes.reset()
	m.touchMachines()
	time.Sleep(10 * time.Second)
	s.metric(float64(s.writes.total()), "writes-unchanged")
	if s.writes.total() > 0 {
		b.Errorf("the operator wrote after changes the assessment does not read: %s", s.writes)
	}

	p50, worst := m.measureReactions()
	s.metric(float64(p50.Milliseconds()), "machine-to-insight-p50-ms")
	s.metric(float64(worst.Milliseconds()), "machine-to-insight-max-ms")
	for _, metric := range s.metrics {
		b.ReportMetric(metric.value, metric.unit)
	}
}

type managementScale struct {
	b      *testing.B
	client dynamic.Interface
	// namespace holds the HostedClusters and NodePools: a new one each run,
	// as no namespace is ever deleted without a namespace controller.
	namespace string
	// updating are the NodePools mid-rollout, whose old Machines the
	// reaction time is measured on: namespace/name to the control-plane
	// namespace and its old Machines' names.
	updating []rolloutPool
}

type rolloutPool struct {
	namespace, name, controlPlane string
	old                           []string
}

func newManagementScale(b *testing.B) *managementScale {
	cfg := rest.CopyConfig(testEnv.Config)
	cfg.QPS, cfg.Burst = 2000, 4000
	return &managementScale{b: b, client: dynamic.NewForConfigOrDie(cfg)}
}

func (m *managementScale) clusterName(i int) string { return fmt.Sprintf("hc-%03d", i) }

// create makes the hosted clusters, their NodePools, MachineDeployments
// and Machines, in HyperShift's and Cluster API's shapes (see
// management_fixtures_test.go), and their namespaces.
func (m *managementScale) create() {
	b, ctx := m.b, context.Background()
	start := time.Now()
	ns, err := kubeClient.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "clusters-scale-"}}, metav1.CreateOptions{})
	if err != nil {
		b.Fatal(err)
	}
	m.namespace = ns.Name
	if err := forEachIndex(mgmtScaleClusters, func(i int) error {
		_, err := kubeClient.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
			Name: hypershift.ControlPlaneNamespace(m.namespace, m.clusterName(i))}}, metav1.CreateOptions{})
		return err
	}); err != nil {
		b.Fatalf("creating the control-plane namespaces: %v", err)
	}
	installed := time.Now().Add(-30 * 24 * time.Hour).Truncate(time.Second)
	installedDone := installed.Add(40 * time.Minute)
	started := time.Now().Add(-20 * time.Minute).Truncate(time.Second)
	var mu sync.Mutex
	if err := forEachIndex(mgmtScaleClusters, func(i int) error {
		name, updating := m.clusterName(i), i%10 == 0
		release, status := "4.17.2", map[string]any{
			"version": map[string]any{
				"desired":            map[string]any{"version": "4.17.2", "image": hostedobjects.ReleaseImages["4.17.2"]},
				"history":            []any{hostedobjects.HistoryEntry("4.17.2", "Completed", installed, &installedDone)},
				"observedGeneration": int64(1), "availableUpdates": nil,
			},
			"conditions": hostedobjects.HostedConditions(installedDone, false, "Cluster version is 4.17.2"),
		}
		if updating {
			release = "4.17.3"
			status["version"] = map[string]any{
				"desired":            map[string]any{"version": "4.17.3", "image": hostedobjects.ReleaseImages["4.17.3"]},
				"history":            []any{hostedobjects.HistoryEntry("4.17.3", "Partial", started, nil), hostedobjects.HistoryEntry("4.17.2", "Completed", installed, &installedDone)},
				"observedGeneration": int64(2), "availableUpdates": nil,
			}
			status["conditions"] = hostedobjects.HostedConditions(started, true, "Working towards 4.17.3: 512 of 870 done (58% complete)")
		}
		if err := m.createObject(hypershift.HostedClusters, hostedobjects.HostedCluster(m.namespace, name, release, status)); err != nil {
			return err
		}
		controlPlane := hypershift.ControlPlaneNamespace(m.namespace, name)
		for p := range mgmtScalePools {
			pool := i*mgmtScalePools + p
			poolName := fmt.Sprintf("%s-np-%d", name, p)
			key := m.namespace + "/" + poolName
			// 10,000 Machines over 1,500 NodePools: 7 in the first 1,000,
			// 6 in the others.
			machines := 6
			if pool < 1000 {
				machines = 7
			}
			poolStatus := map[string]any{"replicas": int64(machines), "version": "4.17.2",
				"conditions": []any{hostedobjects.NodePoolCondition("Ready", "True", "AsExpected", "", installed)}}
			if updating {
				poolStatus["conditions"] = []any{
					hostedobjects.NodePoolCondition("UpdatingVersion", "True", "AsExpected", "Updating version in progress. Target version: 4.17.3", started),
					hostedobjects.NodePoolCondition("Ready", "True", "AsExpected", "", installed),
				}
			}
			if err := m.createObject(hypershift.NodePools, hostedobjects.NodePool(m.namespace, poolName, name, release, "Replace", int64(machines), poolStatus)); err != nil {
				return err
			}
			if err := m.createObject(hypershift.MachineDeployments, hostedobjects.MachineDeployment(controlPlane, poolName, key, release, int64(machines), nil)); err != nil {
				return err
			}
			var old []string
			for j := range machines {
				machineName, machineRelease := fmt.Sprintf("%s-%d", poolName, j), "4.17.2"
				if updating && j == 0 {
					machineRelease = "4.17.3"
				} else if updating {
					old = append(old, machineName)
				}
				if err := m.createObject(hypershift.Machines, hostedobjects.Machine(controlPlane, machineName, key, machineRelease,
					withLastUpdated(hostedobjects.RunningMachine(machineName), installed))); err != nil {
					return err
				}
			}
			if updating {
				mu.Lock()
				m.updating = append(m.updating, rolloutPool{namespace: m.namespace, name: poolName, controlPlane: controlPlane, old: old})
				mu.Unlock()
			}
		}
		return nil
	}); err != nil {
		b.Fatalf("creating the hosted clusters: %v", err)
	}
	slices.SortFunc(m.updating, func(a, b rolloutPool) int { return strings.Compare(a.name, b.name) })
	b.Logf("created %d hosted clusters, %d NodePools and %d Machines in %s", mgmtScaleClusters, mgmtScaleClusters*mgmtScalePools, mgmtScaleMachines,
		time.Since(start).Round(time.Millisecond))
}

func withLastUpdated(status map[string]any, at time.Time) map[string]any {
	status["lastUpdated"] = hostedobjects.RFC3339(at)
	return status
}

func (m *managementScale) createObject(resource schema.GroupVersionResource, obj *unstructured.Unstructured) error {
	ctx := context.Background()
	client := m.client.Resource(resource).Namespace(obj.GetNamespace())
	status, hasStatus := obj.Object["status"]
	created, err := client.Create(ctx, obj, metav1.CreateOptions{})
	if err != nil || !hasStatus || status == nil {
		return err
	}
	created.Object["status"] = status
	_, err = client.UpdateStatus(ctx, created, metav1.UpdateOptions{})
	return err
}

// awaitInsights waits until every HostedCluster and NodePool has an insight
// with a status.
func (m *managementScale) awaitInsights(timeout time.Duration) {
	err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		clusters, err := insightsClient.InsightsV1alpha1().HostedClusterProgressInsights(m.namespace).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		pools, err := insightsClient.InsightsV1alpha1().NodePoolProgressInsights(m.namespace).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		written := 0
		for _, c := range clusters.Items {
			if c.Status.Assessment != "" {
				written++
			}
		}
		for _, p := range pools.Items {
			if p.Status.Assessment != "" {
				written++
			}
		}
		return written == mgmtScaleClusters*(1+mgmtScalePools), nil
	})
	if err != nil {
		m.b.Fatalf("waiting for every hosted cluster's and NodePool's insight: %v", err)
	}
}

// touchMachines changes every Machine's status.lastUpdated, which Cluster
// API's Machine controller writes and the assessment does not read.
func (m *managementScale) touchMachines() {
	stamp := hostedobjects.RFC3339(time.Now())
	patch := []byte(fmt.Sprintf(`{"status":{"lastUpdated":%q}}`, stamp))
	if err := forEachIndex(mgmtScaleClusters, func(i int) error {
		name := m.clusterName(i)
		controlPlane := hypershift.ControlPlaneNamespace(m.namespace, name)
		list, err := m.client.Resource(hypershift.Machines).Namespace(controlPlane).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			return err
		}
		for _, machine := range list.Items {
			if _, err := m.client.Resource(hypershift.Machines).Namespace(controlPlane).Patch(context.Background(), machine.GetName(),
				types.MergePatchType, patch, metav1.PatchOptions{}, "status"); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		m.b.Fatalf("touching the Machines: %v", err)
	}
}

// measureReactions gives, one at a time, an old Machine of a NodePool
// mid-rollout the target release, as the Machine that replaces it has, and
// times how long its NodePool's insight takes to count one more Machine
// updated.
func (m *managementScale) measureReactions() (p50, worst time.Duration) {
	ctx := context.Background()
	var times []time.Duration
	for r := range mgmtScaleReactions {
		pool := m.updating[r%len(m.updating)]
		machine := pool.old[r/len(m.updating)]
		before, err := insightsClient.InsightsV1alpha1().NodePoolProgressInsights(pool.namespace).Get(ctx, pool.name, metav1.GetOptions{})
		if err != nil {
			m.b.Fatal(err)
		}
		patch := []byte(`{"metadata":{"annotations":{"hypershift.openshift.io/release-version":"4.17.3"}}}`)
		start := time.Now()
		if _, err := m.client.Resource(hypershift.Machines).Namespace(pool.controlPlane).Patch(ctx, machine, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			m.b.Fatal(err)
		}
		var last *insightsv1alpha1.NodePoolProgressInsight
		if err := wait.PollUntilContextTimeout(ctx, 5*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
			last, err = insightsClient.InsightsV1alpha1().NodePoolProgressInsights(pool.namespace).Get(ctx, pool.name, metav1.GetOptions{})
			return err == nil && last.Status.Machines.Updated == before.Status.Machines.Updated+1, nil
		}); err != nil {
			m.b.Fatalf("NodePool %s never counted Machine %s updated: %v; last %+v", pool.name, machine, err, last)
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	return times[len(times)/2], times[len(times)-1]
}

// deleteInsights deletes the insights the operator wrote, so that a
// following benchmark or -count run starts from none.
func (m *managementScale) deleteInsights() {
	ctx := context.Background()
	if err := insightsClient.InsightsV1alpha1().HostedClusterProgressInsights(m.namespace).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
		m.b.Errorf("deleting the HostedClusterProgressInsights: %v", err)
	}
	if err := insightsClient.InsightsV1alpha1().NodePoolProgressInsights(m.namespace).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
		m.b.Errorf("deleting the NodePoolProgressInsights: %v", err)
	}
}
