package integration

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/component-base/metrics/legacyregistry"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	nodecontroller "github.com/update-insights/update-insights-operator/pkg/controllers/node"
)

const (
	// drainScaleDrained is how many nodes the benchmark drains at once.
	drainScaleDrained = 50

	// drainScaleAhead is how far the operator's still clock is put ahead
	// once the drains have begun: every block has then lasted past the
	// machine-config controller's first attempt (drain.MCO's WarnAfter,
	// 90 s), and below its drain error (an hour), however long the
	// benchmark runs after. A budget that goes to its limit later is so
	// named at once, without the 90 s a real clock would wait.
	drainScaleAhead = 30 * time.Minute

	// drainScaleChurn is how often, in the steady minute, a budget of an
	// app on no drained node changes its status: each change makes the
	// operator judge every drained node again.
	drainScaleChurn = time.Second

	drainScaleNote = "Drain held by pod "
)

// BenchmarkDrainScale runs the operator in this process against a local
// API server holding 5,000 nodes (BenchmarkNodeScale's cluster, none
// draining), 30 pods on each (150,000) and 300 budgets, one app in 30 at its
// limit, then has the machine-config operator drain 50 workers at once, and
// reports what issue "Why a node does not drain" sets goals for:
//
//   - setup-s: the benchmark's own setup, not the operator's: the cluster,
//     the pods and the budgets created;
//   - pod-lists-drains-begin, pod-watches-drains-begin: the operator's pod
//     LISTs and WATCHes from the drains asked until every drained node's
//     insight names the pod that holds it: a cache per drained node, one
//     of the unscheduled pods and one per held budget start, 60, each with
//     one WATCH whose first
//     events are its list (client-go's WatchListClient, on by default since
//     1.35: sendInitialEvents), and so no LIST;
//   - requests/min, pod-lists/min, node-syncs/min, budget-changes/min: in
//     the steady minute after, while a budget changes every second and each
//     change has the operator judge the 50 drains again: its API requests
//     (logged by verb and resource), its pod LISTs among them (goal: none,
//     no LIST per sync), and the node syncs and budget changes that minute;
//   - heap-MiB: the heap in use then, the drains followed and judged (goal:
//     under 200 MiB), measured as BenchmarkNodeScale measures it;
//   - budget-allows-to-clear-p50-ms, -max-ms: from a budget's status write
//     that allows a disruption to every node it held no longer naming a
//     pod in its insight's message, for each of the 9 held budgets of the
//     drained nodes; budget-limit-to-note-p50-ms, -max-ms: the other way,
//     from the budget back at its limit to the nodes naming the pod again,
//     the 90 s threshold excluded (the clock is ahead).
//
// The setup runs on every call of the benchmark function, so use
// -benchtime 1x:
//
//	KUBEBUILDER_ASSETS=$(hack/install-testbin.sh) go test ./test/integration/ -run '^$' -bench DrainScale -benchtime 1x -timeout 60m
func BenchmarkDrainScale(b *testing.B) {
	d := &drainScale{nodeScale: newNodeScaleOf(b, drainScalePhaseOf), drained: drainScaleDrainedNodes()}
	start := time.Now()
	d.createCluster()
	d.createWorkloads(d.drained)
	d.metric(time.Since(start).Seconds(), "setup-s")

	insights := d.watchNodeInsights()
	d.startOperator()
	if err := awaitNodeInsights(insights, scaleNodes, 5*time.Minute, func(i *insightsv1alpha1.NodeProgressInsight) bool {
		return i.Status.Name != ""
	}); err != nil {
		b.Fatalf("first sync: %v; the operator made %s", err, d.writes)
	}
	insights.Stop()
	d.writes.settle(b, 2*time.Second)

	d.requests.reset()
	d.drainNodes()
	// The drains have begun by the operator's clock: it now stands past
	// their first attempts. A node whose pods are cached by then is judged
	// again at the next change of any budget.
	insights = d.watchNodeInsights()
	d.clock.SetTime(time.Now().Add(drainScaleAhead))
	churn := d.churnBudgets()
	defer churn.stop()
	d.awaitNotes(insights, d.drained, true, 5*time.Minute)
	insights.Stop()
	b.Logf("from the drains asked to every drained node named: %s", d.requests)
	d.metric(float64(d.requests.count("list pods")), "pod-lists-drains-begin")
	d.metric(float64(d.requests.count("watch pods")), "pod-watches-drains-begin")

	// The health insights of the last nodes named may trail their notes.
	d.writes.settle(b, 2*time.Second)
	d.requests.reset()
	syncs, changes := nodeSyncs(b), churn.count()
	time.Sleep(time.Minute)
	b.Logf("requests in a steady minute of 50 drains: %s", d.requests)
	d.metric(float64(d.requests.total()), "requests/min")
	d.metric(float64(d.requests.count("list pods")), "pod-lists/min")
	d.metric(float64(nodeSyncs(b)-syncs), "node-syncs/min")
	d.metric(float64(churn.count()-changes), "budget-changes/min")
	churn.stop()
	d.measureHeap()

	var clear, block []time.Duration
	for group := 1; group < drainScaleGroups; group++ {
		clear = append(clear, d.budgetChange(group, drainScalePodsPerApp, false))
		block = append(block, d.budgetChange(group, drainScalePodsPerApp-1, true))
	}
	for _, l := range []struct {
		name      string
		latencies []time.Duration
	}{{"budget-allows-to-clear", clear}, {"budget-limit-to-note", block}} {
		slices.Sort(l.latencies)
		d.metric(milliseconds(percentile(l.latencies, 50)), l.name+"-p50-ms")
		d.metric(milliseconds(l.latencies[len(l.latencies)-1]), l.name+"-max-ms")
	}
	for _, m := range d.metrics {
		b.ReportMetric(m.value, m.unit)
	}
}

