package olmoperators

import (
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/client-go/tools/cache"

	"github.com/update-insights/update-insights-operator/pkg/olm"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
	olmclient "github.com/update-insights/update-insights-operator/pkg/olm/generated/clientset/versioned"
	olminformers "github.com/update-insights/update-insights-operator/pkg/olm/generated/informers/externalversions"
	olmlisters "github.com/update-insights/update-insights-operator/pkg/olm/generated/listers/operators/v1alpha1"
)

// Informers are the caches of OLM's objects the operator reads: the CSVs
// that are not copies, and the Subscriptions and InstallPlans.
type Informers struct {
	// CSVs caches CSVs but OLM's copies, Others the Subscriptions and
	// InstallPlans: the CSVs' label selector is theirs alone.
	CSVs, Others olminformers.SharedInformerFactory
}

// NewInformers returns the factories of the caches; nothing is listed
// until a controller asks for an informer and the factories start.
func NewInformers(client olmclient.Interface, resync time.Duration) Informers {
	return Informers{
		CSVs: olminformers.NewSharedInformerFactoryWithOptions(client, resync,
			olminformers.WithTweakListOptions(Originals), olminformers.WithTransform(StripCSV)),
		Others: olminformers.NewSharedInformerFactoryWithOptions(client, resync, olminformers.WithTransform(stripManagedFields)),
	}
}

// Listers read the caches.
type Listers struct {
	CSVs          olmlisters.ClusterServiceVersionLister
	Subscriptions olmlisters.SubscriptionLister
	InstallPlans  olmlisters.InstallPlanLister
}

// Listers asks for the three informers, and returns their listers and
// informers.
func (i Informers) Listers() (Listers, []cache.SharedIndexInformer) {
	csvs := i.CSVs.Operators().V1alpha1().ClusterServiceVersions()
	subs := i.Others.Operators().V1alpha1().Subscriptions()
	plans := i.Others.Operators().V1alpha1().InstallPlans()
	return Listers{CSVs: csvs.Lister(), Subscriptions: subs.Lister(), InstallPlans: plans.Lister()},
		[]cache.SharedIndexInformer{csvs.Informer(), subs.Informer(), plans.Informer()}
}

// Start starts the informers asked for.
func (i Informers) Start(stopCh <-chan struct{}) {
	i.CSVs.Start(stopCh)
	i.Others.Start(stopCh)
}

// Shutdown stops them.
func (i Informers) Shutdown() {
	i.CSVs.Shutdown()
	i.Others.Shutdown()
}

// notCopied selects the CSVs without the label OLM puts on its copies. OLM
// copies the CSV of an operator that watches every namespace into each of
// them: 2,000 namespaces and 50 such operators make 100,000 copies, which
// the API server filters out rather than send. OLM's own caches select the
// same way (olm/operator.go, "!olm.copiedFrom").
var notCopied = labels.NewSelector().Add(mustRequirement(operatorsv1alpha1.CopiedLabelKey, selection.DoesNotExist)).String()

// Originals restricts a list or watch of CSVs to those that are not copies.
func Originals(o *metav1.ListOptions) {
	o.LabelSelector = notCopied
}

func mustRequirement(key string, op selection.Operator) labels.Requirement {
	r, err := labels.NewRequirement(key, op, nil)
	if err != nil {
		panic(err)
	}
	return *r
}

// readAnnotations are the CSV annotations the insights read; a CSV's
// others (alm-examples, its description) are often tens of kilobytes.
var readAnnotations = []string{operatorsv1alpha1.PropertiesAnnotation, operatorsv1alpha1.OperatorNamespaceAnnotation}

// StripCSV keeps of a CSV what the insights read: the mirror already drops
// its spec but the name and version; this drops the annotations and labels
// but those read (OLM's copy label, and its component labels, which name
// the Subscription of an old CSV OLM is replacing), and the managed
// fields.
func StripCSV(obj any) (any, error) {
	csv, ok := obj.(*operatorsv1alpha1.ClusterServiceVersion)
	if !ok {
		return obj, nil
	}
	csv.ManagedFields = nil
	annotations := map[string]string{}
	for _, key := range readAnnotations {
		if v, ok := csv.Annotations[key]; ok {
			annotations[key] = v
		}
	}
	csv.Annotations = annotations
	labels := map[string]string{}
	for k, v := range csv.Labels {
		if k == operatorsv1alpha1.CopiedLabelKey || strings.HasPrefix(k, olm.ComponentLabelPrefix) {
			labels[k] = v
		}
	}
	csv.Labels = labels
	return csv, nil
}

func stripManagedFields(obj any) (any, error) {
	if o, ok := obj.(metav1.Object); ok {
		o.SetManagedFields(nil)
	}
	return obj, nil
}
