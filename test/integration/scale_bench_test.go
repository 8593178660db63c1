package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"syscall"
	"testing"
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	machineconfigurationclient "github.com/openshift/client-go/machineconfiguration/clientset/versioned"
	"github.com/openshift/library-go/pkg/controller/controllercmd"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	clocktesting "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
	"github.com/update-insights/update-insights-operator/pkg/operator"
)

const (
	scaleNodes = 5000

	// scaleParallelism is how many requests the benchmark's own client has in
	// flight while it sets up or touches the cluster: enough to keep setup
	// to seconds, few enough not to starve the operator's requests.
	scaleParallelism = 32

	// The rendered MachineConfigs of the cluster: its nodes are at the old
	// ones (fromVersion) or going to the new ones (toVersion, the
	// ClusterVersion's target).
	scaleOldWorkerConfig = "rendered-worker-6b0cfe9b92e34c641ac59510e408b311"
	scaleNewWorkerConfig = "rendered-worker-55c03f1f59ad9bd3b224c96a3618ce1d"
	scaleOldMasterConfig = "rendered-master-0d1c6c1b3e1f4e3ab5a8a8d16b2a73c2"
	scaleNewMasterConfig = "rendered-master-9a4f0e5f2b7c8d6e1a3b5c7d9e0f1a2b"

	// scaleHeapProfileEnv names a file to write a heap profile to, taken
	// where the benchmark measures the heap, to find what holds it.
	scaleHeapProfileEnv = "NODE_SCALE_HEAP_PROFILE"
)

// BenchmarkNodeScale runs the operator in this process against a local API
// server holding a 5,000-node cluster in the middle of an update, and
// reports the figures the issue sets targets for:
//
//   - first-sync-s, first-sync-writes: how long until every node has an
//     insight with a status, and the writes that took;
//   - updatestatus-KiB, updatestatus-writes/min,
//     updatestatus-shortest-gap-ms: the UpdateStatus' size with every node
//     mid-update (target: under 1 MiB), how often it is written while
//     thousands of insights change, and the shortest time between two of
//     those writes (at most one a second: its computations start at least
//     a second apart, and each write follows its computation);
//   - heap-MiB: the heap in use once the operator has cached the 5,000
//     nodes and their 5,000 insights (target: under 150 MiB);
//   - writes-unchanged: the writes after every node's heartbeat and the
//     pool's status changed, which the assessment does not read (target: 0);
//   - pool-change-s, writes/pool-change, pool-change-cpu-s: how long a
//     pause (or, every other iteration, unpause) of the worker pool takes
//     to reach every node's insight, the writes and the CPU it takes.
//
// The CPU figures are the test process's: the operator's, and the
// benchmark's watch decoding the same insights the operator writes.
//
// b.N counts pool changes, which alone are timed; the 5,000-node setup runs
// on every call of the benchmark function, and testing calls it once with
// N=1 before calling it with a larger -benchtime Nx. So use -benchtime 1x:
//
//	KUBEBUILDER_ASSETS=$(hack/install-testbin.sh) go test ./test/integration/ -run '^$' -bench NodeScale -benchtime 1x -v
func BenchmarkNodeScale(b *testing.B) {
	benchmarkNodeScale(b, false)
}

// BenchmarkNodeScaleWithMachineConfigNodes is BenchmarkNodeScale on a
// cluster that serves MachineConfigNodes, one per node in the shape the
// daemon writes for its phase, which the operator caches and reads for
// every node. Its unchanged writes also renew every MachineConfigNode's
// PinnedImageSetsProgressing, which the daemon rewrites on every report.
func BenchmarkNodeScaleWithMachineConfigNodes(b *testing.B) {
	benchmarkNodeScale(b, true)
}

