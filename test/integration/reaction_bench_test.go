package integration

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/test/internal/process"
)

const (
	reactionRounds    = 3
	reactionChanges   = 200
	reactionOperators = 33

	// reactionSpacing separates one ClusterOperator change from the next
	// once the previous one was seen: during an update operators report
	// their versions seconds apart, so each change should meet a controller
	// that has finished with the previous one, not the tail of its work.
	reactionSpacing = 50 * time.Millisecond

	// reactionQuiet is how long nothing may be written before a controller
	// that has synced its caches counts as settled.
	reactionQuiet = 2 * time.Second

	// reactionTimeout bounds every wait: for a process to settle, and for
	// the insight to follow one change.
	reactionTimeout = 30 * time.Second

	// reactionLogEnv names a directory to keep the controllers' logs in,
	// one file per side and round, to find where slow reactions went.
	reactionLogEnv = "REACTION_LOG_DIR"
	// reactionVerbosityEnv sets the operator's -v (2 by default, which logs
	// every write).
	reactionVerbosityEnv = "REACTION_OPERATOR_VERBOSITY"
)

// reactionSide is a controller whose reaction time is measured: started
// as a process of its own, it must keep the ClusterVersion insight's
// completionPercent current.
type reactionSide struct {
	name  string
	start func(b *testing.B, log *os.File) *process.Operator
}

// BenchmarkReactionTime measures what a console sees: how long from a change
// the control plane's insight reports to a watch of the
// ClusterVersionProgressInsight delivering it. The benchmark is the console,
// a process of its own with its own client and no client-side rate limit;
// it watches the insight and makes two kinds of change, a walk of each:
//
//   - a ClusterOperator reporting a new version (walking them to the target
//     version one by one, then back), until the insight's completionPercent
//     moves;
//   - the ClusterVersion's Progressing message moving on, as the CVO writes
//     it while it applies the payload ("Working towards 4.16.0: 106 of 863
//     done (12% complete)", cluster-version-operator
//     pkg/cvo/status.go), until the insight's Updating condition quotes it;
//   - the update retargeted, to another release and back, as the CVO writes
//     it (the desired release, and a new Partial history entry ending the
//     previous one: pkg/cvo/status.go mergeOperatorHistory), until the
//     insight's target is the new release. This is where every controller
//     wakes: each ClusterOperator's insight has a new target too.
//
// It measures two controllers the same way, one after the other, each as a
// process of its own against the same kube-apiserver and etcd, and each only
// once settled (its caches synced, then nothing written for reactionQuiet):
//
//   - operator: `update-insights-operator start`, as in a cluster (default
//     leader election timings, the lease taken over from the previous run);
//   - reference: test/referencecontroller, a library-go controller that only
//     counts the ClusterOperators at the target, quotes the ClusterVersion's
//     Progressing message and writes these: the floor that the API server,
//     its watches and a controller's informer and queue set.
//
// Each latency starts when the benchmark sends the status update (so it
// includes that write, for both sides alike) and ends when the insight's
// watch event arrives. There are reactionRounds rounds of
// reactionChanges changes per side; per round and side it reports the
// median, 90th percentile and worst, and the median of the writes alone. Setting REACTION_LOG_DIR keeps the controllers' logs.
//
//	KUBEBUILDER_ASSETS=$(hack/install-testbin.sh) go test ./test/integration/ -run '^$' -bench ReactionTime -benchtime 1x
func BenchmarkReactionTime(b *testing.B) {
	ensureOperatorNamespace(b)
	reference := buildReferenceController(b)
	verbosity := "2"
	if v := os.Getenv(reactionVerbosityEnv); v != "" {
		verbosity = v
	}
	logDir := os.Getenv(reactionLogEnv)
	if logDir == "" {
		logDir = b.TempDir()
	}
	sides := []reactionSide{
		{name: "operator", start: func(b *testing.B, log *os.File) *process.Operator {
			// The reference reads no alerts; neither does the operator here.
			p, err := process.Start(operatorBinary, kubeconfigPath, log, "-v="+verbosity, "--alerts-url=")
			if err != nil {
				b.Fatal(err)
			}
			return p
		}},
		{name: "reference", start: func(b *testing.B, log *os.File) *process.Operator {
			p, err := process.StartCommand(log, reference, "--kubeconfig", kubeconfigPath)
			if err != nil {
				b.Fatal(err)
			}
			return p
		}},
	}

	versions := map[string]string{}
	for i := range reactionOperators {
		versions[operatorName(i)] = fromVersion
	}
	createClusterOperators(b, versions)
	createClusterVersion(b, nil, midUpdateStatus())

	c := newConsole(b)
	for range b.N {
		for round := 1; round <= reactionRounds; round++ {
			for _, side := range sides {
				logPath := filepath.Join(logDir, fmt.Sprintf("%s-%d.log", side.name, round))
				log, err := os.Create(logPath)
				if err != nil {
					b.Fatal(err)
				}
				p := side.start(b, log)
				// Stopped however the benchmark ends; a second Stop returns at once.
				b.Cleanup(func() { _, _ = p.Stop(15 * time.Second) })
				c.waitUntilSettled(b, p, logPath)
				operators := c.walk(b, reactionChanges, c.changeOperator)
				clusterVersion := c.walk(b, reactionChanges, c.changeClusterVersion)
				retargets := c.walk(b, reactionChanges, c.retarget)
				if _, err := p.Stop(15 * time.Second); err != nil {
					b.Fatal(err)
				}
				log.Close()
				operators.report(b, fmt.Sprintf("%s-r%d", side.name, round))
				clusterVersion.report(b, fmt.Sprintf("%s-cv-r%d", side.name, round))
				retargets.report(b, fmt.Sprintf("%s-target-r%d", side.name, round))
			}
		}
	}
}

