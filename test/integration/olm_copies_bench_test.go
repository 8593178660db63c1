package integration

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/olmoperators"
	"github.com/update-insights/update-insights-operator/pkg/olm"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
	olmclient "github.com/update-insights/update-insights-operator/pkg/olm/generated/clientset/versioned"
	olminformers "github.com/update-insights/update-insights-operator/pkg/olm/generated/informers/externalversions"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
)

const (
	// The cluster of the issue: 50 operators that watch every namespace,
	// whose CSVs OLM copies into each of 2,000 namespaces.
	olmOperators         = 50
	olmWatchedNamespaces = 2000
	olmCopies            = olmOperators * olmWatchedNamespaces

	// Every olmCappedEvery-th operator supports OpenShift up to
	// olmCappedAt, below the plan's target: each is a finding of the plan.
	olmCappedEvery = 10
	olmCappedAt    = "4.16"

	// The cluster runs olmInstalled; the plan is for olmTarget, a minor
	// update, which the capped operators block.
	olmInstalled = "4.16.20"
	olmTarget    = "4.17.5"

	// olmWriters is how many requests the setup has in flight: enough to
	// create the copies in minutes, few enough for two cores.
	olmWriters = 32

	// olmResync is the operator's resync period (pkg/operator), for the
	// informers measured in this process.
	olmResync = 10 * time.Minute

	// olmTimeout bounds a cache's sync and the wait for the plan's answer.
	olmTimeout = 10 * time.Minute
)

// BenchmarkOLMCopiedCSVs shows what watching the CSVs with the label
// selector !olm.copiedFrom saves on a cluster where OLM copied the CSVs of
// 50 operators that watch every namespace into each of 2,000 namespaces:
// 100,050 CSVs, of which 50 are not copies. Against the local API server,
// it creates them in OLM's shapes (the copies as OLM's operator-group
// controller writes them, a status included), then reports:
//
//   - heap-MiB-with-selector, cached-csvs-with-selector,
//     sync-s-with-selector: the CSV informer built as the operator builds
//     it (olmoperators.NewInformers: the selector and StripCSV), in this
//     process: the live heap it adds once synced, the CSVs it caches and
//     how long its first list took;
//   - the same -without-selector, for the informer with StripCSV only;
//   - first-olm-plan-answer-s: the operator started as a process of its
//     own, how long until a watcher sees an UpdatePlan (created before the
//     start, for a minor update) hold the findings of the informer
//     operator-lifecycle-manager: one for each capped operator;
//   - operator-rss-MiB: the operator process's resident memory (VmRSS)
//     right then;
//   - setup-s and setup-etcd-db-MiB: how long creating the namespaces and
//     the CSVs took, and etcd's database size after it; figures of the
//     setup, not of the operator.
//
// A run writes 200,000 times and takes about 35 minutes on two cores shared
// with other work: 20 creating the CSVs, 14 deleting them at the end. Use
// -benchtime 1x, as the figures are taken once per call, and a -timeout
// longer than go test's 10 minutes:
//
//	KUBEBUILDER_ASSETS=$(hack/install-testbin.sh) go test ./test/integration/ -run '^$' -bench OLMCopiedCSVs -benchtime 1x -timeout 2h
func BenchmarkOLMCopiedCSVs(b *testing.B) {
	installOLMCRDs(b)
	setup := time.Now()
	createOLMCluster(b)
	setupTime := time.Since(setup)
	b.Logf("created %d namespaces, %d CSVs and %d copies, each with its status, in %s", olmOperators+olmWatchedNamespaces,
		olmOperators, olmCopies, setupTime.Round(time.Second))
	db := etcdDBSize(b)

	// The small cache first: the large one's garbage, collected before
	// each baseline anyway, does not then linger in the process.
	with := measureCSVCache(b, "with the selector", func(c olmclient.Interface) olminformers.SharedInformerFactory {
		return olmoperators.NewInformers(c, olmResync).CSVs
	})
	without := measureCSVCache(b, "without the selector", func(c olmclient.Interface) olminformers.SharedInformerFactory {
		return olminformers.NewSharedInformerFactoryWithOptions(c, olmResync, olminformers.WithTransform(olmoperators.StripCSV))
	})
	if with.cached != olmOperators || without.cached != olmOperators+olmCopies {
		b.Fatalf("cached %d CSVs with the selector and %d without, want %d and %d", with.cached, without.cached, olmOperators, olmOperators+olmCopies)
	}

	answer, rss := measureFirstOLMAnswer(b)

	b.ReportMetric(setupTime.Seconds(), "setup-s")
	b.ReportMetric(db, "setup-etcd-db-MiB")
	with.report(b, "with-selector")
	without.report(b, "without-selector")
	b.ReportMetric(answer.Seconds(), "first-olm-plan-answer-s")
	b.ReportMetric(rss, "operator-rss-MiB")
}

