package integration

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
	"github.com/update-insights/update-insights-operator/test/internal/process"
)

// muoInformer is `informer managed-upgrade` run as a process on a fixed
// loopback port, with its serving certificate in files the test rewrites:
// it can be killed and started again where the operator calls it.
type muoInformer struct {
	namespace         string
	address           string
	certFile, keyFile string
	ca                *informertest.CA
	proc              *process.Operator
	output            *syncBuffer
}

// startMUOInformer starts the informer of the UpgradeConfigs in namespace
// on a free loopback port, serving a certificate of a CA of its own, and
// stops it with SIGTERM when the test ends (it must exit 0).
func startMUOInformer(t testing.TB, namespace string) *muoInformer {
	t.Helper()
	port, err := process.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	i := &muoInformer{namespace: namespace, address: fmt.Sprintf("127.0.0.1:%d", port), ca: informertest.NewCA(t), output: &syncBuffer{}}
	i.certFile, i.keyFile = i.ca.ServingFiles(t, nil, net.ParseIP("127.0.0.1"))
	i.start(t)
	t.Cleanup(func() {
		if i.proc.Running() {
			code, err := i.proc.Stop(terminationGracePeriod)
			if err != nil || code != 0 {
				t.Errorf("the informer exited %d after SIGTERM (%v), want 0", code, err)
			}
		}
		if t.Failed() {
			t.Logf("informer output:\n%s", i.output.String())
		}
	})
	return i
}

// start runs the informer process, again after kill.
func (i *muoInformer) start(t testing.TB) {
	t.Helper()
	var err error
	i.proc, err = process.StartCommand(i.output, operatorBinary, "informer", "managed-upgrade",
		"--kubeconfig", kubeconfigPath, "--listen", i.address, "--namespace", i.namespace,
		"--tls-cert-file", i.certFile, "--tls-private-key-file", i.keyFile, "-v=2")
	if err != nil {
		t.Fatal(err)
	}
}

// kill ends the informer as a crash would.
func (i *muoInformer) kill() { i.proc.Kill() }

// url is where the operator calls the informer.
func (i *muoInformer) url() string { return "https://" + i.address }

