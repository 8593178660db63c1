package hosted

import (
	"testing"

	configv1 "github.com/openshift/api/config/v1"
)

func TestTopologyOf(t *testing.T) {
	for _, tc := range []struct {
		name     string
		infra    *configv1.Infrastructure
		expected Topology
	}{
		{name: "no infrastructure", expected: Standalone},
		{name: "highly available", infra: infra(configv1.HighlyAvailableTopologyMode), expected: Standalone},
		{name: "single replica", infra: infra(configv1.SingleReplicaTopologyMode), expected: Standalone},
		{name: "external", infra: infra(configv1.ExternalTopologyMode), expected: Hosted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := TopologyOf(tc.infra); got != tc.expected {
				t.Errorf("TopologyOf = %s, expected %s", got, tc.expected)
			}
		})
	}
}

func infra(topology configv1.TopologyMode) *configv1.Infrastructure {
	i := &configv1.Infrastructure{}
	i.Status.ControlPlaneTopology = topology
	return i
}

func TestIsSynthetic(t *testing.T) {
	for _, tc := range []struct {
		topology Topology
		name     string
		expected bool
	}{
		{Hosted, "kube-apiserver", true},
		{Hosted, "operator-lifecycle-manager-packageserver", true},
		{Hosted, "ingress", false},
		{Hosted, "etcd", false},
		{Standalone, "kube-apiserver", false},
	} {
		t.Run(string(tc.topology)+"/"+tc.name, func(t *testing.T) {
			if got := IsSynthetic(tc.topology, tc.name); got != tc.expected {
				t.Errorf("IsSynthetic = %t, expected %t", got, tc.expected)
			}
		})
	}
}

func TestControlPlaneKubernetes(t *testing.T) {
	co := func(name string, versions ...configv1.OperandVersion) *configv1.ClusterOperator {
		c := &configv1.ClusterOperator{}
		c.Name, c.Status.Versions = name, versions
		return c
	}
	for _, tc := range []struct {
		name      string
		operators []*configv1.ClusterOperator
		expected  string
		found     bool
	}{
		{name: "none"},
		{name: "kube-apiserver without its operand", operators: []*configv1.ClusterOperator{co("kube-apiserver", configv1.OperandVersion{Name: "operator", Version: "4.18.3"})}},
		{name: "as the hosted-cluster-config-operator writes it", found: true, expected: "1.31.6",
			operators: []*configv1.ClusterOperator{co("ingress"), co("kube-apiserver",
				configv1.OperandVersion{Name: "kube-apiserver", Version: "1.31.6"},
				configv1.OperandVersion{Name: "operator", Version: "4.18.3"},
				configv1.OperandVersion{Name: "raw-internal", Version: "4.18.3"})}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, found := ControlPlaneKubernetes(tc.operators)
			if got != tc.expected || found != tc.found {
				t.Errorf("ControlPlaneKubernetes = %q, %t; expected %q, %t", got, found, tc.expected, tc.found)
			}
		})
	}
}

func TestMinorsBehind(t *testing.T) {
	for _, tc := range []struct {
		controlPlane, kubelet string
		expected              int
		err                   bool
	}{
		{controlPlane: "1.31.6", kubelet: "v1.31.6+a1b2c3d", expected: 0},
		{controlPlane: "1.31.6", kubelet: "v1.28.15+f67aeb3", expected: 3},
		{controlPlane: "1.31.6", kubelet: "v1.27.1", expected: 4},
		{controlPlane: "1.30.0", kubelet: "v1.31.6", expected: -1},
		{controlPlane: "1.31.6", kubelet: "garbage", err: true},
		{controlPlane: "4.18.3", kubelet: "v1.31.6", err: true},
	} {
		t.Run(tc.controlPlane+"/"+tc.kubelet, func(t *testing.T) {
			got, err := MinorsBehind(tc.controlPlane, tc.kubelet)
			if (err != nil) != tc.err || got != tc.expected {
				t.Errorf("MinorsBehind = %d, %v; expected %d, error %t", got, err, tc.expected, tc.err)
			}
		})
	}
}

func TestSameRelease(t *testing.T) {
	for _, tc := range []struct {
		controlPlane, kubelet string
		expected              bool
	}{
		{"1.31.6", "v1.31.6+a1b2c3d", true},
		{"1.31.6", "v1.31.4+a1b2c3d", false},
		{"1.31.6", "", false},
	} {
		t.Run(tc.kubelet, func(t *testing.T) {
			if got := SameRelease(tc.controlPlane, tc.kubelet); got != tc.expected {
				t.Errorf("SameRelease = %t, expected %t", got, tc.expected)
			}
		})
	}
}

func TestReleaseMinorsBehind(t *testing.T) {
	for _, tc := range []struct {
		controlPlane, nodePool string
		want                   int
		wantErr                bool
	}{
		{controlPlane: "4.21.3", nodePool: "4.18.9", want: 3},
		{controlPlane: "4.21.3", nodePool: "4.21.0", want: 0},
		{controlPlane: "4.20.1", nodePool: "4.21.0", want: -1},
		// support/supportedversion/version_test.go: HC=5.0, NP=4.22 is
		// within the skew, 5.0 counting as 4.23.
		{controlPlane: "5.0.0", nodePool: "4.22.5", want: 1},
		{controlPlane: "5.1.0", nodePool: "4.20.0", want: 4},
		{controlPlane: "4.21.0-rc.1", nodePool: "4.19.0", want: 2},
		{controlPlane: "4.21", nodePool: "4.19.0", wantErr: true},
		{controlPlane: "6.0.0", nodePool: "4.19.0", wantErr: true},
		{controlPlane: "4.21.0", nodePool: "", wantErr: true},
	} {
		t.Run(tc.controlPlane+"/"+tc.nodePool, func(t *testing.T) {
			got, err := ReleaseMinorsBehind(tc.controlPlane, tc.nodePool)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("ReleaseMinorsBehind(%q, %q) = %d, %v; want %d, error %v", tc.controlPlane, tc.nodePool, got, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestCompareReleases(t *testing.T) {
	for _, tc := range []struct {
		a, b    string
		want    int
		wantErr bool
	}{
		{a: "4.21.3", b: "4.21.3", want: 0},
		{a: "4.21.3", b: "4.21.4", want: -1},
		{a: "4.21.0", b: "4.20.9", want: 1},
		// HyperShift's "NodePool version cannot be higher" compares the
		// whole release, 5.0 counting as 4.23.
		{a: "5.0.0", b: "4.22.9", want: 1},
		{a: "4.23.1", b: "5.0.0", want: 1},
		{a: "4.21.0-rc.1", b: "4.21.0", want: -1},
		{a: "4.21", b: "4.21.0", wantErr: true},
		{a: "4.21.0", b: "3.11.0", wantErr: true},
	} {
		t.Run(tc.a+"/"+tc.b, func(t *testing.T) {
			got, err := CompareReleases(tc.a, tc.b)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("CompareReleases(%q, %q) = %d, %v; want %d, error %v", tc.a, tc.b, got, err, tc.want, tc.wantErr)
			}
		})
	}
}