func benchmarkNodeScale(b *testing.B, machineConfigNodes bool) {
	s := newNodeScale(b)
	if machineConfigNodes {
		installImageModeCRDs(b)
	}
	s.createCluster()
	if machineConfigNodes {
		s.createMachineConfigNodes()
	}

	// The insights' watch starts before the operator, so that it sees
	// each insight as it is created and its status written.
	insights := s.watchNodeInsights()
	cpu := processCPUTime()
	start := time.Now()
	s.startOperator()
	if err := awaitNodeInsights(insights, scaleNodes, 5*time.Minute, func(i *insightsv1alpha1.NodeProgressInsight) bool {
		return i.Status.Name != ""
	}); err != nil {
		b.Fatalf("first sync: %v; the operator made %s", err, s.writes)
	}
	insights.Stop()
	s.metric(time.Since(start).Seconds(), "first-sync-s")
	s.metric((processCPUTime() - cpu).Seconds(), "first-sync-cpu-s")
	// The pool insights and the last node writes may trail the insights'
	// statuses: the first sync is over when the operator stops writing.
	s.writes.settle(b, 2*time.Second)
	s.metric(float64(s.writes.total()), "first-sync-writes")
	b.Logf("first sync wrote %s", s.writes)
	s.measureUpdateStatus(time.Since(start))

	s.measureHeap()

	s.writes.reset()
	s.touchHeartbeats()
	s.touchPoolStatus()
	if machineConfigNodes {
		s.touchMachineConfigNodes()
	}
	// The touches are committed when their requests return; the operator's
	// watches deliver them within milliseconds, and its handlers drop them
	// in microseconds each. Ten seconds is ample for a write, if any, to
	// follow.
	time.Sleep(10 * time.Second)
	s.metric(float64(s.writes.total()), "writes-unchanged")
	if s.writes.total() > 0 {
		b.Errorf("the operator wrote after changes the assessment does not read: %s", s.writes)
	}

	s.writes.reset()
	var changeCPU time.Duration
	b.ResetTimer()
	for n := range b.N {
		paused := n%2 == 0
		cpu := processCPUTime()
		s.changePool(paused)
		changeCPU += processCPUTime() - cpu
		b.StopTimer()
		// The writes after the insights show the change (the pool's health
		// insight) count towards it, but not their wait.
		s.writes.settle(b, 2*time.Second)
		b.StartTimer()
	}
	b.StopTimer()
	b.Logf("%d pool changes wrote %s", b.N, s.writes)
	s.metric(b.Elapsed().Seconds()/float64(b.N), "pool-change-s")
	s.metric(changeCPU.Seconds()/float64(b.N), "pool-change-cpu-s")
	s.metric(float64(s.writes.total())/float64(b.N), "writes/pool-change")
	// Reported last: ResetTimer drops the metrics reported before it.
	for _, m := range s.metrics {
		b.ReportMetric(m.value, m.unit)
	}
}

// nodeScale is the cluster of BenchmarkNodeScale and the clients that make
// and change it.
type nodeScale struct {
	b        *testing.B
	kube     kubernetes.Interface
	mc       machineconfigurationclient.Interface
	insights insightsclient.Interface
	// writes counts the operator's write requests, requests every one.
	writes   *writeCounter
	requests *requestCounter
	// phaseOf says where each node is in the update.
	phaseOf func(i int) scalePhase
	// clock is the operator's, once it runs.
	clock *clocktesting.FakeClock
	// pending is how many nodes wait for their update: the nodes a pause
	// of their pool excludes.
	pending int
	metrics []scaleMetric
}

type scaleMetric struct {
	value float64
	unit  string
}

// metric keeps a figure to report at the end.
// metric keeps a figure for the benchmark's result line, and logs it, so
// that a failure after it (the cleanup's, say) does not lose it.
func (s *nodeScale) metric(value float64, unit string) {
	s.metrics = append(s.metrics, scaleMetric{value, unit})
	s.b.Logf("%s: %g", unit, value)
}

