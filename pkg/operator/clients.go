package operator

import (
	apiserverclient "github.com/openshift/client-go/apiserver/clientset/versioned"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	machineconfigurationclient "github.com/openshift/client-go/machineconfiguration/clientset/versioned"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
	olmclient "github.com/update-insights/update-insights-operator/pkg/olm/generated/clientset/versioned"
)

const (
	// The operator writes one insight per operator, node and pool; on a large
	// cluster client-go's default limit (QPS 5, burst 10) would queue those
	// writes for minutes, and even 50 QPS delays a burst of updates by tens of
	// milliseconds each. The API server's priority and fairness, not this
	// client-side limit, is what protects the server.
	clientQPS   = 200
	clientBurst = 400
)

// clients are the operator's clients of the API server, one per API group
// it reads or writes.
type clients struct {
	config   configclient.Interface
	insights insightsclient.Interface
	// nodeInsights writes the node and pool insights: a client, and so a
	// rate limit, of their own, so that the thousands of writes of a large
	// cluster's first sync do not queue the control plane's insights
	// behind them.
	nodeInsights         insightsclient.Interface
	machineConfiguration machineconfigurationclient.Interface
	// kube speaks protobuf (protoConfig).
	kube      kubernetes.Interface
	apiserver apiserverclient.Interface
	operator  operatorclient.Interface
	olm       olmclient.Interface
	// dynamic reads HyperShift's and Cluster API's objects on a management
	// cluster, which have no generated clients here (pkg/hypershift).
	dynamic dynamic.Interface
}

// newClients returns the clients of config, with the operator's rate limit.
func newClients(config *rest.Config) (*clients, error) {
	config = rest.CopyConfig(config)
	config.QPS = clientQPS
	config.Burst = clientBurst

	var c clients
	var err error
	if c.config, err = configclient.NewForConfig(config); err != nil {
		return nil, err
	}
	if c.insights, err = insightsclient.NewForConfig(config); err != nil {
		return nil, err
	}
	if c.nodeInsights, err = insightsclient.NewForConfig(config); err != nil {
		return nil, err
	}
	if c.machineConfiguration, err = machineconfigurationclient.NewForConfig(config); err != nil {
		return nil, err
	}
	if c.kube, err = kubernetes.NewForConfig(protoConfig(config)); err != nil {
		return nil, err
	}
	if c.apiserver, err = apiserverclient.NewForConfig(config); err != nil {
		return nil, err
	}
	if c.operator, err = operatorclient.NewForConfig(config); err != nil {
		return nil, err
	}
	if c.olm, err = olmclient.NewForConfig(config); err != nil {
		return nil, err
	}
	if c.dynamic, err = dynamic.NewForConfig(config); err != nil {
		return nil, err
	}
	return &c, nil
}

// protoConfig asks for protobuf, which built-in kinds such as Deployments
// support and custom resources do not.
func protoConfig(config *rest.Config) *rest.Config {
	config = rest.CopyConfig(config)
	config.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	config.ContentType = "application/vnd.kubernetes.protobuf"
	return config
}
