package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"path/filepath"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/managedupgrade"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
	"github.com/update-insights/update-insights-operator/test/internal/process"
)

// The UpdateInformer the managed-upgrade informer is registered as, and
// the CRD of the Managed Upgrade Operator's UpgradeConfig, which managed
// mode installs.
const (
	managedInformerName = "managed-upgrade"
	upgradeConfigCRD    = "test/testdata/managed-upgrade-operator/upgrade.managed.openshift.io_upgradeconfigs.yaml"
)

// managedInformer is `update-insights-operator informer managed-upgrade`,
// run as a process of its own beside the operator, as it runs in a managed
// cluster.
type managedInformer struct {
	*process.Operator
	log  *os.File
	addr string
}

// muoConfig is the Managed Upgrade Operator's configuration as its own
// tests deploy it (test/deploy/managed-upgrade-operator-config.yaml, copied
// to test/testdata/managed-upgrade-operator): without its ConfigMap the
// operator runs no update, and the informer says so.
const muoConfig = `upgradeType: OSD
configManager:
  source: LOCAL
  localConfigName: managed-upgrade-config
  watchInterval: 60
maintenance:
  controlPlaneTime: 90
  ignoredAlerts:
    controlPlaneCriticals:
    - etcdMembersDown
    - KubeDeploymentReplicasMismatch
    - ClusterOperatorDown
    - MachineWithNoRunningPhase
    - ClusterOperatorDegraded
scale:
  timeOut: 30
upgradeWindow:
  delayTrigger: 30
  timeOut: 120
nodeDrain:
  timeOut: 45
  expectedNodeDrainTime: 8
healthCheck:
  ignoredCriticals:
  - DNSErrors05MinSRE
  - MetricsClientSendFailingSRE
  - UpgradeNodeScalingFailedSRE
  - UpgradeClusterCheckFailedSRE
  ignoredNamespaces:
  - openshift-logging
  - openshift-customer-monitoring
  - openshift-operators
  - openshift-redhat-marketplace
environment:
  fedramp: false
`

func muoConfigMap() *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: managedupgrade.ConfigMapName, Namespace: upgradev1alpha1.DefaultNamespace},
		Data:       map[string]string{managedupgrade.ConfigMapKey: muoConfig},
	}
}

// startManagedInformer creates the Managed Upgrade Operator's namespace
// and ConfigMap,
// runs the informer on a free loopback port with a serving certificate of
// a CA made for this run (written under workdir), waits until it serves,
// and registers it with an UpdateInformer whose caBundle is that CA.
func startManagedInformer(ctx context.Context, c *clients, binary, kubeconfig, workdir string) (*managedInformer, error) {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: upgradev1alpha1.DefaultNamespace}}
	if _, err := c.kube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, err
	}
	if _, err := c.kube.CoreV1().ConfigMaps(upgradev1alpha1.DefaultNamespace).Create(ctx, muoConfigMap(), metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, err
	}
	certPEM, keyPEM, caPEM, err := servingCertificate("run-local managed-upgrade informer CA")
	if err != nil {
		return nil, err
	}
	certFile, keyFile := filepath.Join(workdir, "managed-upgrade-tls.crt"), filepath.Join(workdir, "managed-upgrade-tls.key")
	if err := os.WriteFile(certFile, certPEM, 0o600); err != nil {
		return nil, err
	}
	if err := os.WriteFile(keyFile, keyPEM, 0o600); err != nil {
		return nil, err
	}
	port, err := process.FreePort()
	if err != nil {
		return nil, err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	logPath, _ := filepath.Abs(filepath.Join(workdir, "managed-upgrade-informer.log"))
	log, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	p, err := process.StartCommand(log, binary, "informer", "managed-upgrade",
		"--kubeconfig", kubeconfig,
		"--listen", addr,
		"--tls-cert-file", certFile,
		"--tls-private-key-file", keyFile,
		"--namespace", upgradev1alpha1.DefaultNamespace)
	if err != nil {
		log.Close()
		return nil, err
	}
	m := &managedInformer{Operator: p, log: log, addr: addr}
	if err := m.waitServing(ctx, caPEM, 30*time.Second); err != nil {
		m.stop()
		return nil, fmt.Errorf("the managed-upgrade informer (log: %s): %w", shown(logPath), err)
	}
	say("serving the managed-upgrade informer %s at https://%s (log: %s)", managedInformerName, addr, shown(logPath))

	if err := registerInformer(ctx, c, managedInformerName, "https://"+addr, caPEM); err != nil {
		m.stop()
		return nil, fmt.Errorf("registering the managed-upgrade informer: %w", err)
	}
	return m, nil
}

// waitServing waits until the informer completes a TLS handshake with the
// certificate of the CA, so that the operator's first call finds it
// serving.
func (m *managedInformer) waitServing(ctx context.Context, caPEM []byte, timeout time.Duration) error {
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(caPEM)
	deadline := time.Now().Add(timeout)
	for {
		conn, err := tls.Dial("tcp", m.addr, &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12})
		if err == nil {
			return conn.Close()
		}
		if !m.Running() {
			return fmt.Errorf("exited before it served")
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not serving at %s within %s: %w", m.addr, timeout, err)
		}
		if !sleep(ctx, 100*time.Millisecond) {
			return ctx.Err()
		}
	}
}

func (m *managedInformer) stop() {
	defer m.log.Close()
	if _, err := m.Stop(15 * time.Second); err != nil {
		say("the managed-upgrade informer: %v", err)
	}
}