func newNodeScale(b *testing.B) *nodeScale {
	return newNodeScaleOf(b, scalePhaseOf)
}

// newNodeScaleOf is newNodeScale with the nodes where phaseOf says.
func newNodeScaleOf(b *testing.B, phaseOf func(i int) scalePhase) *nodeScale {
	// Setup writes 5,000 nodes; client-go's default rate limit, or even the
	// shared test clients', would make it take minutes.
	cfg := rest.CopyConfig(testEnv.Config)
	cfg.QPS, cfg.Burst = 2000, 4000
	s := &nodeScale{
		b:        b,
		kube:     kubernetes.NewForConfigOrDie(cfg),
		mc:       machineconfigurationclient.NewForConfigOrDie(cfg),
		insights: insightsclient.NewForConfigOrDie(cfg),
		writes:   &writeCounter{},
		requests: &requestCounter{},
		phaseOf:  phaseOf,
	}
	for i := range scaleNodes {
		if phaseOf(i) == scalePending {
			s.pending++
		}
	}
	return s
}

// createCluster creates the ClusterVersion, the pools, their rendered
// MachineConfigs and the nodes, and deletes them, and the insights the
// operator wrote about them, when the benchmark ends.
func (s *nodeScale) createCluster() {
	b, ctx := s.b, context.Background()
	start := time.Now()
	createClusterVersion(b, nil, midUpdateStatus())

	pools := map[string]*machineconfigurationv1.MachineConfigPool{}
	for _, p := range []struct{ name, config string }{
		{nodes.MasterPool, scaleNewMasterConfig},
		{nodes.WorkerPool, scaleNewWorkerConfig},
	} {
		created, err := s.mc.MachineconfigurationV1().MachineConfigPools().Create(ctx, scalePool(p.name, p.config), metav1.CreateOptions{})
		if err != nil {
			b.Fatalf("creating MachineConfigPool %s: %v", p.name, err)
		}
		s.deleteAtEnd("MachineConfigPool", p.name, s.mc.MachineconfigurationV1().MachineConfigPools().Delete)
		pools[p.name] = created
	}
	s.setPoolStatus(func(st *machineconfigurationv1.MachineConfigPoolStatus) {
		*st = scalePoolStatus(scaleNewWorkerConfig, scaleNodes, scaleNodes-s.pending)
	})

	for _, c := range []struct{ name, pool, version string }{
		{scaleOldMasterConfig, nodes.MasterPool, fromVersion},
		{scaleNewMasterConfig, nodes.MasterPool, toVersion},
		{scaleOldWorkerConfig, nodes.WorkerPool, fromVersion},
		{scaleNewWorkerConfig, nodes.WorkerPool, toVersion},
	} {
		if _, err := s.mc.MachineconfigurationV1().MachineConfigs().Create(ctx, scaleRenderedConfig(c.name, pools[c.pool], c.version), metav1.CreateOptions{}); err != nil {
			b.Fatalf("creating MachineConfig %s: %v", c.name, err)
		}
		s.deleteAtEnd("MachineConfig", c.name, s.mc.MachineconfigurationV1().MachineConfigs().Delete)
	}

	// Nodes, unlike most kinds, keep the status they are created with: the
	// kubelet registers its node that way. The created objects are not
	// kept, so that the heap measured later is the operator's.
	images := scaleImages()
	heartbeat := metav1.NewTime(time.Now().Truncate(time.Second))
	b.Cleanup(func() {
		if err := s.forEachNode(func(i int) error {
			err := s.kube.CoreV1().Nodes().Delete(context.Background(), scaleNodeName(i), metav1.DeleteOptions{})
			if apierrors.IsNotFound(err) {
				return nil
			}
			return err
		}); err != nil {
			b.Errorf("deleting the nodes: %v", err)
		}
	})
	if err := s.forEachNode(func(i int) error {
		created, err := s.kube.CoreV1().Nodes().Create(ctx, scaleNode(i, s.phaseOf(i), images, heartbeat), metav1.CreateOptions{})
		if err != nil {
			return err
		}
		if len(created.Status.Conditions) == 0 {
			return fmt.Errorf("node %s was created without its conditions", created.Name)
		}
		return nil
	}); err != nil {
		b.Fatalf("creating the nodes: %v", err)
	}

	// Cleanups run last-registered first: the insights go after the
	// operator stops (registered later, in startOperator), so that it does
	// not write them back, and before the cluster they are about.
	b.Cleanup(s.deleteInsights)
	b.Logf("created %d nodes, 2 pools and 4 rendered MachineConfigs in %s", scaleNodes, time.Since(start).Round(time.Millisecond))
}

