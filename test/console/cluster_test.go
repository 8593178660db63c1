package console

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	machineconfigurationclient "github.com/openshift/client-go/machineconfiguration/clientset/versioned"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/test/internal/consolestandin"
	"github.com/update-insights/update-insights-operator/test/internal/process"
	"github.com/update-insights/update-insights-operator/test/internal/recordedtime"
)

// viewer is the second identity: it may read what the tab watches, and
// not patch UpdatePlans.
const viewer = "insights-viewer"

// cluster is a recorded cluster in a kube-apiserver of its own, the
// operator running against it and the stand-in serving the plugin.
type cluster struct {
	name       string
	kubeconfig string
	kube       kubernetes.Interface
	config     configclient.Interface
	insights   insightsclient.Interface
	standin    *consolestandin.Server
	operator   *bytes.Buffer
	// recordedDuration is how long the recorded update had been running
	// at the recording's last moment, and loaded when that moment was
	// placed: the control plane's duration is their sum, and the time since.
	recordedDuration time.Duration
	loaded           time.Time
}

// startCluster loads the recorded cluster name (test/testdata/oc-examples),
// moved in time so that its last moment is now, into a new kube-apiserver
// and etcd, with workers cloned from its own until it has at least nodes
// nodes, starts the operator on it and serves the stand-in; all stop when
// the test ends.
func startCluster(t testing.TB, name string, nodes int) *cluster {
	t.Helper()
	file := func(suffix string) string { return filepath.Join("..", "testdata", "oc-examples", name+suffix) }
	recorded, err := analyze.Load(analyze.Paths{
		ClusterVersions: file("-cv.yaml"), ClusterOperators: file("-co.yaml"),
		MachineConfigPools: file("-mcp.yaml"), MachineConfigs: file("-mc.yaml"), Nodes: file("-node.yaml"),
	})
	if err != nil {
		t.Fatal(err)
	}
	// Its last moment is now, as run-local places it: durations read as
	// recorded, not as the years since.
	recordedDuration := updateDuration(recorded)
	loaded := time.Now()
	recordedtime.Move(recorded, loaded)
	crds, err := crdPaths("../testdata/crds/*.crd.yaml", "../../manifests/*.crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, kubeconfig := startAPIServer(t, crds)
	c := &cluster{name: name, kubeconfig: kubeconfig, operator: &bytes.Buffer{}, recordedDuration: recordedDuration, loaded: loaded}
	c.kube = kubernetes.NewForConfigOrDie(cfg)
	c.config = configclient.NewForConfigOrDie(cfg)
	c.insights = insightsclient.NewForConfigOrDie(cfg)
	if err := c.createWhatEveryClusterHas(context.Background(), operatorclient.NewForConfigOrDie(cfg)); err != nil {
		t.Fatal(err)
	}
	if err := c.create(context.Background(), recorded, machineconfigurationclient.NewForConfigOrDie(cfg), nodes); err != nil {
		t.Fatalf("creating recorded cluster %s: %v", name, err)
	}
	if err := c.grantViewer(context.Background()); err != nil {
		t.Fatal(err)
	}
	op, err := process.Start(operatorBinary, c.kubeconfig, c.operator, "--alerts-url=", "-v=2")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := op.Stop(15 * time.Second); err != nil {
			t.Error(err)
		}
		if t.Failed() {
			t.Logf("operator output:\n%s", c.operator.String())
		}
	})
	if c.standin, err = consolestandin.Start(cfg, pluginDir, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.standin.Close() })
	return c
}

