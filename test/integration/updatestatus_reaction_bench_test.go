package integration

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/updatestatus"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
	"github.com/update-insights/update-insights-operator/pkg/informer"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	updatestatuses "github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

const (
	// statusReactionSamples is how many changes of each kind are timed:
	// each takes over two seconds (the operator idle, then its reaction).
	statusReactionSamples = 20

	// statusReactionInterval is the operator's --informer-interval: how
	// often it asks the test's informer. The wait for the next poll is not
	// part of the reaction time, which starts when the informer hands out
	// its changed answer; it is short only to keep the benchmark short.
	statusReactionInterval = 250 * time.Millisecond

	// statusReactionIdle is how long after UpdateStatus showed a change
	// the next one is made, so that it meets an operator with nothing
	// pending and a quiet second behind it. A change brings others along
	// (a node's insight, then its pool's; an informer's new insight, then
	// the old one leaving): the first is computed updatestatus.Settle
	// (50 ms) later with those that came meanwhile, those within
	// the second after it together at its end (updatestatus.Coalesce), and
	// that computation starts a second of its own.
	statusReactionIdle = 2*updatestatus.Coalesce + 150*time.Millisecond

	// statusReactionTimeout bounds every wait, the slow informers' first
	// calls failing among them.
	statusReactionTimeout = 2 * time.Minute

	statusReactionInformer = "reaction-informer"

	// statusReactionSlowInformers informers beside the measured one hold
	// every call for their whole budget, thirty seconds: the measured
	// informer's answers must not wait for them.
	statusReactionSlowInformers = 4
)

// BenchmarkUpdateStatusReaction measures how long UpdateStatus takes to
// show a change, as a watch of it (a console's, or `oc get -w`'s) sees it:
//
//   - informer-*: from a test informer (a real HTTPS server on loopback,
//     registered by URL) handing out a changed answer, a new insight, to an
//     operator's poll, until the UpdateStatus watch delivers that insight.
//     How long the answer waited for the poll is configuration
//     (--informer-interval, reported as informer-interval-s), not reaction,
//     and is left out;
//   - node-*: from just before a worker node's write that starts its update
//     (the machine-config daemon's annotations: working towards the new
//     config) until the UpdateStatus watch delivers that node's status
//     insight as Updating. It includes the node write (node-write-p50-ms),
//     the operator writing the node's insight, and UpdateStatus following.
//
// The operator runs as a process of its own, as in a cluster, against a
// cluster mid-update with a worker pool of statusReactionSamples pending
// nodes and two updated ones, and statusReactionSlowInformers informers
// that never answer in time beside the measured one (the samples start
// once they are all reported offline, and nothing changes then). UpdateStatus is computed updatestatus.Settle
// (50 ms) after a change that follows a quiet second, and at most once a second
// (updatestatus.Coalesce) under churn. Each change is made once the
// operator has nothing pending (statusReactionIdle after the previous one
// was seen), as a change alone in a quiet cluster, or an informer's answer
// at the default 30s interval, finds it. Under churn a change waits for
// the end of the second of the computation before, at most a second more.
// The benchmark's clients have no client-side rate limit.
//
//	KUBEBUILDER_ASSETS=$(hack/install-testbin.sh) go test ./test/integration/ -run '^$' -bench UpdateStatusReaction -benchtime 1x
//
// The samples are taken once per call of the benchmark function, whatever
// b.N, so use -benchtime 1x.
func BenchmarkUpdateStatusReaction(b *testing.B) {
	r := newStatusReaction(b)
	informer := r.measureInformer()
	nodes := r.measureNodes()
	b.ReportMetric(statusReactionInterval.Seconds(), "informer-interval-s")
	reportLatencies(b, "informer", informer.reactions)
	b.Logf("the informer's changed answers waited for the next poll: p50 %s, worst %s",
		percentile(slices.Sorted(slices.Values(informer.polls)), 50), slices.Max(informer.polls))
	reportLatencies(b, "node", nodes.reactions)
	b.ReportMetric(milliseconds(percentile(slices.Sorted(slices.Values(nodes.writes)), 50)), "node-write-p50-ms")
}

// statusReaction is the cluster of BenchmarkUpdateStatusReaction, and the
// benchmark's watch of its UpdateStatus.
type statusReaction struct {
	b        *testing.B
	kube     kubernetes.Interface
	informer *testInformer
	watch    watch.Interface
	// workers are the pending worker nodes as last written, so that a
	// change needs no read first.
	workers []*corev1.Node
}

