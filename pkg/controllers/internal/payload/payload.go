// Package payload keeps an index of the payload ClusterOperators in the
// shared ClusterOperator informer, so that a sync gets them without scanning
// every operator's annotations, and reads the image of the
// machine-config-operator Deployment, by which machine-config is judged.
package payload

import (
	"fmt"

	configv1 "github.com/openshift/api/config/v1"
	appsv1 "k8s.io/api/apps/v1"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

const (
	indexName  = "payload"
	indexValue = "true"
)

// AddIndex adds the payload index to a ClusterOperator informer that has not
// started yet. Adding it twice is harmless, so every controller that needs it
// can ask for it.
func AddIndex(informer cache.SharedIndexInformer) error {
	if _, ok := informer.GetIndexer().GetIndexers()[indexName]; ok {
		return nil
	}
	return informer.AddIndexers(Indexers())
}

// Indexers returns the payload index, for an indexer of ClusterOperators.
func Indexers() cache.Indexers {
	return cache.Indexers{indexName: func(obj interface{}) ([]string, error) {
		co, ok := obj.(*configv1.ClusterOperator)
		if !ok || !controlplane.IsPayloadOperator(co) {
			return nil, nil
		}
		return []string{indexValue}, nil
	}}
}

// Operators returns the payload ClusterOperators in the indexer.
func Operators(indexer cache.Indexer) ([]*configv1.ClusterOperator, error) {
	objs, err := indexer.ByIndex(indexName, indexValue)
	if err != nil {
		return nil, err
	}
	operators := make([]*configv1.ClusterOperator, 0, len(objs))
	for _, obj := range objs {
		co, ok := obj.(*configv1.ClusterOperator)
		if !ok {
			return nil, fmt.Errorf("payload index holds %T, not a ClusterOperator", obj)
		}
		operators = append(operators, co)
	}
	return operators, nil
}

// MachineConfigOperatorImage returns the image the machine-config-operator
// Deployment runs, read from a lister of its namespace; empty when the
// Deployment or its container is missing, or without a lister (a cluster
// whose control plane is hosted has no machine-config operator).
func MachineConfigOperatorImage(deployments appslisters.DeploymentNamespaceLister) string {
	if deployments == nil {
		return ""
	}
	d, err := deployments.Get(names.MachineConfigOperatorDeployment)
	if err != nil {
		return ""
	}
	return controlplane.MachineConfigOperatorImage(d)
}

// MachineConfigOperatorHandler calls enqueue when the machine-config-operator
// Deployment appears, changes or goes.
func MachineConfigOperatorHandler(enqueue func()) cache.ResourceEventHandler {
	return cache.FilteringResourceEventHandler{
		FilterFunc: func(obj any) bool {
			if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tombstone.Obj
			}
			d, ok := obj.(*appsv1.Deployment)
			return ok && d.Namespace == names.MachineConfigOperatorNamespace && d.Name == names.MachineConfigOperatorDeployment
		},
		Handler: cache.ResourceEventHandlerFuncs{
			AddFunc:    func(any) { enqueue() },
			UpdateFunc: func(any, any) { enqueue() },
			DeleteFunc: func(any) { enqueue() },
		},
	}
}