// deleteAtEnd deletes an object the benchmark created when it ends.
func (s *nodeScale) deleteAtEnd(kind, name string, del func(context.Context, string, metav1.DeleteOptions) error) {
	s.b.Cleanup(func() {
		if err := del(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			s.b.Errorf("deleting %s %s: %v", kind, name, err)
		}
	})
}

// deleteInsights deletes every insight, so that a following benchmark or
// -count run starts from none.
func (s *nodeScale) deleteInsights() {
	ctx, i := context.Background(), s.insights.InsightsV1alpha1()
	for kind, deleteAll := range map[string]func(context.Context, metav1.DeleteOptions, metav1.ListOptions) error{
		"NodeProgressInsights":              i.NodeProgressInsights().DeleteCollection,
		"MachineConfigPoolProgressInsights": i.MachineConfigPoolProgressInsights().DeleteCollection,
		"ClusterVersionProgressInsights":    i.ClusterVersionProgressInsights().DeleteCollection,
		"ClusterOperatorProgressInsights":   i.ClusterOperatorProgressInsights().DeleteCollection,
		"UpdateHealthInsights":              i.UpdateHealthInsights().DeleteCollection,
	} {
		if err := deleteAll(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
			s.b.Errorf("deleting the %s: %v", kind, err)
		}
	}
}

// startOperator runs the operator in this process, as `start` runs it once
// it leads, with its writes and requests counted, until the benchmark ends.
func (s *nodeScale) startOperator() {
	cfg := rest.CopyConfig(testEnv.Config)
	cfg.Wrap(s.writes.wrap)
	cfg.Wrap(s.requests.wrap)
	// The operator's clock stands still: an updating node's estimate
	// counts down by the minute, and so would be rewritten once a minute
	// whatever the benchmark changes. A still clock leaves the benchmark's
	// changes the only ones. Nothing in the operator sleeps or waits on
	// this clock; it only reads the time.
	clock := clocktesting.NewFakeClock(time.Now())
	s.clock = clock
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() {
		stopped <- operator.NewOptions().Run(ctx, &controllercmd.ControllerContext{
			KubeConfig:    cfg,
			EventRecorder: events.NewInMemoryRecorder("bench", clock),
			Clock:         clock,
		})
	}()
	s.b.Cleanup(func() {
		cancel()
		if err := <-stopped; err != nil {
			s.b.Errorf("the operator: %v", err)
		}
	})
}

// measureUpdateStatus reports the UpdateStatus' size with every node's
// insight in it, and how often it was written per minute of the first
// sync, when thousands of insights change.
func (s *nodeScale) measureUpdateStatus(firstSync time.Duration) {
	status, err := s.insights.InsightsV1alpha1().UpdateStatuses().Get(context.Background(), insightsv1alpha1.UpdateStatusName, metav1.GetOptions{})
	if err != nil {
		s.b.Fatalf("reading the UpdateStatus: %v", err)
	}
	content, err := json.Marshal(status)
	if err != nil {
		s.b.Fatal(err)
	}
	s.metric(float64(len(content))/(1<<10), "updatestatus-KiB")
	writes := s.writes.count("PUT updatestatuses/status") + s.writes.count("POST updatestatuses")
	s.metric(float64(writes)/firstSync.Minutes(), "updatestatus-writes/min")
	// Its creation is a POST and, at once, the PUT of its status, one
	// write of the controller's: the gaps are between its status writes.
	if gap, n := s.writes.shortestGap("PUT updatestatuses/status"); n > 1 {
		s.metric(milliseconds(gap), "updatestatus-shortest-gap-ms")
	}
}