type statusSamples struct {
	reactions []time.Duration
	// polls is, for each informer change, how long its answer waited for
	// the operator's next poll.
	polls []time.Duration
	// writes is, for each node change, how long the node's write took.
	writes []time.Duration
}

func statusWorkerName(i int) string { return fmt.Sprintf("reaction-worker-%02d", i) }

func newStatusReaction(b *testing.B) *statusReaction {
	// No client-side rate limit: client-go's default (QPS 5, burst 10)
	// would delay the benchmark's own writes and show up as reaction time.
	cfg := rest.CopyConfig(testEnv.Config)
	cfg.QPS = -1
	r := &statusReaction{
		b:    b,
		kube: kubernetes.NewForConfigOrDie(cfg),
	}
	insights := insightsclient.NewForConfigOrDie(cfg)
	deleteUpdateStatusAtEnd(b)

	ca := informertest.NewCA(b)
	r.informer = startInformer(b, "127.0.0.1", ca.Serving(b, nil, net.ParseIP("127.0.0.1")))
	r.informer.answer(0, protocol.ResponseSuccess, "initial")
	createInformer(b, &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: statusReactionInformer},
		Spec: insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{
			URL: ptr.To("https://" + r.informer.addr), CABundle: ca.PEM,
		}},
	})
	var slowOffline []string
	for n := range statusReactionSlowInformers {
		handler, err := informer.NewHandler(&blockingInformer{}, slowInformerOptions...)
		if err != nil {
			b.Fatal(err)
		}
		srv := informertest.NewTLSServer(b, handler, ca.Serving(b, nil, net.ParseIP("127.0.0.1")))
		name := fmt.Sprintf("reaction-slow-informer-%d", n)
		createInformer(b, &insightsv1alpha1.UpdateInformer{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{
				URL: ptr.To(srv.URL), CABundle: ca.PEM,
			}},
		})
		slowOffline = append(slowOffline, updatestatuses.OfflineUIDPrefix+name)
	}
	startNodeOperator(b, "--informer-interval="+statusReactionInterval.String())
	for i := range 3 {
		createNode(b, fmt.Sprintf("reaction-master-%d", i), atRest(newMasterConfig), "master")
	}
	for i := range 2 {
		createNode(b, fmt.Sprintf("reaction-updated-worker-%d", i), atRest(newWorkerConfig), "worker")
	}
	for i := range statusReactionSamples {
		createNode(b, statusWorkerName(i), atRest(oldWorkerConfig), "worker")
	}
	for i := range statusReactionSamples {
		node, err := r.kube.CoreV1().Nodes().Get(context.Background(), statusWorkerName(i), metav1.GetOptions{})
		if err != nil {
			b.Fatal(err)
		}
		r.workers = append(r.workers, node)
	}

	var err error
	r.watch, err = insights.InsightsV1alpha1().UpdateStatuses().Watch(context.Background(), metav1.ListOptions{
		FieldSelector: fields.OneTermEqualSelector("metadata.name", insightsv1alpha1.UpdateStatusName).String(),
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(r.watch.Stop)
	// Settled: UpdateStatus shows the informer's answer, the slow ones
	// offline and every pending worker, and then nothing for two seconds.
	r.await("the informer's first answer, the slow ones offline and every pending worker", func(s *insightsv1alpha1.UpdateStatus) bool {
		if !slices.Equal(uidsOf(reported(s, statusReactionInformer)), []string{"initial"}) {
			return false
		}
		own := uidsOf(reported(s, updatestatuses.BuiltinInformer))
		for _, uid := range slowOffline {
			if !slices.Contains(own, uid) {
				return false
			}
		}
		for i := range statusReactionSamples {
			if !nodeShows(s, statusWorkerName(i), "Pending") {
				return false
			}
		}
		return true
	})
	r.awaitQuiet(2 * time.Second)
	return r
}

// measureInformer changes the informer's answer statusReactionSamples
// times, each time to one new insight, and times each from the informer
// handing it out until UpdateStatus shows it.
func (r *statusReaction) measureInformer() statusSamples {
	var s statusSamples
	for n := range statusReactionSamples {
		time.Sleep(statusReactionIdle)
		uid := fmt.Sprintf("change-%02d", n)
		changed := time.Now()
		r.informer.answer(0, protocol.ResponseSuccess, uid)
		seen := r.await("the informer's insight "+uid, func(s *insightsv1alpha1.UpdateStatus) bool {
			return slices.Equal(uidsOf(reported(s, statusReactionInformer)), []string{uid})
		})
		served := r.informer.firstServed()
		if served.IsZero() {
			r.b.Fatalf("UpdateStatus shows %s, which the informer never handed out", uid)
		}
		s.reactions = append(s.reactions, seen.Sub(served))
		s.polls = append(s.polls, served.Sub(changed))
	}
	return s
}

// measureNodes starts the update of each pending worker in turn, and times
// each from just before the node's write until UpdateStatus shows it
// updating.
func (r *statusReaction) measureNodes() statusSamples {
	var s statusSamples
	ctx := context.Background()
	for i, node := range r.workers {
		time.Sleep(statusReactionIdle)
		node = node.DeepCopy()
		node.Annotations = updatingTo(oldWorkerConfig, newWorkerConfig)
		start := time.Now()
		written, err := r.kube.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		if err != nil {
			r.b.Fatalf("starting the update of node %s: %v", node.Name, err)
		}
		s.writes = append(s.writes, time.Since(start))
		r.workers[i] = written
		seen := r.await("node "+node.Name+" updating", func(s *insightsv1alpha1.UpdateStatus) bool {
			return nodeShows(s, node.Name, "Updating")
		})
		s.reactions = append(s.reactions, seen.Sub(start))
	}
	return s
}

// await waits until the watch delivers an UpdateStatus that ok accepts,
// and returns when it arrived.
func (r *statusReaction) await(what string, ok func(*insightsv1alpha1.UpdateStatus) bool) time.Time {
	r.b.Helper()
	deadline := time.After(statusReactionTimeout)
	for {
		select {
		case e, open := <-r.watch.ResultChan():
			at := time.Now()
			if !open {
				r.b.Fatalf("the UpdateStatus watch closed while waiting for %s", what)
			}
			if s, isStatus := e.Object.(*insightsv1alpha1.UpdateStatus); isStatus && e.Type != watch.Deleted && ok(s) {
				return at
			}
		case <-deadline:
			r.b.Fatalf("UpdateStatus did not show %s within %s", what, statusReactionTimeout)
		}
	}
}

// awaitQuiet waits until the watch delivers nothing for quiet.
func (r *statusReaction) awaitQuiet(quiet time.Duration) {
	r.b.Helper()
	deadline := time.After(statusReactionTimeout)
	for {
		select {
		case _, open := <-r.watch.ResultChan():
			if !open {
				r.b.Fatal("the UpdateStatus watch closed")
			}
		case <-time.After(quiet):
			return
		case <-deadline:
			r.b.Fatalf("UpdateStatus was still written %s after the cluster was set up", statusReactionTimeout)
		}
	}
}

// nodeShows says whether UpdateStatus holds the operator's status insight
// of the node, in the state reason.
func nodeShows(s *insightsv1alpha1.UpdateStatus, node, reason string) bool {
	for _, informers := range poolsInformers(s) {
		for _, i := range informers {
			if i.Name != updatestatuses.BuiltinInformer {
				continue
			}
			for _, insight := range i.Insights {
				if insight.UID == "node/"+node {
					return strings.HasPrefix(insight.Impact.Summary, "Node "+node+": "+reason)
				}
			}
		}
	}
	return false
}

// poolsInformers are the informers' insights of the control plane and of
// every worker pool in UpdateStatus.
func poolsInformers(s *insightsv1alpha1.UpdateStatus) [][]insightsv1alpha1.InformerInsights {
	all := [][]insightsv1alpha1.InformerInsights{s.Status.ControlPlane.Informers}
	for _, p := range s.Status.WorkerPools {
		all = append(all, p.Informers)
	}
	return all
}

// reportLatencies reports the median, 90th percentile and worst of
// latencies, in milliseconds, under prefix.
func reportLatencies(b *testing.B, prefix string, latencies []time.Duration) {
	sorted := slices.Sorted(slices.Values(latencies))
	var all []string
	for _, d := range sorted {
		all = append(all, d.Round(time.Millisecond).String())
	}
	b.Logf("%s: %d reactions, fastest first: %s", prefix, len(sorted), strings.Join(all, " "))
	b.ReportMetric(milliseconds(percentile(sorted, 50)), prefix+"-p50-ms")
	b.ReportMetric(milliseconds(percentile(sorted, 90)), prefix+"-p90-ms")
	b.ReportMetric(milliseconds(sorted[len(sorted)-1]), prefix+"-max-ms")
}

func milliseconds(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
