package analyze

import (
	"fmt"
	"os"

	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	"github.com/update-insights/update-insights-operator/pkg/recorded"
)

// Paths name the files or folders a recorded cluster is read from; empty
// ones are not read.
type Paths struct {
	ClusterVersions    string
	ClusterOperators   string
	MachineConfigPools string
	MachineConfigs     string
	Nodes              string
	Deployments        string
	// Alerts is a saved answer of the Prometheus API's /api/v1/alerts.
	Alerts string
}

// Load reads a recorded cluster. Every error names the file at fault.
func Load(p Paths) (*Cluster, error) {
	if p.ClusterVersions == "" {
		return nil, fmt.Errorf("no ClusterVersion given")
	}
	c := &Cluster{}
	var err error
	if c.ClusterVersions, err = read[*configv1.ClusterVersion](p.ClusterVersions, "ClusterVersion"); err != nil {
		return nil, err
	}
	if len(c.ClusterVersions) == 0 {
		return nil, fmt.Errorf("%s: holds no ClusterVersion", p.ClusterVersions)
	}
	if c.ClusterOperators, err = read[*configv1.ClusterOperator](p.ClusterOperators, "ClusterOperator"); err != nil {
		return nil, err
	}
	if c.MachineConfigPools, err = read[*machineconfigurationv1.MachineConfigPool](p.MachineConfigPools, "MachineConfigPool"); err != nil {
		return nil, err
	}
	if c.MachineConfigs, err = read[*machineconfigurationv1.MachineConfig](p.MachineConfigs, "MachineConfig"); err != nil {
		return nil, err
	}
	if c.Nodes, err = read[*corev1.Node](p.Nodes, "Node"); err != nil {
		return nil, err
	}
	if c.Deployments, err = read[*appsv1.Deployment](p.Deployments, "Deployment"); err != nil {
		return nil, err
	}
	if p.Alerts != "" {
		if c.Alerts, err = readAlerts(p.Alerts); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func readAlerts(path string) ([]alerts.Alert, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	firing, err := alerts.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return firing, nil
}

// read returns the objects of kind T in path, refusing any other kind.
func read[T runtime.Object](path, kind string) ([]T, error) {
	if path == "" {
		return nil, nil
	}
	objs, err := recorded.Read(path)
	if err != nil {
		return nil, err
	}
	typed := make([]T, 0, len(objs))
	for _, o := range objs {
		t, ok := o.(T)
		if !ok {
			return nil, fmt.Errorf("%s: holds a %s where a %s was expected", path, recorded.KindOf(o), kind)
		}
		typed = append(typed, t)
	}
	return typed, nil
}