// startAPIServer starts kube-apiserver and etcd with the CRDs at crds,
// stopped when the test ends, and returns the administrator's config and a
// kubeconfig file of its own, with which the operator and the CLI run, as
// an administrator's.
func startAPIServer(t testing.TB, crds []string) (*rest.Config, string) {
	t.Helper()
	env := &envtest.Environment{CRDInstallOptions: envtest.CRDInstallOptions{Paths: crds}, ErrorIfCRDPathMissing: true}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("starting kube-apiserver and etcd: %v", err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("stopping kube-apiserver and etcd: %v", err)
		}
	})
	cfg = rest.CopyConfig(cfg)
	cfg.QPS, cfg.Burst = 1000, 2000
	user, err := env.AddUser(envtest.User{Name: "system:admin", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	content, err := user.KubeConfig()
	if err != nil {
		t.Fatal(err)
	}
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, content, 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg, kubeconfig
}

// updateDuration is how long the recorded update had been running at the
// recording's last moment, its latest ClusterVersion or ClusterOperator
// transition: from the ClusterVersion's latest history entry's start,
// read before the cluster is moved in time.
func updateDuration(r *analyze.Cluster) time.Duration {
	if len(r.ClusterVersions) != 1 || len(r.ClusterVersions[0].Status.History) == 0 {
		return 0
	}
	cv := r.ClusterVersions[0]
	var last time.Time
	latest := func(t metav1.Time) {
		if t.After(last) {
			last = t.Time
		}
	}
	for _, c := range cv.Status.Conditions {
		latest(c.LastTransitionTime)
	}
	for _, h := range cv.Status.History {
		latest(h.StartedTime)
		if h.CompletionTime != nil {
			latest(*h.CompletionTime)
		}
	}
	for _, co := range r.ClusterOperators {
		for _, c := range co.Status.Conditions {
			latest(c.LastTransitionTime)
		}
	}
	return last.Sub(cv.Status.History[0].StartedTime.Time)
}

// crdPaths are the CRD files that match the patterns, each matching one at
// least: for a cluster running the operator, OpenShift's that it reads, and
// its own.
func crdPaths(patterns ...string) ([]string, error) {
	var paths []string
	for _, pattern := range patterns {
		matches, err := filepath.Glob(pattern)
		if err != nil {
			return nil, err
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("no CRDs match %s", pattern)
		}
		paths = append(paths, matches...)
	}
	return paths, nil
}

// fresh clears what the API server sets, so that a recorded object can be
// created anew.
func fresh(m *metav1.ObjectMeta) {
	m.ResourceVersion, m.UID, m.CreationTimestamp, m.ManagedFields, m.Generation = "", "", metav1.Time{}, nil, 0
	m.OwnerReferences = nil
}

// create writes the recorded objects with their status, the namespace
// the operator runs in and its ClusterOperator, as the cluster-version
// operator creates it.
func (c *cluster) create(ctx context.Context, r *analyze.Cluster, mc machineconfigurationclient.Interface, nodes int) error {
	if _, err := c.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: names.OwnNamespace}}, metav1.CreateOptions{}); err != nil {
		return err
	}
	if _, err := c.config.ConfigV1().ClusterOperators().Create(ctx, &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{Name: names.OwnClusterOperator}}, metav1.CreateOptions{}); err != nil {
		return err
	}
	for _, cv := range r.ClusterVersions {
		cv = cv.DeepCopy()
		fresh(&cv.ObjectMeta)
		created, err := c.config.ConfigV1().ClusterVersions().Create(ctx, cv, metav1.CreateOptions{})
		if err != nil {
			return err
		}
		created.Status = cv.Status
		if _, err := c.config.ConfigV1().ClusterVersions().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	for _, co := range r.ClusterOperators {
		co = co.DeepCopy()
		fresh(&co.ObjectMeta)
		created, err := c.config.ConfigV1().ClusterOperators().Create(ctx, co, metav1.CreateOptions{})
		if err != nil {
			return err
		}
		created.Status = co.Status
		if _, err := c.config.ConfigV1().ClusterOperators().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	for _, m := range r.MachineConfigs {
		m = m.DeepCopy()
		fresh(&m.ObjectMeta)
		if _, err := mc.MachineconfigurationV1().MachineConfigs().Create(ctx, m, metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	for _, p := range r.MachineConfigPools {
		p = p.DeepCopy()
		fresh(&p.ObjectMeta)
		created, err := mc.MachineconfigurationV1().MachineConfigPools().Create(ctx, p, metav1.CreateOptions{})
		if err != nil {
			return err
		}
		created.Status = p.Status
		if _, err := mc.MachineconfigurationV1().MachineConfigPools().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	for _, n := range append(r.Nodes, clonedWorkers(r.Nodes, nodes)...) {
		n = n.DeepCopy()
		fresh(&n.ObjectMeta)
		created, err := c.kube.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{})
		if err != nil {
			return err
		}
		created.Status = n.Status
		if _, err := c.kube.CoreV1().Nodes().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// clonedWorkers are copies of the recorded workers, in turn, named after
// them, until the cluster has total nodes: each is in its original's
// state (configuration, drain, readiness), so that the pools' phases keep
// their shares as the cluster grows. The MachineConfigPools' counts stay
// the recording's.
func clonedWorkers(recorded []*corev1.Node, total int) []*corev1.Node {
	var workers []*corev1.Node
	for _, n := range recorded {
		if _, master := n.Labels["node-role.kubernetes.io/master"]; !master {
			workers = append(workers, n)
		}
	}
	var clones []*corev1.Node
	for i := 0; len(recorded)+len(clones) < total && len(workers) > 0; i++ {
		n := workers[i%len(workers)].DeepCopy()
		// The hostname label holds the name: at most 63 characters.
		short := strings.SplitN(n.Name, ".", 2)[0]
		n.Name = fmt.Sprintf("%.48s-clone-%d", short, i)
		n.Labels["kubernetes.io/hostname"] = n.Name
		clones = append(clones, n)
	}
	return clones
}

// createWhatEveryClusterHas creates what the pre-checks read on every
// cluster: the admin gates and acknowledgements ConfigMaps and the
// CloudCredential, as test/integration does.
func (c *cluster) createWhatEveryClusterHas(ctx context.Context, operator operatorclient.Interface) error {
	for _, cm := range []*corev1.ConfigMap{
		{ObjectMeta: metav1.ObjectMeta{Namespace: names.ConfigManagedNamespace, Name: names.AdminGates}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: names.ConfigNamespace, Name: names.AdminAcks}},
	} {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: cm.Namespace}}
		if _, err := c.kube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
			return err
		}
		if _, err := c.kube.CoreV1().ConfigMaps(cm.Namespace).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	cc := &operatorv1.CloudCredential{ObjectMeta: metav1.ObjectMeta{Name: names.CloudCredential},
		Spec: operatorv1.CloudCredentialSpec{OperatorSpec: operatorv1.OperatorSpec{ManagementState: operatorv1.Managed}}}
	_, err := operator.OperatorV1().CloudCredentials().Create(ctx, cc, metav1.CreateOptions{})
	return err
}

// grantViewer lets the viewer read what the tab watches, and nothing more:
// no patch of UpdatePlans. Every authenticated user may review its own
// access (system:basic-user).
func (c *cluster) grantViewer(ctx context.Context) error {
	role := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: viewer},
		Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{"openshift.muller.dev"}, Resources: []string{"*"}, Verbs: []string{"get", "list", "watch"}},
			{APIGroups: []string{"config.openshift.io"}, Resources: []string{"clusterversions", "clusteroperators"}, Verbs: []string{"get", "list", "watch"}},
		},
	}
	if _, err := c.kube.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
		return err
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: viewer},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: viewer},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: viewer}},
	}
	if _, err := c.kube.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		return err
	}
	// The operator's Lease, which the tab watches to say whether the
	// operator still renews it.
	lease := &rbacv1.Role{
		ObjectMeta: metav1.ObjectMeta{Namespace: names.OwnNamespace, Name: viewer},
		Rules:      []rbacv1.PolicyRule{{APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}, Verbs: []string{"get", "list", "watch"}}},
	}
	if _, err := c.kube.RbacV1().Roles(names.OwnNamespace).Create(ctx, lease, metav1.CreateOptions{}); err != nil {
		return err
	}
	leaseBinding := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Namespace: names.OwnNamespace, Name: viewer},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: viewer},
		Subjects:   binding.Subjects,
	}
	_, err := c.kube.RbacV1().RoleBindings(names.OwnNamespace).Create(ctx, leaseBinding, metav1.CreateOptions{})
	return err
}

