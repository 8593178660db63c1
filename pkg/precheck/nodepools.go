package precheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver/v4"
	corev1 "k8s.io/api/core/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

const (
	uidNodePoolsSeparate = "nodepools/updated-separately"
	uidNodePoolsSkew     = "nodepools/skew-unchecked"

	// v5MinorOffset is the 4.y minor OpenShift 5.0 counts as in the skew
	// (support/supportedversion/version.go, v5MinorOffset: "OCP 5.0 is
	// equivalent to OCP 4.23").
	v5MinorOffset = 23
)

// nodePoolResource names a NodePool in a finding. Its namespace, the
// HostedCluster's on the management cluster, is not known here.
func nodePoolResource(name string) insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Group: hosted.NodePoolGroup, Kind: "NodePool", Name: name}
}

// nodePoolScope is the scope of a finding about a NodePool, naming nodes
// of it, by which the plan places the finding with the NodePool.
func nodePoolScope(name string, nodeNames ...string) insightsv1alpha1.UpdateInsightScope {
	resources := []insightsv1alpha1.InsightResource{nodePoolResource(name)}
	for _, n := range nodeNames[:min(len(nodeNames), maxResources-1)] {
		resources = append(resources, nodeResource(n))
	}
	return insightsv1alpha1.UpdateInsightScope{
		Type:       insightsv1alpha1.ScopeTypeWorkerPool,
		WorkerPool: []insightsv1alpha1.InsightResource{nodePoolResource(name)},
		Resources:  resources,
	}
}

// NodePoolsOfNodes maps each node to the NodePool of its label, which the
// hosted-cluster-config-operator copies onto every node it syncs
// (control-plane-operator/hostedclusterconfigoperator/controllers/node/
// node.go). A node that has just joined has none yet, and is left out.
func NodePoolsOfNodes(nodes []*corev1.Node) map[string]string {
	out := make(map[string]string, len(nodes))
	for _, n := range nodes {
		if name := n.Labels[hosted.NodePoolLabel]; name != "" {
			out[n.Name] = name
		}
	}
	return out
}

// asV4Minor is an OpenShift minor release as the skew counts it: 5.y is
// 4.(23+y) (support/supportedversion/version.go, normalizeToV4).
func asV4Minor(v semver.Version) (int, bool) {
	switch v.Major {
	case 4:
		return int(v.Minor), true
	case 5:
		return int(v.Minor) + v5MinorOffset, true
	}
	return 0, false
}

// displayMinor is the OpenShift release a 4.y minor of the skew stands for
// (denormalizeFromV4).
func displayMinor(v4Minor int) string {
	if v4Minor >= v5MinorOffset {
		return fmt.Sprintf("5.%d", v4Minor-v5MinorOffset)
	}
	return fmt.Sprintf("4.%d", max(v4Minor, 0))
}

// nodePool is a NodePool as its nodes show it: the NodePool itself lives on
// the management cluster.
type nodePool struct {
	name string
	// nodes is how many nodes carry its label.
	nodes int
	// oldest is the oldest kubelet of its nodes; unreadable names the nodes
	// whose kubelet version cannot be parsed.
	oldest        string
	oldestVersion semver.Version
	oldestNode    string
	unreadable    []string
}

// nodePoolsOf groups the nodes by the NodePool label the
// hosted-cluster-config-operator copies onto them, by name. A node that has
// just joined has no label yet, and is in none.
func nodePoolsOf(nodes []*corev1.Node) []*nodePool {
	byName := map[string]*nodePool{}
	for _, n := range nodes {
		name := n.Labels[hosted.NodePoolLabel]
		if name == "" {
			continue
		}
		p := byName[name]
		if p == nil {
			p = &nodePool{name: name}
			byName[name] = p
		}
		p.nodes++
		kubelet := n.Status.NodeInfo.KubeletVersion
		v, err := hosted.KubeletMinor(kubelet)
		if err != nil {
			p.unreadable = append(p.unreadable, n.Name)
			continue
		}
		if p.oldest == "" || v.LT(p.oldestVersion) {
			p.oldest, p.oldestVersion, p.oldestNode = kubelet, v, n.Name
		}
	}
	out := make([]*nodePool, 0, len(byName))
	for _, p := range byName {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b *nodePool) int { return strings.Compare(a.name, b.name) })
	return out
}