// measureHeap reports the heap in use once garbage is collected. It is the
// heap of the whole test process, operator and benchmark, and so an upper
// bound for the operator's: the benchmark keeps only its clients and a few
// counters, not the objects it created.
func (s *nodeScale) measureHeap() {
	// The second collection frees what the first found only finalizers
	// kept alive.
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	s.metric(float64(m.HeapInuse)/(1<<20), "heap-MiB")
	s.b.Logf("heap: %.1f MiB in use, %.1f MiB allocated in %d objects, %d goroutines",
		float64(m.HeapInuse)/(1<<20), float64(m.HeapAlloc)/(1<<20), m.HeapObjects, runtime.NumGoroutine())

	if path := os.Getenv(scaleHeapProfileEnv); path != "" {
		f, err := os.Create(path)
		if err != nil {
			s.b.Fatal(err)
		}
		defer f.Close()
		if err := pprof.WriteHeapProfile(f); err != nil {
			s.b.Fatal(err)
		}
	}
}

// touchHeartbeats renews every node's condition heartbeats as the kubelet
// does, with a strategic merge patch of its status: the most frequent
// change of a real cluster, and one the operator's caches strip.
func (s *nodeScale) touchHeartbeats() {
	heartbeat := metav1.NewTime(time.Now().Truncate(time.Second))
	var conditions []map[string]any
	for _, c := range scaleNodeConditions(metav1.Time{}, heartbeat) {
		conditions = append(conditions, map[string]any{"type": c.Type, "lastHeartbeatTime": c.LastHeartbeatTime})
	}
	patch, err := json.Marshal(map[string]any{"status": map[string]any{"conditions": conditions}})
	if err != nil {
		s.b.Fatal(err)
	}
	if err := s.forEachNode(func(i int) error {
		_, err := s.kube.CoreV1().Nodes().Patch(context.Background(), scaleNodeName(i), types.StrategicMergePatchType, patch, metav1.PatchOptions{}, "status")
		return err
	}); err != nil {
		s.b.Fatalf("renewing the heartbeats: %v", err)
	}
}

// touchPoolStatus changes the worker pool's counts, as the machine-config
// controller does while nodes update: the operator counts the nodes itself.
func (s *nodeScale) touchPoolStatus() {
	s.setPoolStatus(func(st *machineconfigurationv1.MachineConfigPoolStatus) {
		st.UpdatedMachineCount++
		st.ReadyMachineCount++
	})
}

func (s *nodeScale) setPoolStatus(mutate func(*machineconfigurationv1.MachineConfigPoolStatus)) {
	ctx, pools := context.Background(), s.mc.MachineconfigurationV1().MachineConfigPools()
	pool, err := pools.Get(ctx, nodes.WorkerPool, metav1.GetOptions{})
	if err != nil {
		s.b.Fatal(err)
	}
	mutate(&pool.Status)
	if _, err := pools.UpdateStatus(ctx, pool, metav1.UpdateOptions{}); err != nil {
		s.b.Fatalf("writing the worker pool's status: %v", err)
	}
}

