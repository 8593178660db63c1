package statusview

import (
	"fmt"

	configv1 "github.com/openshift/api/config/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	"k8s.io/apimachinery/pkg/runtime"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/output"
	"github.com/update-insights/update-insights-operator/pkg/recorded"
)

// Insights are the insight objects a Status is built from.
type Insights struct {
	ClusterVersions    []*insightsv1alpha1.ClusterVersionProgressInsight
	ClusterOperators   []*insightsv1alpha1.ClusterOperatorProgressInsight
	MachineConfigPools []*insightsv1alpha1.MachineConfigPoolProgressInsight
	Nodes              []*insightsv1alpha1.NodeProgressInsight
	Health             []*insightsv1alpha1.UpdateHealthInsight
	// UpdateStatus carries the insights of the UpdateInformers, when there
	// is one.
	UpdateStatus *insightsv1alpha1.UpdateStatus
	// Operator is the operator's own ClusterOperator, when it could be read.
	Operator *configv1.ClusterOperator
	// Lease is what reading the operator's leader Lease gave; nil when it
	// was not read.
	Lease *LeaseReading
}

// InsightsOf sorts objects into Insights, refusing anything but an insight,
// the operator's own ClusterOperator and its leader Lease.
func InsightsOf(objects []runtime.Object) (*Insights, error) {
	in := &Insights{}
	for _, o := range objects {
		switch o := o.(type) {
		case *insightsv1alpha1.ClusterVersionProgressInsight:
			in.ClusterVersions = append(in.ClusterVersions, o)
		case *insightsv1alpha1.ClusterOperatorProgressInsight:
			in.ClusterOperators = append(in.ClusterOperators, o)
		case *insightsv1alpha1.MachineConfigPoolProgressInsight:
			in.MachineConfigPools = append(in.MachineConfigPools, o)
		case *insightsv1alpha1.NodeProgressInsight:
			in.Nodes = append(in.Nodes, o)
		case *insightsv1alpha1.UpdateHealthInsight:
			in.Health = append(in.Health, o)
		case *insightsv1alpha1.UpdateStatus:
			if o.Name != insightsv1alpha1.UpdateStatusName {
				return nil, fmt.Errorf("holds UpdateStatus %s, which is not the cluster's (%s)", o.Name, insightsv1alpha1.UpdateStatusName)
			}
			in.UpdateStatus = o
		case *coordinationv1.Lease:
			if o.Namespace != names.OwnNamespace || o.Name != names.OwnLease {
				return nil, fmt.Errorf("holds Lease %s/%s, which is not the operator's own (%s)", o.Namespace, o.Name, OwnLeaseName())
			}
			in.Lease = &LeaseReading{Lease: o}
		case *configv1.ClusterOperator:
			if o.Name != names.OwnClusterOperator {
				return nil, fmt.Errorf("holds ClusterOperator %s, which is not the operator's own (%s)", o.Name, names.OwnClusterOperator)
			}
			in.Operator = o
		default:
			return nil, fmt.Errorf("holds a %s, which is not an insight", recorded.KindOf(o))
		}
	}
	return in, nil
}

// ReadInsights reads the insights in a file or folder, such as what analyze
// prints, which must hold a ClusterVersion insight. Errors name the file.
func ReadInsights(path string) (*Insights, error) {
	objects, err := recorded.Read(path)
	if err != nil {
		return nil, output.OneLine(err)
	}
	in, err := InsightsOf(objects)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(in.ClusterVersions) == 0 {
		return nil, fmt.Errorf("%s: holds no ClusterVersionProgressInsight", path)
	}
	return in, nil
}

// clusterVersion returns the insight of the ClusterVersion named version,
// which is the cluster's, or else the first by name.
func (in *Insights) clusterVersion() *insightsv1alpha1.ClusterVersionProgressInsight {
	var first *insightsv1alpha1.ClusterVersionProgressInsight
	for _, cv := range in.ClusterVersions {
		if cv.Name == names.ClusterVersion {
			return cv
		}
		if first == nil || cv.Name < first.Name {
			first = cv
		}
	}
	return first
}