// state fingerprints everything the tab and status read that the
// operator writes: the name and resourceVersion of every insight, the
// UpdateStatus, the UpdatePlans, the UpdateInformers and the operator's
// ClusterOperator.
func (c *cluster) state(ctx context.Context) (string, error) {
	var objs []string
	add := func(kind string, metas ...metav1.ObjectMeta) {
		for _, m := range metas {
			objs = append(objs, kind+"/"+m.Name+"@"+m.ResourceVersion)
		}
	}
	v1 := c.insights.InsightsV1alpha1()
	opts := metav1.ListOptions{}
	cvs, err := v1.ClusterVersionProgressInsights().List(ctx, opts)
	if err != nil {
		return "", err
	}
	for _, o := range cvs.Items {
		add("cv", o.ObjectMeta)
	}
	cos, err := v1.ClusterOperatorProgressInsights().List(ctx, opts)
	if err != nil {
		return "", err
	}
	for _, o := range cos.Items {
		add("co", o.ObjectMeta)
	}
	pools, err := v1.MachineConfigPoolProgressInsights().List(ctx, opts)
	if err != nil {
		return "", err
	}
	for _, o := range pools.Items {
		add("pool", o.ObjectMeta)
	}
	nodes, err := v1.NodeProgressInsights().List(ctx, opts)
	if err != nil {
		return "", err
	}
	for _, o := range nodes.Items {
		add("node", o.ObjectMeta)
	}
	health, err := v1.UpdateHealthInsights().List(ctx, opts)
	if err != nil {
		return "", err
	}
	for _, o := range health.Items {
		add("health", o.ObjectMeta)
	}
	statuses, err := v1.UpdateStatuses().List(ctx, opts)
	if err != nil {
		return "", err
	}
	for _, o := range statuses.Items {
		add("status", o.ObjectMeta)
	}
	plans, err := v1.UpdatePlans().List(ctx, opts)
	if err != nil {
		return "", err
	}
	for _, o := range plans.Items {
		add("plan", o.ObjectMeta)
	}
	informers, err := v1.UpdateInformers().List(ctx, opts)
	if err != nil {
		return "", err
	}
	for _, o := range informers.Items {
		add("informer", o.ObjectMeta)
	}
	co, err := c.config.ConfigV1().ClusterOperators().Get(ctx, names.OwnClusterOperator, metav1.GetOptions{})
	if err != nil {
		return "", err
	}
	add("clusteroperator", co.ObjectMeta)
	sort.Strings(objs)
	return strings.Join(objs, "\n"), nil
}

