package main

import (
	"fmt"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// localCluster is kube-apiserver and etcd on loopback, every mode's
// cluster, and what must stop listening once it stops.
type localCluster struct {
	env *envtest.Environment
	cfg *rest.Config
	// addresses are kube-apiserver's and etcd's, and those of what a mode
	// serves beside them.
	addresses []string
}

// startLocalCluster starts kube-apiserver and etcd with crds installed.
func startLocalCluster(crds []string) (*localCluster, error) {
	say("starting kube-apiserver and etcd on loopback")
	env := &envtest.Environment{CRDInstallOptions: envtest.CRDInstallOptions{Paths: crds}, ErrorIfCRDPathMissing: true}
	cfg, err := env.Start()
	if err != nil {
		return nil, fmt.Errorf("starting kube-apiserver and etcd: %w", err)
	}
	return &localCluster{env: env, cfg: cfg, addresses: []string{cfg.Host, env.ControlPlane.Etcd.URL.String()}}, nil
}

// stop stops kube-apiserver and etcd, once what runs against them has
// stopped, and fails unless nothing of the run listens any more; it says so
// when it does not fail.
func (l *localCluster) stop() error {
	if err := l.env.Stop(); err != nil {
		return fmt.Errorf("stopping kube-apiserver and etcd: %w", err)
	}
	if stillListening := listening(l.addresses); len(stillListening) > 0 {
		return fmt.Errorf("still listening after stopping: %v", stillListening)
	}
	say("stopped: nothing left running or listening")
	return nil
}