// rotate writes a new serving certificate of the same CA over the files
// the informer serves, in place as a mounted Secret's files change, and
// returns its serial number.
func (i *muoInformer) rotate(t *testing.T) *big.Int {
	t.Helper()
	certFile, keyFile := i.ca.ServingFiles(t, nil, net.ParseIP("127.0.0.1"))
	certPEM, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM, err := os.ReadFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	// Between the two writes the files do not match: the informer must
	// keep its previous certificate until they do.
	if err := os.WriteFile(i.keyFile, keyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(i.certFile, certPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	return serialOf(t, certPEM)
}

// servedSerial is the serial number of the certificate the informer
// presents now, verified against its CA.
func (i *muoInformer) servedSerial() (*big.Int, error) {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(i.ca.PEM)
	conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", i.address, &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12})
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	return conn.ConnectionState().PeerCertificates[0].SerialNumber, nil
}

func serialOf(t *testing.T, certPEM []byte) *big.Int {
	t.Helper()
	block, _ := pem.Decode(certPEM)
	if block == nil {
		t.Fatal("no PEM block in the serving certificate")
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return cert.SerialNumber
}

// upgradeConfigs writes the UpgradeConfigs of a namespace as the Managed
// Upgrade Operator does: spec, then status through its subresource.
type upgradeConfigs struct {
	client dynamic.ResourceInterface
}

func upgradeConfigsIn(namespace string) upgradeConfigs {
	return upgradeConfigs{client: dynamic.NewForConfigOrDie(testEnv.Config).Resource(upgradev1alpha1.Resource).Namespace(namespace)}
}

// write creates or replaces the UpgradeConfig of uc's name, spec and
// status.
func (c upgradeConfigs) write(t testing.TB, uc *upgradev1alpha1.UpgradeConfig) {
	t.Helper()
	ctx := context.Background()
	uc = uc.DeepCopy()
	uc.APIVersion, uc.Kind = upgradev1alpha1.SchemeGroupVersion.String(), "UpgradeConfig"
	obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(uc)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{Object: obj}
	stored, err := c.client.Get(ctx, uc.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		stored, err = c.client.Create(ctx, u, metav1.CreateOptions{})
	case err == nil:
		u.SetResourceVersion(stored.GetResourceVersion())
		stored, err = c.client.Update(ctx, u, metav1.UpdateOptions{})
	}
	if err != nil {
		t.Fatalf("writing UpgradeConfig %s: %v", uc.Name, err)
	}
	u.SetResourceVersion(stored.GetResourceVersion())
	if _, err := c.client.UpdateStatus(ctx, u, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("writing the status of UpgradeConfig %s: %v", uc.Name, err)
	}
}

func (c upgradeConfigs) delete(t testing.TB, name string) {
	t.Helper()
	if err := c.client.Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("deleting UpgradeConfig %s: %v", name, err)
	}
}

// statusOutput polls `status` until its output matches every pattern and
// no antipattern, and returns it.
func statusOutput(t *testing.T, what string, patterns, antipatterns []string) string {
	t.Helper()
	var out []byte
	var runErr error
	ok := func() bool {
		for _, p := range patterns {
			if !regexp.MustCompile(p).Match(out) {
				return false
			}
		}
		for _, p := range antipatterns {
			if regexp.MustCompile(p).Match(out) {
				return false
			}
		}
		return true
	}
	err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, eventually, true, func(context.Context) (bool, error) {
		out, runErr = exec.Command(operatorBinary, "status", "--kubeconfig", kubeconfigPath).CombinedOutput()
		return runErr == nil && ok(), nil
	})
	if err != nil {
		t.Fatalf("%s: status never printed lines matching %q without %q; last run (error %v):\n%s", what, patterns, antipatterns, runErr, out)
	}
	return string(out)
}

// informerInsight is the insight of that uid prefix an informer reports in
// UpdateStatus' control plane or in a worker pool ("" for the control
// plane), with whether it is stale; nil when it reports none.
func informerInsight(s *insightsv1alpha1.UpdateStatus, informer, pool, uidPrefix string) (*insightsv1alpha1.UpdateInsight, bool) {
	if s == nil {
		return nil, false
	}
	informers := s.Status.ControlPlane.Informers
	if pool != "" {
		informers = nil
		for _, p := range s.Status.WorkerPools {
			if p.Resource.Name == pool {
				informers = p.Informers
			}
		}
	}
	for _, i := range informers {
		if i.Name != informer {
			continue
		}
		for j := range i.Insights {
			if strings.HasPrefix(i.Insights[j].UID, uidPrefix+"/") {
				return &i.Insights[j], i.Stale
			}
		}
	}
	return nil, false
}

// createTestNamespace creates a namespace of a generated name, deleted
// when the test ends, and returns its name.
// createMUOConfigMap creates, in namespace, the Managed Upgrade Operator's
// ConfigMap as its own tests deploy it: without it the operator runs no
// update, and the informer says so.
func createMUOConfigMap(t testing.TB, namespace string) {
	t.Helper()
	data, err := os.ReadFile("../testdata/managed-upgrade-operator/managed-upgrade-operator-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cm := &corev1.ConfigMap{}
	if err := yaml.Unmarshal(data, cm); err != nil {
		t.Fatal(err)
	}
	cm.Namespace = namespace
	if _, err := kubeClient.CoreV1().ConfigMaps(namespace).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func createTestNamespace(t testing.TB, prefix string) string {
	t.Helper()
	ns, err := kubeClient.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := kubeClient.CoreV1().Namespaces().Delete(context.Background(), ns.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting namespace %s: %v", ns.Name, err)
		}
	})
	return ns.Name
}

// changeAndWait makes a change, waits for UpdateStatus to show it (ok),
// then the status command (its output matching every pattern and no
// antipattern), and logs how long each took from the change.
func changeAndWait(t *testing.T, what string, change func(), ok func(*insightsv1alpha1.UpdateStatus) bool, patterns, antipatterns []string) {
	t.Helper()
	changed := time.Now()
	change()
	waitFor(t, eventually, what+": UpdateStatus", getUpdateStatus, func(s *insightsv1alpha1.UpdateStatus) bool { return s != nil && ok(s) })
	inStatus := time.Since(changed)
	statusOutput(t, what, patterns, antipatterns)
	t.Logf("%s: in UpdateStatus after %s, in the status command's output after %s", what, inStatus.Round(time.Millisecond), time.Since(changed).Round(time.Millisecond))
}

// insightWatch samples UpdateStatus, and the informer's UpdateInformer,
// until stopped, and records each sample that misses an insight.
type insightWatch struct {
	stop context.CancelFunc
	done chan struct{}

	mu      sync.Mutex
	samples int
	missing []string
}

// watchInsight samples until the test ends or missed is called: a sample
// misses the insight of uid when UpdateStatus' control plane does not hold
// it, or, with online, holds it stale or while the UpdateInformer is not
// Online.
func watchInsight(t *testing.T, uid string, online bool) *insightWatch {
	ctx, cancel := context.WithCancel(context.Background())
	w := &insightWatch{stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for ctx.Err() == nil {
			if problem := sampleInsight(ctx, uid, online); ctx.Err() == nil {
				w.mu.Lock()
				w.samples++
				if problem != "" {
					w.missing = append(w.missing, time.Now().Format("15:04:05.000")+" "+problem)
				}
				w.mu.Unlock()
			}
			select {
			case <-ctx.Done():
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	t.Cleanup(w.finish)
	return w
}

// sampleInsight says what a sample misses, empty when nothing.
func sampleInsight(ctx context.Context, uid string, online bool) string {
	s, err := getUpdateStatus(ctx)
	if err != nil {
		return "reading UpdateStatus: " + err.Error()
	}
	r := reported(s, muoInformerName)
	if r == nil || !slices.Contains(uidsOf(r), uid) {
		return "no insight"
	}
	if !online {
		return ""
	}
	if r.Stale {
		return "the insight stale"
	}
	i, err := getInformer(muoInformerName)(ctx)
	if err != nil {
		return "reading the UpdateInformer: " + err.Error()
	}
	if reason := onlineReason(i); reason != "True/Called" {
		return "Online " + reason
	}
	return ""
}

func (w *insightWatch) finish() {
	w.stop()
	<-w.done
}

// missed stops the sampling and returns the samples that missed the
// insight.
func (w *insightWatch) missed() []string {
	w.finish()
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.missing
}

func (w *insightWatch) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.samples
}