// settle waits until the operator has written the UpdateStatus and then
// nothing it writes has changed for quiet, and returns that state.
func (c *cluster) settle(t testing.TB, quiet time.Duration) string {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(3 * time.Minute)
	last, since := "", time.Now()
	for {
		now, err := c.state(ctx)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case !strings.Contains(now, "status/cluster@"):
			since = time.Now()
		case now != last:
			last, since = now, time.Now()
		case time.Since(since) >= quiet:
			return now
		}
		if time.Now().After(deadline) {
			t.Fatalf("the operator's objects did not settle for %s in 3 minutes; last:\n%s", quiet, now)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// command runs the operator's CLI against the cluster, failing the test
// unless it exits 0.
func (c *cluster) command(t testing.TB, args ...string) string {
	t.Helper()
	out, code := c.commandExit(t, args...)
	if code != 0 {
		t.Fatalf("%s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

// commandExit runs the operator's CLI against the cluster and returns
// what it printed and its exit code.
func (c *cluster) commandExit(t testing.TB, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(operatorBinary, append(args, "--kubeconfig", c.kubeconfig)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		return out.String(), exit.ExitCode()
	}
	if err != nil {
		t.Fatalf("%s: %v", strings.Join(args, " "), err)
	}
	return out.String(), 0
}

// createUnreachableInformer registers an UpdateInformer at an address
// that refuses connections: the operator cannot hear it.
func (c *cluster) createUnreachableInformer(t testing.TB) {
	t.Helper()
	informer := &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: "unreachable"},
		Spec:       insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{URL: ptr.To("https://127.0.0.1:1")}},
	}
	if _, err := c.insights.InsightsV1alpha1().UpdateInformers().Create(context.Background(), informer, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}