func operatorName(i int) string { return fmt.Sprintf("operator-%02d", i) }

// buildReferenceController builds test/referencecontroller.
func buildReferenceController(b *testing.B) string {
	binary := filepath.Join(b.TempDir(), "referencecontroller")
	build := exec.Command("go", "build", "-o", binary, "../referencecontroller")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		b.Fatalf("building the reference controller: %v", err)
	}
	return binary
}

// console changes ClusterOperators and watches the insight, as a console
// (or an administrator's `oc`) would, through clients of its own.
type console struct {
	config   configclient.Interface
	insights insightsclient.Interface
	kube     kubernetes.Interface

	// operators and clusterVersion are the objects as last written, so that
	// a change needs no read first.
	operators      map[string]*configv1.ClusterOperator
	clusterVersion *configv1.ClusterVersion
	// updated counts the operators at the target version; the walk moves
	// them to the target one by one, then back.
	updated, changes int
	// manifests counts the payload manifests the ClusterVersion says are
	// done.
	manifests int
}

func newConsole(b *testing.B) *console {
	cfg := rest.CopyConfig(testEnv.Config)
	// No client-side rate limit: client-go's default (QPS 5, burst 10) would
	// delay the console's own requests and show up as reaction time.
	cfg.QPS = -1
	c := &console{operators: map[string]*configv1.ClusterOperator{}}
	var err error
	if c.config, err = configclient.NewForConfig(cfg); err != nil {
		b.Fatal(err)
	}
	if c.insights, err = insightsclient.NewForConfig(cfg); err != nil {
		b.Fatal(err)
	}
	if c.kube, err = kubernetes.NewForConfig(cfg); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for i := range reactionOperators {
		co, err := c.config.ConfigV1().ClusterOperators().Get(ctx, operatorName(i), metav1.GetOptions{})
		if err != nil {
			b.Fatal(err)
		}
		c.operators[co.Name] = co
	}
	if c.clusterVersion, err = c.config.ConfigV1().ClusterVersions().Get(ctx, names.ClusterVersion, metav1.GetOptions{}); err != nil {
		b.Fatal(err)
	}
	return c
}

// completion is the percent the insight says, rounded as the API documents it.
func (c *console) completion() int32 {
	return int32(math.RoundToEven(float64(c.updated) / float64(reactionOperators) * 100))
}

var cachesSynced = regexp.MustCompile(`Caches are synced for (\S+)`)

// waitUntilSettled waits until every controller of process p has synced its
// caches (library-go logs when each has), the insight shows the completion
// of the ClusterOperators, and then nothing is written to insights,
// ClusterOperators or Events for reactionQuiet.
func (c *console) waitUntilSettled(b *testing.B, p *process.Operator, logPath string) {
	b.Helper()
	deadline := time.Now().Add(reactionTimeout)
	for {
		if !p.Running() {
			b.Fatalf("the process exited; its log: %s", logPath)
		}
		if log, err := os.ReadFile(logPath); err == nil && allCachesSynced(string(log)) {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("the controllers did not sync their caches within %s; log: %s", reactionTimeout, logPath)
		}
		time.Sleep(50 * time.Millisecond)
	}
	waitForInsight(b, reactionTimeout, fmt.Sprintf("at %d%%", c.completion()), func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i != nil && i.Status.CompletionPercent == c.completion()
	})
	c.waitForQuiet(b, time.Until(deadline))
}