// changePool pauses or unpauses the worker pool and waits until every
// waiting node's insight, and the pool's, shows it.
func (s *nodeScale) changePool(paused bool) {
	b, ctx := s.b, context.Background()
	reason, assessment := insightsv1alpha1.NodePending, insightsv1alpha1.PoolProgressing
	if paused {
		reason, assessment = insightsv1alpha1.NodePaused, insightsv1alpha1.PoolExcluded
	}
	insights := s.watchNodeInsights()
	defer insights.Stop()

	pools := s.mc.MachineconfigurationV1().MachineConfigPools()
	pool, err := pools.Get(ctx, nodes.WorkerPool, metav1.GetOptions{})
	if err != nil {
		b.Fatal(err)
	}
	pool.Spec.Paused = paused
	if _, err := pools.Update(ctx, pool, metav1.UpdateOptions{}); err != nil {
		b.Fatalf("setting the worker pool's paused to %t: %v", paused, err)
	}
	if err := awaitNodeInsights(insights, s.pending, 3*time.Minute, func(i *insightsv1alpha1.NodeProgressInsight) bool {
		c := meta.FindStatusCondition(i.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
		return c != nil && c.Reason == reason
	}); err != nil {
		b.Fatalf("pool paused=%t: %v; the operator made %s", paused, err, s.writes)
	}
	waitFor(b, 30*time.Second, "the worker pool's insight to be "+string(assessment), func(ctx context.Context) (*insightsv1alpha1.MachineConfigPoolProgressInsight, error) {
		return s.insights.InsightsV1alpha1().MachineConfigPoolProgressInsights().Get(ctx, nodes.WorkerPool, metav1.GetOptions{})
	}, func(i *insightsv1alpha1.MachineConfigPoolProgressInsight) bool {
		return i != nil && i.Status.Assessment == assessment
	})
}

// watchNodeInsights watches the NodeProgressInsights from now on: the
// events are the operator's writes from now on.
func (s *nodeScale) watchNodeInsights() watch.Interface {
	ctx, insights := context.Background(), s.insights.InsightsV1alpha1().NodeProgressInsights()
	// A list of one item is enough to learn the current resource version.
	list, err := insights.List(ctx, metav1.ListOptions{Limit: 1})
	if err != nil {
		s.b.Fatal(err)
	}
	w, err := insights.Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	if err != nil {
		s.b.Fatal(err)
	}
	return w
}

// awaitNodeInsights reads w until want insights satisfy ok.
func awaitNodeInsights(w watch.Interface, want int, timeout time.Duration, ok func(*insightsv1alpha1.NodeProgressInsight) bool) error {
	matching := map[string]bool{}
	count, events := 0, 0
	deadline := time.After(timeout)
	for count < want {
		select {
		case e, open := <-w.ResultChan():
			if !open {
				return fmt.Errorf("the watch closed after %d events, with %d of %d insights there", events, count, want)
			}
			i, isInsight := e.Object.(*insightsv1alpha1.NodeProgressInsight)
			if !isInsight {
				return fmt.Errorf("the watch failed with %d of %d insights there: %v", count, want, apierrors.FromObject(e.Object))
			}
			events++
			now := e.Type != watch.Deleted && ok(i)
			if now != matching[i.Name] {
				if now {
					count++
				} else {
					count--
				}
			}
			matching[i.Name] = now
		case <-deadline:
			return fmt.Errorf("%d of %d insights there after %s and %d events", count, want, timeout, events)
		}
	}
	return nil
}

// processCPUTime is the CPU time this process has used so far.
func processCPUTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// forEachNode runs do for every node index on scaleParallelism goroutines
// and returns the first error.
func (s *nodeScale) forEachNode(do func(i int) error) error {
	return forEachIndex(scaleNodes, do)
}

// forEachIndex runs do for every index below n on scaleParallelism
// goroutines and returns the first error.
func forEachIndex(n int, do func(i int) error) error {
	indexes := make(chan int)
	var (
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	for range scaleParallelism {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range indexes {
				if err := do(i); err != nil {
					once.Do(func() { firstErr = err })
				}
			}
		}()
	}
	for i := range n {
		indexes <- i
	}
	close(indexes)
	wg.Wait()
	return firstErr
}
