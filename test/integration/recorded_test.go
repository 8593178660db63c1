package integration

import (
	"context"
	"path/filepath"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
)

// loadRecorded reads a cluster recorded by oc adm upgrade status's
// authors, from test/testdata/oc-examples.
func loadRecorded(t testing.TB, name string) *analyze.Cluster {
	t.Helper()
	file := func(suffix string) string { return filepath.Join("..", "testdata", "oc-examples", name+suffix) }
	c, err := analyze.Load(analyze.Paths{
		ClusterVersions: file("-cv.yaml"), ClusterOperators: file("-co.yaml"),
		MachineConfigPools: file("-mcp.yaml"), MachineConfigs: file("-mc.yaml"), Nodes: file("-node.yaml"),
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fresh clears what the API server sets, so that a recorded object can be
// created anew.
func fresh(m *metav1.ObjectMeta) {
	m.ResourceVersion, m.UID, m.CreationTimestamp, m.ManagedFields, m.Generation = "", "", metav1.Time{}, nil, 0
	m.OwnerReferences = nil
}

// createRecorded creates a recorded cluster's ClusterVersion, ClusterOperators,
// MachineConfigPools and Nodes, with their status, deleting them when the
// test ends.
func createRecorded(t testing.TB, c *analyze.Cluster) {
	t.Helper()
	ctx := context.Background()
	createClusterVersion(t, nil, c.ClusterVersions[0].Status)
	for _, co := range c.ClusterOperators {
		co = co.DeepCopy()
		fresh(&co.ObjectMeta)
		status := co.Status
		created, err := createAndDelete(t, configClient.ConfigV1().ClusterOperators().Create, configClient.ConfigV1().ClusterOperators().Delete, co)
		if err != nil {
			t.Fatal(err)
		}
		created.Status = status
		if _, err := configClient.ConfigV1().ClusterOperators().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	pools := machineConfigClient(t).MachineconfigurationV1().MachineConfigPools()
	for _, p := range c.MachineConfigPools {
		p = p.DeepCopy()
		fresh(&p.ObjectMeta)
		status := p.Status
		created, err := createAndDelete(t, pools.Create, pools.Delete, p)
		if err != nil {
			t.Fatal(err)
		}
		created.Status = status
		if _, err := pools.UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range c.Nodes {
		n = n.DeepCopy()
		fresh(&n.ObjectMeta)
		status := n.Status
		created, err := createAndDelete(t, kubeClient.CoreV1().Nodes().Create, kubeClient.CoreV1().Nodes().Delete, n)
		if err != nil {
			t.Fatal(err)
		}
		created.Status = status
		if _, err := kubeClient.CoreV1().Nodes().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}
