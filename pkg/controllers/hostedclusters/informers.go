package hostedclusters

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"

	"github.com/update-insights/update-insights-operator/pkg/hypershift"
)

// Indexes of the caches.
const (
	// byCluster finds a NodePool's HostedCluster's key, namespace/name.
	byCluster = "hostedCluster"
	// byControlPlaneNamespace finds the HostedCluster of a control-plane
	// namespace, whose ControlPlaneComponents it has.
	byControlPlaneNamespace = "controlPlaneNamespace"
	// byNodePool finds the Cluster API objects of a NodePool by the
	// namespace/name its annotation holds.
	byNodePool = "nodePool"
)

// Informers are the caches of what the controller reads of HyperShift and
// Cluster API, each holding the pkg/hypershift type of its objects.
type Informers struct {
	HostedClusters, NodePools, Components, Machines, MachineSets, MachineDeployments cache.SharedIndexInformer
}

// resources are what the controller reads: each resource's transform into
// its pkg/hypershift type and the indexes it is looked up by.
var resources = []struct {
	resource  schema.GroupVersionResource
	transform cache.TransformFunc
	indexers  cache.Indexers
}{
	{hypershift.HostedClusters, hypershift.Transform[hypershift.HostedCluster], cache.Indexers{byControlPlaneNamespace: controlPlaneNamespaceOf}},
	{hypershift.NodePools, hypershift.Transform[hypershift.NodePool], cache.Indexers{byCluster: clusterOf}},
	// Looked up by namespace, which every informer indexes already.
	{hypershift.ControlPlaneComponents, hypershift.Transform[hypershift.ControlPlaneComponent], cache.Indexers{}},
	{hypershift.Machines, hypershift.Transform[hypershift.Machine], cache.Indexers{byNodePool: nodePoolOf}},
	{hypershift.MachineSets, hypershift.Transform[hypershift.MachineSet], cache.Indexers{byNodePool: nodePoolOf}},
	{hypershift.MachineDeployments, hypershift.Transform[hypershift.MachineDeployment], cache.Indexers{byNodePool: nodePoolOf}},
}

// NewInformers asks factory for the informers, each transformed to its
// pkg/hypershift type and indexed as the controller looks its objects up;
// the ControlPlaneComponents' only with components, on a cluster that
// serves them: HyperShift added them in October 2024 (api/hypershift/
// v1beta1/controlplanecomponent_types.go), and a cache of what is not
// served would never sync, holding every hosted cluster's insight back.
// The factory must not have started them yet.
func NewInformers(factory dynamicinformer.DynamicSharedInformerFactory, components bool) (Informers, error) {
	byResource := map[string]cache.SharedIndexInformer{}
	for _, r := range resources {
		if r.resource == hypershift.ControlPlaneComponents && !components {
			continue
		}
		informer := factory.ForResource(r.resource).Informer()
		if err := informer.SetTransform(r.transform); err != nil {
			return Informers{}, fmt.Errorf("transforming %s: %w", r.resource.Resource, err)
		}
		if err := informer.AddIndexers(r.indexers); err != nil {
			return Informers{}, fmt.Errorf("indexing %s: %w", r.resource.Resource, err)
		}
		byResource[r.resource.Resource] = informer
	}
	return Informers{
		HostedClusters: byResource[hypershift.HostedClusters.Resource], NodePools: byResource[hypershift.NodePools.Resource],
		Components: byResource[hypershift.ControlPlaneComponents.Resource], Machines: byResource[hypershift.Machines.Resource],
		MachineSets: byResource[hypershift.MachineSets.Resource], MachineDeployments: byResource[hypershift.MachineDeployments.Resource],
	}, nil
}

// all are the informers there are, by resource.
func (i Informers) all() map[string]cache.SharedIndexInformer {
	all := map[string]cache.SharedIndexInformer{
		hypershift.HostedClusters.Resource: i.HostedClusters, hypershift.NodePools.Resource: i.NodePools,
		hypershift.Machines.Resource: i.Machines, hypershift.MachineSets.Resource: i.MachineSets,
		hypershift.MachineDeployments.Resource: i.MachineDeployments,
	}
	if i.Components != nil {
		all[hypershift.ControlPlaneComponents.Resource] = i.Components
	}
	return all
}

// caches are the informers' stores, which the sync reads.
type caches struct {
	hostedClusters, nodePools, components, machines, machineSets, machineDeployments cache.Indexer
}

// caches are the informers' stores; components is nil without its
// informer.
func (i Informers) caches() caches {
	c := caches{
		hostedClusters: i.HostedClusters.GetIndexer(), nodePools: i.NodePools.GetIndexer(),
		machines: i.Machines.GetIndexer(), machineSets: i.MachineSets.GetIndexer(), machineDeployments: i.MachineDeployments.GetIndexer(),
	}
	if i.Components != nil {
		c.components = i.Components.GetIndexer()
	}
	return c
}

func controlPlaneNamespaceOf(obj any) ([]string, error) {
	hc, ok := obj.(*hypershift.HostedCluster)
	if !ok {
		return nil, nil
	}
	return []string{hypershift.ControlPlaneNamespace(hc.Namespace, hc.Name)}, nil
}

// clusterOf indexes a NodePool under its HostedCluster's key: the
// NodePool's namespace and spec.clusterName (nodepool_types.go ClusterName).
// A NodePool that cannot be read is indexed by the clusterName it has, if
// any, so that its cluster's insight says it is left out.
func clusterOf(obj any) ([]string, error) {
	var namespace, cluster string
	switch o := obj.(type) {
	case *hypershift.NodePool:
		namespace, cluster = o.Namespace, o.Spec.ClusterName
	case *hypershift.Malformed:
		namespace, cluster = o.Namespace, o.ClusterName
	}
	if cluster == "" {
		return nil, nil
	}
	return []string{namespace + "/" + cluster}, nil
}

// nodePoolOf indexes a Cluster API object under the NodePool its
// hypershift.NodePoolAnnotation names, which HyperShift sets on the
// MachineDeployment, MachineSet and Machines it makes for a NodePool
// (hypershift-operator/controllers/nodepool/capi.go).
func nodePoolOf(obj any) ([]string, error) {
	o, ok := obj.(interface{ GetAnnotations() map[string]string })
	if !ok {
		return nil, nil
	}
	if np := o.GetAnnotations()[hypershift.NodePoolAnnotation]; np != "" {
		return []string{np}, nil
	}
	return nil, nil
}
