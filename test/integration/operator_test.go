package integration

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"

	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/test/internal/process"
)

const (
	operatorNamespace = names.OwnNamespace
	leaseName         = "update-insights-operator-lock"
)

// eventually is the limit of a wait for what the operator (or the API
// server, or a test informer) will do. A pass returns as soon as it is
// done, so the limit only has to hold on a busy machine: CI runs on two
// cores shared with whatever else is running. How fast the operator
// reacts is measured by the benchmarks (make measure), not here.
const eventually = 2 * time.Minute

// terminationGracePeriod is how long the kubelet lets the operator exit
// after SIGTERM before it kills it: Kubernetes' default, which the
// manifests keep.
const terminationGracePeriod = 30 * time.Second

// syncBuffer collects a process's output while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// operatorProcess is the operator running against the test's API server,
// with its output kept for the test to read.
type operatorProcess struct {
	*process.Operator
	output *syncBuffer
}

func ensureOperatorNamespace(t testing.TB) {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: operatorNamespace}}
	if _, err := kubeClient.CoreV1().Namespaces().Create(context.Background(), ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatalf("creating namespace %s: %v", operatorNamespace, err)
	}
}

// startOperator starts the operator, with extra flags (which win over the
// defaults here), and leader election timings of seconds: a standby tries
// every second, so that it takes over a lease released at SIGTERM within
// one, while the leader may take ten seconds to renew its lease, so that a
// busy machine does not make it lose the lease (and exit) mid-test. It logs
// at -v=2 (insight writes log at -v=4). Alerts are not read unless a test gives an --alerts-url: the
// test's API server has no Prometheus beside it. It is stopped when the test ends (SIGTERM, so that it releases
// its lease for the next test), and its output is logged if the test failed.
func startOperator(t testing.TB, extra ...string) *operatorProcess {
	t.Helper()
	ensureOperatorNamespace(t)
	p := &operatorProcess{output: &syncBuffer{}}
	var err error
	p.Operator, err = process.Start(operatorBinary, kubeconfigPath, p.output, append([]string{
		"--leader-election-lease-duration=15s",
		"--leader-election-renew-deadline=10s",
		"--leader-election-retry-period=1s",
		"--alerts-url=",
		"-v=2",
	}, extra...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := p.Stop(terminationGracePeriod); err != nil {
			t.Error(err)
		}
		if t.Failed() {
			t.Logf("operator (pid %d) output:\n%s", p.Pid(), p.output.String())
		}
	})
	return p
}

// stop stops the operator as the kubelet does and checks that it exits
// cleanly and in time.
func (p *operatorProcess) stop(t testing.TB, within time.Duration) {
	t.Helper()
	start := time.Now()
	code, err := p.Stop(within)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the operator exited %s after SIGTERM", time.Since(start).Round(time.Millisecond))
	if code != 0 {
		t.Errorf("the operator exited with code %d after SIGTERM, want 0", code)
	}
}

func (p *operatorProcess) waitForOutput(t testing.TB, text string, timeout time.Duration) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, timeout, true, func(context.Context) (bool, error) {
		return strings.Contains(p.output.String(), text), nil
	})
	if err != nil {
		t.Fatalf("the operator did not print %q within %s", text, timeout)
	}
}

// deleteLease deletes the operator's lease, as if it had expired.
func deleteLease(t testing.TB) {
	t.Helper()
	err := kubeClient.CoordinationV1().Leases(operatorNamespace).Delete(context.Background(), leaseName, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatalf("deleting the lease: %v", err)
	}
}

func leaseHolder(t testing.TB) string {
	t.Helper()
	lease, err := kubeClient.CoordinationV1().Leases(operatorNamespace).Get(context.Background(), leaseName, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return ""
	}
	if err != nil {
		t.Fatalf("reading the lease: %v", err)
	}
	if lease.Spec.HolderIdentity == nil {
		return ""
	}
	return *lease.Spec.HolderIdentity
}

// waitForRenewals waits until holder has renewed the lease n times, and
// fails if anyone else takes it meanwhile.
func waitForRenewals(t testing.TB, holder string, n int) {
	t.Helper()
	var last time.Time
	renewals := -1 // the first renewal seen is the one before the wait
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
		lease, err := kubeClient.CoordinationV1().Leases(operatorNamespace).Get(ctx, leaseName, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if h := ptr.Deref(lease.Spec.HolderIdentity, ""); h != holder {
			return false, fmt.Errorf("the lease moved from %q to %q while its holder was running", holder, h)
		}
		if renewed := lease.Spec.RenewTime; renewed != nil && !renewed.Time.Equal(last) {
			last, renewals = renewed.Time, renewals+1
		}
		return renewals >= n, nil
	})
	if err != nil {
		t.Fatalf("waiting for %d renewals of the lease by %s: %v", n, holder, err)
	}
}

// waitForHolder waits until the lease is held by someone accepted by want.
func waitForHolder(t testing.TB, timeout time.Duration, want func(holder string) bool) string {
	t.Helper()
	var holder string
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, timeout, true, func(context.Context) (bool, error) {
		holder = leaseHolder(t)
		return want(holder), nil
	})
	if err != nil {
		t.Fatalf("the lease did not reach the wanted holder within %s; holder is %q", timeout, holder)
	}
	return holder
}

func TestVersionCommandPrintsTheLinkedVersion(t *testing.T) {
	out, err := exec.Command(operatorBinary, "version").CombinedOutput()
	if err != nil {
		t.Fatalf("version: %v\n%s", err, out)
	}
	if !strings.HasPrefix(string(out), "update-insights-operator "+testVersion+" ") {
		t.Errorf("version printed %q, want it to start with the linked version %s", out, testVersion)
	}
}

func TestOnlyOneInstanceLeadsAndAStandbyTakesOver(t *testing.T) {
	first := startOperator(t)
	firstHolder := waitForHolder(t, eventually, func(h string) bool { return h != "" })
	first.waitForOutput(t, "operator started", eventually)

	second := startOperator(t)
	second.waitForOutput(t, "Attempting to acquire leader lease", eventually)
	// Several retry periods pass without the standby taking the lease: the
	// leader renews it once a period, as the standby tries to take it, so
	// they are counted in its renewals, however slow a busy machine makes
	// them.
	waitForRenewals(t, firstHolder, 4)
	if strings.Contains(second.output.String(), "operator started") {
		t.Fatal("the standby started its controllers while another instance held the lease")
	}

	stopped := time.Now()
	first.stop(t, terminationGracePeriod)
	secondHolder := waitForHolder(t, eventually, func(h string) bool { return h != "" && h != firstHolder })
	second.waitForOutput(t, "operator started", eventually)
	t.Logf("lease passed from %s to %s %s after the leader was told to stop", firstHolder, secondHolder, time.Since(stopped).Round(time.Millisecond))

	second.stop(t, terminationGracePeriod)
}