// drainScale is BenchmarkDrainScale's cluster, and the nodes it drains.
type drainScale struct {
	*nodeScale
	drained []int
}

// drainScaleDrainedNodes are the first 50 waiting nodes: 5 or 6 of each
// group but group 0, whose nodes are updated.
func drainScaleDrainedNodes() []int {
	var out []int
	for i := 0; len(out) < drainScaleDrained; i++ {
		if drainScalePhaseOf(i) == scalePending {
			out = append(out, i)
		}
	}
	return out
}

// drainNodes has the machine-config operator drain the nodes at once, as
// it begins their update: the node controller sets desiredConfig, the
// daemon its state and desiredDrain, and the drain controller cordons the
// node (machine-config-operator pkg/daemon/drain.go and
// pkg/controller/drain/drain_controller.go), before any pod is evicted.
func (d *drainScale) drainNodes() {
	heartbeat := metav1.NewTime(time.Now().Truncate(time.Second))
	patch, err := json.Marshal(map[string]any{
		"metadata": map[string]any{"annotations": map[string]string{
			nodes.DesiredConfigAnnotation: scaleNewWorkerConfig,
			nodes.StateAnnotation:         "Working",
			nodes.DesiredDrainAnnotation:  "drain-" + scaleNewWorkerConfig,
		}},
		"spec": map[string]any{
			"unschedulable": true,
			"taints":        []map[string]any{{"key": corev1.TaintNodeUnschedulable, "effect": corev1.TaintEffectNoSchedule, "timeAdded": heartbeat}},
		},
	})
	if err != nil {
		d.b.Fatal(err)
	}
	insights := d.watchNodeInsights()
	defer insights.Stop()
	if err := forEachIndex(len(d.drained), func(k int) error {
		_, err := d.kube.CoreV1().Nodes().Patch(context.Background(), scaleNodeName(d.drained[k]), types.StrategicMergePatchType, patch, metav1.PatchOptions{})
		return err
	}); err != nil {
		d.b.Fatalf("draining the nodes: %v", err)
	}
	if err := awaitNodeInsights(insights, len(d.drained), 2*time.Minute, func(i *insightsv1alpha1.NodeProgressInsight) bool {
		c := meta.FindStatusCondition(i.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
		return c != nil && c.Reason == insightsv1alpha1.NodeDraining
	}); err != nil {
		d.b.Fatalf("the drains: %v; the operator made %s", err, d.writes)
	}
}

// awaitNotes reads insights, a watch of the node insights started before
// what changes them, until the insight of each of the nodes names the pod
// that holds its drain (held), or names none.
func (d *drainScale) awaitNotes(insights watch.Interface, nodeIndexes []int, held bool, timeout time.Duration) {
	d.b.Helper()
	names := map[string]bool{}
	for _, i := range nodeIndexes {
		names[scaleNodeName(i)] = true
	}
	if err := awaitNodeInsights(insights, len(names), timeout, func(i *insightsv1alpha1.NodeProgressInsight) bool {
		return names[i.Name] && strings.HasPrefix(i.Status.Message, drainScaleNote) == held
	}); err != nil {
		d.b.Fatalf("the drained nodes' notes, held=%t: %v; the operator made %s", held, err, d.writes)
	}
}

// budgetChange writes the status of the held budget of a group's drained
// nodes with healthy pods, and returns how long until every one of those
// nodes names the pod the budget holds (held), or names none.
func (d *drainScale) budgetChange(group int, healthy int32, held bool) time.Duration {
	if held && !time.Now().Add(drainScaleAhead/2).Before(d.clock.Now()) {
		// The block would count from the budget's change, by a clock not
		// far enough ahead of it to name the pod at once.
		d.b.Fatalf("the benchmark ran for over %s after the drains began", drainScaleAhead/2)
	}
	var nodesHeld []int
	for _, i := range d.drained {
		if drainScaleGroupOf(i) == group {
			nodesHeld = append(nodesHeld, i)
		}
	}
	insights := d.watchNodeInsights()
	defer insights.Stop()
	start, err := d.setBudgetHealthy(drainScalePodsPerNode*group+drainScaleHeldApp, healthy)
	if err != nil {
		d.b.Fatal(err)
	}
	d.awaitNotes(insights, nodesHeld, held, time.Minute)
	return time.Since(start)
}

// budgetChurn changes the status of budgets of apps on no drained node, as
// the disruption controller does while pods elsewhere restart.
type budgetChurn struct {
	changes  atomic.Int64
	done     chan struct{}
	stopOnce sync.Once
	stopped  sync.WaitGroup
}

// churnBudgets changes a budget of group 0 every drainScaleChurn: one of
// its apps loses a healthy pod, and has it back at the next change.
func (d *drainScale) churnBudgets() *budgetChurn {
	var apps []int
	for app := range drainScalePodsPerNode {
		if !drainScaleHeld(app) {
			apps = append(apps, app)
		}
	}
	c := &budgetChurn{done: make(chan struct{})}
	c.stopped.Go(func() {
		tick := time.NewTicker(drainScaleChurn)
		defer tick.Stop()
		for n := 0; ; n++ {
			healthy := int32(drainScalePodsPerApp - 1 + n%2)
			if _, err := d.setBudgetHealthy(apps[n/2%len(apps)], healthy); err != nil {
				d.b.Errorf("changing a budget: %v", err)
				return
			}
			c.changes.Add(1)
			select {
			case <-c.done:
				return
			case <-tick.C:
			}
		}
	})
	return c
}

func (c *budgetChurn) count() int64 { return c.changes.Load() }

// stop stops the changes and returns once the last is written.
func (c *budgetChurn) stop() {
	c.stopOnce.Do(func() { close(c.done) })
	c.stopped.Wait()
}

// nodeSyncs is how many syncs the node controller has made in this
// process, as the operator's sync metric counts them.
func nodeSyncs(b *testing.B) uint64 {
	families, err := legacyregistry.DefaultGatherer.Gather()
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != "update_insights_controller_sync_duration_seconds" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "controller" && l.GetValue() == nodecontroller.Name {
					return m.GetHistogram().GetSampleCount()
				}
			}
		}
	}
	b.Fatalf("no sync of the %s controller counted", nodecontroller.Name)
	return 0
}