// allCachesSynced says whether every controller that began waiting for its
// caches in log has synced them.
func allCachesSynced(log string) bool {
	waiting := regexp.MustCompile(`Waiting for caches to sync for (\S+)`).FindAllStringSubmatch(log, -1)
	if len(waiting) == 0 {
		return false
	}
	synced := map[string]bool{}
	for _, m := range cachesSynced.FindAllStringSubmatch(log, -1) {
		synced[m[1]] = true
	}
	for _, m := range waiting {
		if !synced[m[1]] {
			return false
		}
	}
	return true
}

// waitForQuiet waits until no insight, ClusterOperator or Event changes for
// reactionQuiet.
func (c *console) waitForQuiet(b *testing.B, timeout time.Duration) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	events := make(chan struct{}, 1)
	for _, open := range []func(context.Context, metav1.ListOptions) (watch.Interface, error){
		c.insights.InsightsV1alpha1().ClusterVersionProgressInsights().Watch,
		c.insights.InsightsV1alpha1().ClusterOperatorProgressInsights().Watch,
		c.insights.InsightsV1alpha1().UpdateHealthInsights().Watch,
		c.config.ConfigV1().ClusterOperators().Watch,
		c.kube.CoreV1().Events(corev1.NamespaceAll).Watch,
	} {
		// The initial events, one for each object that exists, arrive at
		// once and only start the quiet period.
		w, err := open(ctx, metav1.ListOptions{})
		if err != nil {
			b.Fatal(err)
		}
		defer w.Stop()
		go func() {
			for range w.ResultChan() {
				select {
				case events <- struct{}{}:
				default:
				}
			}
		}()
	}
	quiet := time.NewTimer(reactionQuiet)
	for {
		select {
		case <-events:
			quiet.Reset(reactionQuiet)
		case <-quiet.C:
			return
		case <-ctx.Done():
			b.Fatalf("writes went on for %s after the controllers synced their caches", reactionTimeout)
		}
	}
}

// walkResult holds the latencies of one walk, and when each change was
// sent, to find a slow one in the controllers' logs.
type walkResult struct {
	reactions, writes []time.Duration
	starts            []time.Time
}

// change writes one change and returns when the insight shows it.
type change func(ctx context.Context) (shown func(*insightsv1alpha1.ClusterVersionProgressInsight) bool, err error)

// walk makes n changes, each after the insight showed the previous one and
// reactionSpacing passed, and times each until the insight's watch shows it.
func (c *console) walk(b *testing.B, n int, next change) walkResult {
	b.Helper()
	ctx := context.Background()
	w, err := c.insights.InsightsV1alpha1().ClusterVersionProgressInsights().Watch(ctx, metav1.ListOptions{
		FieldSelector: fields.OneTermEqualSelector("metadata.name", names.ClusterVersion).String(),
	})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Stop()

	r := walkResult{reactions: make([]time.Duration, 0, n), writes: make([]time.Duration, 0, n)}
	for range n {
		time.Sleep(reactionSpacing)
		start := time.Now()
		shown, err := next(ctx)
		if err != nil {
			b.Fatal(err)
		}
		r.writes = append(r.writes, time.Since(start))
		if err := waitForShown(w, shown, reactionTimeout); err != nil {
			b.Fatal(err)
		}
		r.reactions = append(r.reactions, time.Since(start))
		r.starts = append(r.starts, start)
	}
	return r
}

// changeOperator moves the next ClusterOperator to the target version (or,
// every other pass, back), which moves the completion.
func (c *console) changeOperator(ctx context.Context) (func(*insightsv1alpha1.ClusterVersionProgressInsight) bool, error) {
	i, version := c.updated, toVersion
	if (c.changes/reactionOperators)%2 == 1 {
		i, version = c.updated-1, fromVersion
	}
	co := c.operators[operatorName(i)].DeepCopy()
	co.Status.Versions = []configv1.OperandVersion{{Name: "operator", Version: version}}
	written, err := c.config.ConfigV1().ClusterOperators().UpdateStatus(ctx, co, metav1.UpdateOptions{})
	if err != nil {
		return nil, fmt.Errorf("writing ClusterOperator %s status: %w", co.Name, err)
	}
	if version == toVersion {
		c.updated++
	} else {
		c.updated--
	}
	c.changes++
	c.operators[co.Name] = written
	want := c.completion()
	return func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i.Status.CompletionPercent == want
	}, nil
}

