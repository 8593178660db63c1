package operator

import (
	apiserverinformers "github.com/openshift/client-go/apiserver/informers/externalversions"
	configinformers "github.com/openshift/client-go/config/informers/externalversions"
	machineconfigurationinformers "github.com/openshift/client-go/machineconfiguration/informers/externalversions"
	operatorinformers "github.com/openshift/client-go/operator/informers/externalversions"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/imagemode"
	"github.com/update-insights/update-insights-operator/pkg/controllers/node"
	"github.com/update-insights/update-insights-operator/pkg/controllers/nodepool"
	"github.com/update-insights/update-insights-operator/pkg/controllers/olmoperators"
	"github.com/update-insights/update-insights-operator/pkg/controllers/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/drain"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// factories are the operator's shared informer factories, each caching
// only what some controller reads: one namespace, one object, or objects
// stripped of the fields no controller reads.
type factories struct {
	// config caches the ClusterVersion and the ClusterOperators.
	config configinformers.SharedInformerFactory
	// machineConfigOperator caches the machine-config operator's
	// Deployment, by which machine-config is judged.
	machineConfigOperator kubeinformers.SharedInformerFactory
	// buildPods caches the pods of the Jobs in the machine-config
	// operator's namespace, stripped to their terminations: a failed OS
	// image build says why only there. The namespace's other pods (a
	// machine-config daemon per node) are not cached.
	buildPods            kubeinformers.SharedInformerFactory
	nodes                kubeinformers.SharedInformerFactory
	machineConfiguration machineconfigurationinformers.SharedInformerFactory
	insights             insightinformers.SharedInformerFactory
	// budgets caches the PodDisruptionBudgets the pre-checks look at: few,
	// and small.
	budgets kubeinformers.SharedInformerFactory
	// daemonSets caches the cluster's DaemonSets stripped to their names:
	// the node and NodePool controllers ask whether a drained pod's
	// DaemonSet exists.
	daemonSets kubeinformers.SharedInformerFactory
	// adminGates and adminAcks cache the admin gates and acknowledgements:
	// one ConfigMap in each of two namespaces, which the operator may read
	// and no other.
	adminGates, adminAcks kubeinformers.SharedInformerFactory
	// apiserver and operator cache the API requests by resource, stripped
	// of what the pre-checks do not read, and the CloudCredential, once the
	// cluster serves them.
	apiserver apiserverinformers.SharedInformerFactory
	operator  operatorinformers.SharedInformerFactory
	// olm caches OLM's objects, once the cluster serves them: the CSVs but
	// OLM's copies, the Subscriptions and the InstallPlans.
	olm olmoperators.Informers
}

// newFactories builds the factories for a cluster of topology: the nodes'
// cache keeps what the node controller reads of a MachineConfigPool's node,
// or on a hosted control plane what the NodePool controller reads.
func newFactories(c *clients, topology hosted.Topology) *factories {
	stripNode := node.StripNode
	if topology == hosted.Hosted {
		stripNode = nodepool.StripNode
	}
	return &factories{
		config: configinformers.NewSharedInformerFactoryWithOptions(c.config, resyncPeriod,
			configinformers.WithTransform(stripManagedFields)),
		machineConfigOperator: kubeinformers.NewSharedInformerFactoryWithOptions(c.kube, resyncPeriod,
			kubeinformers.WithNamespace(names.MachineConfigOperatorNamespace), kubeinformers.WithTransform(stripManagedFields)),
		buildPods: kubeinformers.NewSharedInformerFactoryWithOptions(c.kube, resyncPeriod,
			kubeinformers.WithNamespace(names.MachineConfigOperatorNamespace), kubeinformers.WithTransform(node.StripBuildPod),
			kubeinformers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = imagemode.JobNameLabel })),
		nodes: kubeinformers.NewSharedInformerFactoryWithOptions(c.kube, resyncPeriod,
			kubeinformers.WithTransform(stripNode)),
		machineConfiguration: machineconfigurationinformers.NewSharedInformerFactoryWithOptions(c.machineConfiguration, resyncPeriod,
			machineconfigurationinformers.WithTransform(node.StripMachineConfiguration)),
		insights: insightinformers.NewSharedInformerFactoryWithOptions(c.insights, resyncPeriod,
			insightinformers.WithTransform(stripManagedFields)),
		budgets: kubeinformers.NewSharedInformerFactoryWithOptions(c.kube, resyncPeriod,
			kubeinformers.WithTransform(stripManagedFields)),
		daemonSets: kubeinformers.NewSharedInformerFactoryWithOptions(c.kube, resyncPeriod,
			kubeinformers.WithTransform(drain.Strip)),
		adminGates: oneConfigMap(c.kube, names.ConfigManagedNamespace, names.AdminGates),
		adminAcks:  oneConfigMap(c.kube, names.ConfigNamespace, names.AdminAcks),
		apiserver: apiserverinformers.NewSharedInformerFactoryWithOptions(c.apiserver, resyncPeriod,
			apiserverinformers.WithTransform(updateplan.StripAPIRequestCount)),
		operator: operatorinformers.NewSharedInformerFactoryWithOptions(c.operator, resyncPeriod,
			operatorinformers.WithTransform(stripManagedFields), operatorinformers.WithTweakListOptions(byName(names.CloudCredential))),
		olm: olmoperators.NewInformers(c.olm, resyncPeriod),
	}
}

// informerFactory is what the operator does with each informer factory.
type informerFactory interface {
	Start(stopCh <-chan struct{})
	Shutdown()
}

func (f *factories) all() []informerFactory {
	return []informerFactory{f.config, f.machineConfigOperator, f.buildPods, f.nodes, f.machineConfiguration, f.insights, f.budgets,
		f.daemonSets, f.adminGates, f.adminAcks, f.apiserver, f.operator, f.olm}
}

// Start starts the informers asked for so far: a factory starts just
// those, so each controller's start starts them again (starter.run).
func (f *factories) Start(stopCh <-chan struct{}) {
	for _, factory := range f.all() {
		factory.Start(stopCh)
	}
}

// Shutdown waits for the informers to stop, once stopCh is closed.
func (f *factories) Shutdown() {
	for _, factory := range f.all() {
		factory.Shutdown()
	}
}

// oneConfigMap is an informer factory for the one ConfigMap of namespace
// named name.
func oneConfigMap(client kubernetes.Interface, namespace, name string) kubeinformers.SharedInformerFactory {
	return kubeinformers.NewSharedInformerFactoryWithOptions(client, resyncPeriod,
		kubeinformers.WithNamespace(namespace), kubeinformers.WithTweakListOptions(byName(name)), kubeinformers.WithTransform(stripManagedFields))
}

// byName lists and watches the object named name only: RBAC can then
// limit the operator to that object (resourceNames), as the API server
// authorizes a list or watch by its metadata.name field selector.
func byName(name string) func(*metav1.ListOptions) {
	return func(o *metav1.ListOptions) {
		o.FieldSelector = fields.OneTermEqualSelector("metadata.name", name).String()
	}
}

// stripManagedFields drops what the API server keeps of who wrote which
// field: a good part of every cached object, which the operator reads of
// UpdatePlans only.
func stripManagedFields(obj any) (any, error) {
	if _, ok := obj.(*insightsv1alpha1.UpdatePlan); ok {
		// When someone last touched a plan is in its managed fields: an
		// untouched plan is pruned.
		return obj, nil
	}
	if o, err := meta.Accessor(obj); err == nil {
		o.SetManagedFields(nil)
	}
	return obj, nil
}