// nodePools: on a hosted control plane the update moves the control plane
// only. Each NodePool is updated apart, through its own spec.release on the
// management cluster (api/hypershift/v1beta1/nodepool_types.go
// NodePoolSpec.Release; docs/content/how-to/upgrades.md), and may run up to
// hosted.MaxMinorsBehind minor releases behind the control plane, never
// ahead: past that the NodePool controller sets its SupportedVersionSkew
// condition False, UnsupportedSkew (hypershift-operator/controllers/
// nodepool/conditions.go, with support/supportedversion/version.go
// ValidateVersionSkew), and nothing stops the control plane's update.
//
// A NodePool's release is not visible here: its minor is the control
// plane's less how many Kubernetes minors its oldest kubelet runs behind
// the control plane's Kubernetes (one per OpenShift minor). When either
// cannot be read, the skew is said not to be checked.
func nodePools(in *Input) []insightsv1alpha1.UpdateInsight {
	pools := nodePoolsOf(in.Nodes)
	// The finding names the ClusterVersion only, so that its identity, and
	// its acceptance, stay as NodePools come and go.
	separate := finding{
		uid: uidNodePoolsSeparate, level: insightsv1alpha1.StatusInsightLevel, impact: insightsv1alpha1.NoneImpactType,
		scope:   controlPlane(clusterVersionResource()),
		summary: fmt.Sprintf("The update to %s updates the control plane only: the NodePools are updated separately, from the management cluster", in.Target),
		description: "This cluster's control plane is hosted. Each NodePool is updated through its own spec.release.image on the management cluster " +
			"(or by OpenShift Cluster Manager), after the control plane: it may run up to " + fmt.Sprint(hosted.MaxMinorsBehind) +
			" minor releases behind the control plane, never ahead.",
	}
	if len(pools) > 0 {
		var names []string
		for _, p := range pools {
			names = append(names, p.name)
		}
		separate.description += "\nThe nodes here belong to NodePools " + strings.Join(names, ", ") + "."
	}
	out := []insightsv1alpha1.UpdateInsight{separate.insight(in.Now)}
	if len(pools) == 0 {
		return out
	}
	return append(out, nodePoolSkew(in, pools)...)
}

// controlPlaneRelease is the release whose Kubernetes version
// hosted.ControlPlaneKubernetes reads: the kube-apiserver ClusterOperator's
// "operator" version, which the hosted-cluster-config-operator writes with
// it, both of its own release (…/resources/clusteroperators.go). While the
// control plane updates, the ClusterVersion's desired release is already
// the new one and that Kubernetes version not yet, so the pair from one
// release is what tells a NodePool's release. Without it, the
// ClusterVersion's.
func controlPlaneRelease(in *Input) string {
	for _, co := range in.ClusterOperators {
		if co.Name != hosted.KubeAPIServer {
			continue
		}
		for _, v := range co.Status.Versions {
			if v.Name == "operator" && v.Version != "" {
				return v.Version
			}
		}
	}
	return CurrentRelease(in.ClusterVersion)
}

