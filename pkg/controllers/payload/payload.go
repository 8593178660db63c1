// Package payload keeps an index of the payload ClusterOperators in the
// shared ClusterOperator informer, so that a sync gets them without scanning
// every operator's annotations.
package payload

import (
	"fmt"

	configv1 "github.com/openshift/api/config/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
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