// installOLMCRDs installs OLM's CRDs, which no other test expects, and
// removes them when the benchmark ends, after the CSVs (createOLMCluster).
func installOLMCRDs(b *testing.B) {
	crds, err := envtest.InstallCRDs(testEnv.Config, envtest.CRDInstallOptions{Paths: olmCRDFiles, ErrorIfPathMissing: true})
	if err != nil {
		b.Fatal(err)
	}
	var names []string
	for _, crd := range crds {
		names = append(names, crd.Name)
	}
	deleteCRDsAtEnd(b, names...)
	waitForServed(b, operatorsv1alpha1.SchemeGroupVersion.String(), olmResources...)
}

// createOLMCluster creates the operators' namespaces and their CSVs, the
// watched namespaces and the copies in them, through a client of its own:
// client-go's default rate limit (5 requests a second) would take hours.
// They are deleted when the benchmark ends.
func createOLMCluster(b *testing.B) {
	cfg := rest.CopyConfig(testEnv.Config)
	cfg.QPS, cfg.Burst = 5000, 10000
	kube := kubernetes.NewForConfigOrDie(cfg)
	csvs := olmclient.NewForConfigOrDie(cfg).OperatorsV1alpha1().RESTClient()

	operators := make([]olmOperator, olmOperators)
	namespaces := make([]string, 0, olmOperators+olmWatchedNamespaces)
	for i := range operators {
		operators[i] = newOLMOperator(i)
		namespaces = append(namespaces, operators[i].namespace)
	}
	for i := range olmWatchedNamespaces {
		namespaces = append(namespaces, watchedNamespace(i))
	}
	// The CSVs go by namespace, olmWriters namespaces at a time, before
	// OLM's CRDs: the API server deletes a removed CRD's objects one at a
	// time, which with 6,000 CSVs was three times slower.
	b.Cleanup(func() {
		start := time.Now()
		if err := inParallel(len(namespaces), func(i int) error {
			ctx := context.Background()
			err := csvs.Delete().Namespace(namespaces[i]).Resource("clusterserviceversions").Do(ctx).Error()
			if err == nil || apierrors.IsNotFound(err) {
				err = kube.CoreV1().Namespaces().Delete(ctx, namespaces[i], metav1.DeleteOptions{})
			}
			if apierrors.IsNotFound(err) {
				return nil
			}
			return err
		}); err != nil {
			b.Errorf("deleting the CSVs and their namespaces: %v", err)
		}
		b.Logf("deleted the CSVs and their namespaces in %s", time.Since(start).Round(time.Second))
	})
	// NamespaceLifecycle, which the API server runs, refuses objects in a
	// namespace that does not exist.
	if err := inParallel(len(namespaces), func(i int) error {
		_, err := kube.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespaces[i]}}, metav1.CreateOptions{})
		return err
	}); err != nil {
		b.Fatalf("creating the namespaces: %v", err)
	}

	// Each body is the same for all the copies of an operator: the
	// namespace is the request's.
	originals, copies := make([]csvBodies, olmOperators), make([]csvBodies, olmOperators)
	for i, op := range operators {
		originals[i], copies[i] = op.bodies(b)
	}
	b.Logf("each original CSV is %d bytes and its status %d; each copy %d and its status %d",
		len(originals[0].object), len(originals[0].status), len(copies[0].object), len(copies[0].status))
	if err := inParallel(olmOperators, func(i int) error {
		return createCSV(csvs, operators[i].namespace, operators[i].csv, originals[i])
	}); err != nil {
		b.Fatalf("creating the CSVs: %v", err)
	}
	start := time.Now()
	if err := inParallel(olmCopies, func(i int) error {
		op := i % olmOperators
		return createCSV(csvs, watchedNamespace(i/olmOperators), operators[op].csv, copies[op])
	}); err != nil {
		b.Fatalf("creating the copies: %v", err)
	}
	b.Logf("created the %d copies in %s: %.0f a second", olmCopies, time.Since(start).Round(time.Second), olmCopies/time.Since(start).Seconds())
}

func watchedNamespace(i int) string { return fmt.Sprintf("tenant-%04d", i) }