// changeClusterVersion has the ClusterVersion's Progressing message count
// one more manifest done, as the CVO's does while it applies the payload.
func (c *console) changeClusterVersion(ctx context.Context) (func(*insightsv1alpha1.ClusterVersionProgressInsight) bool, error) {
	const manifests = 863
	c.manifests = c.manifests%manifests + 1
	message := fmt.Sprintf("Working towards %s: %d of %d done (%d%% complete)", toVersion, c.manifests, manifests, c.manifests*100/manifests)
	cv := c.clusterVersion.DeepCopy()
	for i := range cv.Status.Conditions {
		if cv.Status.Conditions[i].Type == configv1.OperatorProgressing {
			cv.Status.Conditions[i].Message = message
		}
	}
	written, err := c.config.ConfigV1().ClusterVersions().UpdateStatus(ctx, cv, metav1.UpdateOptions{})
	if err != nil {
		return nil, fmt.Errorf("writing the ClusterVersion status: %w", err)
	}
	c.clusterVersion = written
	return func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		updating := meta.FindStatusCondition(i.Status.Conditions, insightsv1alpha1.ClusterVersionProgressInsightUpdating)
		return updating != nil && strings.Contains(updating.Message, "'"+message+"'")
	}, nil
}

// retargetTo is the release the update is retargeted to, and back from.
const retargetTo = "4.16.1"

// retargetHistory is how many history entries the retargets keep: the CVO
// keeps up to 100 (pkg/cvo/status.go MaxHistory), which a walk of 200
// retargets would reach, and which only makes the objects larger.
const retargetHistory = 10

// retarget has the update move to the other release, as the CVO writes a
// new desired release.
func (c *console) retarget(ctx context.Context) (func(*insightsv1alpha1.ClusterVersionProgressInsight) bool, error) {
	cv := c.clusterVersion.DeepCopy()
	target := retargetTo
	if cv.Status.Desired.Version == retargetTo {
		target = toVersion
	}
	release := configv1.Release{Version: target, Image: "quay.io/release:" + target}
	now := metav1.Now()
	cv.Status.Desired = release
	if len(cv.Status.History) > 0 && cv.Status.History[0].CompletionTime == nil {
		cv.Status.History[0].CompletionTime = &now
	}
	cv.Status.History = append([]configv1.UpdateHistory{{Version: target, Image: release.Image, State: configv1.PartialUpdate, StartedTime: now}}, cv.Status.History...)
	cv.Status.History = cv.Status.History[:min(len(cv.Status.History), retargetHistory)]
	for i := range cv.Status.Conditions {
		if cv.Status.Conditions[i].Type == configv1.OperatorProgressing {
			cv.Status.Conditions[i].Message = "Working towards " + target
		}
	}
	written, err := c.config.ConfigV1().ClusterVersions().UpdateStatus(ctx, cv, metav1.UpdateOptions{})
	if err != nil {
		return nil, fmt.Errorf("writing the ClusterVersion status: %w", err)
	}
	c.clusterVersion = written
	return func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i.Status.Versions.Target.Version == target
	}, nil
}

// report reports the walk's figures, in milliseconds, under prefix.
func (r walkResult) report(b *testing.B, prefix string) {
	byLatency := make([]int, len(r.reactions))
	for i := range byLatency {
		byLatency[i] = i
	}
	slices.SortFunc(byLatency, func(a, b int) int { return cmp.Compare(r.reactions[a], r.reactions[b]) })
	var slowest []string
	for _, i := range byLatency[max(0, len(byLatency)-5):] {
		slowest = append(slowest, fmt.Sprintf("%s (sent %s)", r.reactions[i].Round(100*time.Microsecond), r.starts[i].Format("15:04:05.000")))
	}
	b.Logf("%s: slowest reactions %s", prefix, strings.Join(slowest, ", "))

	reactions, writes := slices.Sorted(slices.Values(r.reactions)), slices.Sorted(slices.Values(r.writes))
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(percentile(reactions, 50)), prefix+"-p50-ms")
	b.ReportMetric(ms(percentile(reactions, 90)), prefix+"-p90-ms")
	b.ReportMetric(ms(reactions[len(reactions)-1]), prefix+"-max-ms")
	b.ReportMetric(ms(percentile(writes, 50)), prefix+"-write-p50-ms")
}

// percentile returns the p-th percentile of sorted durations (nearest rank).
func percentile(sorted []time.Duration, p int) time.Duration {
	return sorted[(len(sorted)*p+99)/100-1]
}

func waitForShown(w watch.Interface, shown func(*insightsv1alpha1.ClusterVersionProgressInsight) bool, timeout time.Duration) error {
	deadline := time.After(timeout)
	for {
		select {
		case e, ok := <-w.ResultChan():
			if !ok {
				return fmt.Errorf("the watch closed")
			}
			if i, ok := e.Object.(*insightsv1alpha1.ClusterVersionProgressInsight); ok && shown(i) {
				return nil
			}
		case <-deadline:
			return fmt.Errorf("the insight did not show the change within %s", timeout)
		}
	}
}