// nodePoolSkew are the NodePools the update would leave outside the
// supported skew, or why that could not be checked.
func nodePoolSkew(in *Input, pools []*nodePool) []insightsv1alpha1.UpdateInsight {
	unchecked := func(why string) []insightsv1alpha1.UpdateInsight {
		return []insightsv1alpha1.UpdateInsight{finding{
			uid: uidNodePoolsSkew, level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UnknownImpactType,
			scope:   controlPlane(clusterOperatorResource(hosted.KubeAPIServer)),
			summary: fmt.Sprintf("Whether the update to %s leaves a NodePool outside the supported version skew could not be checked: %s", in.Target, why),
			description: "To check by hand, on the management cluster: each NodePool's status.version must be at most " +
				fmt.Sprint(hosted.MaxMinorsBehind) + " minor releases behind " + in.Target + ".",
		}.insight(in.Now)}
	}
	current, err := semver.Parse(controlPlaneRelease(in))
	if err != nil {
		return unchecked("the control plane's release is not known")
	}
	target, err := semver.Parse(in.Target)
	if err != nil {
		return unchecked(fmt.Sprintf("%q is not a release version", in.Target))
	}
	currentMinor, okCurrent := asV4Minor(current)
	targetMinor, okTarget := asV4Minor(target)
	if !okCurrent || !okTarget {
		return unchecked("only OpenShift 4 and 5 releases are counted")
	}
	cpKube, ok := hosted.ControlPlaneKubernetes(in.ClusterOperators)
	if !ok {
		return unchecked(fmt.Sprintf("the ClusterOperator %s does not say the control plane's Kubernetes version", hosted.KubeAPIServer))
	}
	if _, err := hosted.KubeletMinor(cpKube); err != nil {
		return unchecked(fmt.Sprintf("the control plane's Kubernetes version %q cannot be read", cpKube))
	}
	var out []insightsv1alpha1.UpdateInsight
	for _, p := range pools {
		// The nodes whose kubelet can be read may show the NodePool outside
		// already; else those that cannot leave it unchecked.
		poolMinor, behindAfter := 0, 0
		if p.oldest != "" {
			behindNow, _ := hosted.MinorsBehind(cpKube, p.oldest)
			poolMinor = currentMinor - max(behindNow, 0)
			behindAfter = targetMinor - poolMinor
		}
		if behindAfter <= hosted.MaxMinorsBehind && len(p.unreadable) > 0 {
			out = append(out, finding{
				uid: "nodepool/" + p.name + "/skew-unchecked", level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UnknownImpactType,
				scope:   nodePoolScope(p.name, p.unreadable...),
				summary: fmt.Sprintf("Whether the update to %s leaves NodePool %s outside the supported version skew could not be checked: the kubelet version of %s cannot be read", in.Target, p.name, nodeList(p.unreadable)),
				description: "A node reports its kubelet version in status.nodeInfo.kubeletVersion. To check by hand, on the management cluster: the NodePool's status.version must be at most " +
					fmt.Sprint(hosted.MaxMinorsBehind) + " minor releases behind " + in.Target + ".",
			}.insight(in.Now))
			continue
		}
		if behindAfter <= hosted.MaxMinorsBehind {
			continue
		}
		out = append(out, finding{
			uid: "nodepool/" + p.name + "/skew", level: insightsv1alpha1.ErrorInsightLevel, impact: insightsv1alpha1.ClusterCapacityImpactType,
			scope: nodePoolScope(p.name, p.oldestNode),
			summary: fmt.Sprintf("NodePool %s runs %s (oldest kubelet %s): after the update to %s it would be %d minor releases behind the control plane, more than the %d supported",
				p.name, displayMinor(poolMinor), p.oldest, in.Target, behindAfter, hosted.MaxMinorsBehind),
			description: fmt.Sprintf("HyperShift supports NodePools up to %d minor releases behind the control plane; past that the NodePool's SupportedVersionSkew condition turns False (UnsupportedSkew), "+
				"and its kubelets run outside the version skew Kubernetes supports. "+
				"Update the NodePool to %s or later first, through its spec.release.image on the management cluster, or update the control plane to a release at most %s.",
				hosted.MaxMinorsBehind, displayMinor(targetMinor-hosted.MaxMinorsBehind), displayMinor(poolMinor+hosted.MaxMinorsBehind)),
		}.insight(in.Now))
	}
	return out
}