// createCSV creates a CSV, then writes its status, as OLM does: the API
// server drops the status of a create, the CRD having a status
// subresource. The status is written as an update, which measured a little
// faster than a merge patch (the server applies no patch), of the status
// alone: the status subresource keeps the rest of the object as it is.
func createCSV(client rest.Interface, namespace, name string, bodies csvBodies) error {
	ctx := context.Background()
	created, err := client.Post().Namespace(namespace).Resource("clusterserviceversions").Body(bodies.object).Do(ctx).Raw()
	if err != nil {
		return fmt.Errorf("creating CSV %s/%s: %w", namespace, name, err)
	}
	var meta struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(created, &meta); err != nil {
		return fmt.Errorf("reading the created CSV %s/%s: %w", namespace, name, err)
	}
	update, err := json.Marshal(statusUpdate{APIVersion: operatorsv1alpha1.SchemeGroupVersion.String(), Kind: "ClusterServiceVersion",
		Metadata: statusUpdateMeta{Name: name, ResourceVersion: meta.Metadata.ResourceVersion}, Status: bodies.status})
	if err != nil {
		return err
	}
	if err := client.Put().Namespace(namespace).Resource("clusterserviceversions").Name(name).SubResource("status").
		Body(update).Do(ctx).Error(); err != nil {
		return fmt.Errorf("writing the status of CSV %s/%s: %w", namespace, name, err)
	}
	return nil
}

// statusUpdate is the body of a status update of a CSV.
type statusUpdate struct {
	APIVersion string           `json:"apiVersion"`
	Kind       string           `json:"kind"`
	Metadata   statusUpdateMeta `json:"metadata"`
	Status     json.RawMessage  `json:"status"`
}

type statusUpdateMeta struct {
	Name            string `json:"name"`
	ResourceVersion string `json:"resourceVersion"`
}

// inParallel runs do for every index below n on olmWriters goroutines, and
// returns the first error, after which it starts no more.
func inParallel(n int, do func(i int) error) error {
	var (
		next     atomic.Int64
		failed   atomic.Bool
		once     sync.Once
		firstErr error
		wg       sync.WaitGroup
	)
	for range olmWriters {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n && !failed.Load(); i = int(next.Add(1) - 1) {
				if err := do(i); err != nil {
					once.Do(func() { firstErr = err })
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return firstErr
}

// etcdDBSize is the size of etcd's database file in MiB, from etcd's
// metrics: what its quota (--quota-backend-bytes) bounds.
func etcdDBSize(b *testing.B) float64 {
	u := *testEnv.ControlPlane.Etcd.URL
	u.Path = "/metrics"
	resp, err := http.Get(u.String())
	if err != nil {
		b.Fatalf("reading etcd's metrics: %v", err)
	}
	defer resp.Body.Close()
	values := map[string]float64{}
	scanner := bufio.NewScanner(resp.Body)
	for scanner.Scan() {
		name, value, ok := strings.Cut(scanner.Text(), " ")
		if !ok || !strings.HasPrefix(name, "etcd_") {
			continue
		}
		if v, err := strconv.ParseFloat(value, 64); err == nil {
			values[name] = v
		}
	}
	if err := scanner.Err(); err != nil {
		b.Fatalf("reading etcd's metrics: %v", err)
	}
	const mib = 1 << 20
	b.Logf("etcd: database %.0f MiB, %.0f MiB of it in use, quota %.0f MiB", values["etcd_mvcc_db_total_size_in_bytes"]/mib,
		values["etcd_mvcc_db_total_size_in_use_in_bytes"]/mib, values["etcd_server_quota_backend_bytes"]/mib)
	return values["etcd_mvcc_db_total_size_in_bytes"] / mib
}

// csvCache is what a CSV informer cost in this process.
type csvCache struct {
	heapMiB float64
	cached  int
	sync    time.Duration
}

func (c csvCache) report(b *testing.B, suffix string) {
	b.ReportMetric(c.heapMiB, "heap-MiB-"+suffix)
	b.ReportMetric(float64(c.cached), "cached-csvs-"+suffix)
	b.ReportMetric(c.sync.Seconds(), "sync-s-"+suffix)
}

// measureCSVCache starts the CSV informer of the factory newFactory
// builds, with the operator's client settings, and returns the live heap
// it adds once synced, what it caches and how long its sync took. It
// stops the informer before returning.
func measureCSVCache(b *testing.B, what string, newFactory func(olmclient.Interface) olminformers.SharedInformerFactory) csvCache {
	cfg := rest.CopyConfig(testEnv.Config)
	cfg.QPS, cfg.Burst = 200, 400 // the operator's (pkg/operator)
	factory := newFactory(olmclient.NewForConfigOrDie(cfg))
	informer := factory.Operators().V1alpha1().ClusterServiceVersions().Informer()

	before := liveHeap()
	ctx, cancel := context.WithTimeout(context.Background(), olmTimeout)
	defer cancel()
	start := time.Now()
	factory.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		b.Fatalf("the CSV informer %s did not sync within %s", what, olmTimeout)
	}
	c := csvCache{sync: time.Since(start), cached: len(informer.GetStore().ListKeys())}
	c.heapMiB = float64(int64(liveHeap())-int64(before)) / (1 << 20)
	runtime.KeepAlive(informer)
	cancel()
	factory.Shutdown()
	b.Logf("the CSV informer %s: %d CSVs cached in %.1f MiB of heap, synced in %s", what, c.cached, c.heapMiB, c.sync.Round(time.Millisecond))
	return c
}

// liveHeap is the heap of the objects alive in this process. The second
// collection frees what the first found only finalizers kept alive.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// measureFirstOLMAnswer starts the operator against a cluster that runs
// olmInstalled and has an UpdatePlan for olmTarget, and returns how long
// after the start a watch of the plan saw the findings of OLM's operators
// in it, and the operator's resident memory then, in MiB.
func measureFirstOLMAnswer(b *testing.B) (time.Duration, float64) {
	createClusterVersion(b, nil, olmClusterVersionStatus())
	plans := insightsClient.InsightsV1alpha1().UpdatePlans()
	if _, err := createAndDelete(b, plans.Create, plans.Delete, updatePlan(olmTarget, olmTarget)); err != nil {
		b.Fatal(err)
	}
	w, err := plans.Watch(context.Background(), metav1.ListOptions{FieldSelector: fields.OneTermEqualSelector("metadata.name", olmTarget).String()})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Stop()

	start := time.Now()
	op := startOperator(b)
	findings := awaitOLMAnswer(b, w)
	answered := time.Since(start)
	rss := residentMiB(b, op.Pid())
	b.Logf("the operator's first plan answer held %d findings of %s, %s after its start; its VmRSS then: %.1f MiB",
		findings, olm.Informer, answered.Round(time.Millisecond), rss)
	return answered, rss
}

// olmClusterVersionStatus is a cluster that completed its update to
// olmInstalled and is offered olmTarget.
func olmClusterVersionStatus() configv1.ClusterVersionStatus {
	started := metav1.NewTime(time.Now().Add(-48 * time.Hour).Truncate(time.Second))
	completed := metav1.NewTime(started.Add(47 * time.Minute))
	return configv1.ClusterVersionStatus{
		Desired:            configv1.Release{Version: olmInstalled, Image: "quay.io/release:" + olmInstalled},
		ObservedGeneration: 1,
		VersionHash:        "hash",
		Conditions:         []configv1.ClusterOperatorStatusCondition{{Type: "Failing", Status: configv1.ConditionFalse, LastTransitionTime: started}},
		History: []configv1.UpdateHistory{{Version: olmInstalled, Image: "quay.io/release:" + olmInstalled, State: configv1.CompletedUpdate,
			StartedTime: started, CompletionTime: &completed, Verified: true}},
		AvailableUpdates: []configv1.Release{{Version: olmTarget, Image: "quay.io/release:" + olmTarget}},
	}
}

// awaitOLMAnswer reads the plan's watch until its status holds the answer
// of OLM's operators: a finding for each capped operator, and no more
// (copies are not operators). It returns the findings' count.
func awaitOLMAnswer(b *testing.B, w watch.Interface) int {
	want := (olmOperators + olmCappedEvery - 1) / olmCappedEvery
	deadline := time.After(olmTimeout)
	for {
		select {
		case e, open := <-w.ResultChan():
			if !open {
				b.Fatal("the UpdatePlan watch closed before the plan held the findings of OLM's operators")
			}
			p, isPlan := e.Object.(*insightsv1alpha1.UpdatePlan)
			if !isPlan || e.Type == watch.Deleted {
				continue
			}
			for _, informer := range updateplan.Informers(&p.Status) {
				if informer.Name != olm.Informer {
					continue
				}
				if len(informer.Insights) != want {
					b.Fatalf("the plan holds %d findings of %s, want %d: %+v", len(informer.Insights), olm.Informer, want, informer.Insights)
				}
				return want
			}
		case <-deadline:
			b.Fatalf("the plan did not hold the findings of %s within %s", olm.Informer, olmTimeout)
		}
	}
}

// residentMiB is a process's resident memory (VmRSS) in MiB.
func residentMiB(b *testing.B, pid int) float64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for line := range strings.Lines(string(status)) {
		if value, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kib, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 64)
			if err != nil {
				b.Fatalf("reading VmRSS of process %d: %v", pid, err)
			}
			return kib / 1024
		}
	}
	b.Fatalf("process %d has no VmRSS", pid)
	return 0
}
