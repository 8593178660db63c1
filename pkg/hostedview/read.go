package hostedview

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/output"
	"github.com/update-insights/update-insights-operator/pkg/recorded"
)

// Insights are the insights a Fleet is built from.
type Insights struct {
	Clusters []insightsv1alpha1.HostedClusterProgressInsight
	Pools    []insightsv1alpha1.NodePoolProgressInsight
}

// InsightsOf sorts objects into Insights, refusing anything but a
// HostedClusterProgressInsight or a NodePoolProgressInsight: a file meant
// for the fleet's view that holds other kinds is likely the wrong file.
func InsightsOf(objects []runtime.Object) (*Insights, error) {
	in := &Insights{}
	for _, o := range objects {
		switch o := o.(type) {
		case *insightsv1alpha1.HostedClusterProgressInsight:
			in.Clusters = append(in.Clusters, *o)
		case *insightsv1alpha1.NodePoolProgressInsight:
			in.Pools = append(in.Pools, *o)
		default:
			return nil, fmt.Errorf("holds a %s, which is neither a HostedClusterProgressInsight nor a NodePoolProgressInsight", recorded.KindOf(o))
		}
	}
	return in, nil
}

// ReadInsights reads the insights in a file or folder, such as what
// `oc get hcpi,nppi -A -o yaml` prints. Errors name the file.
func ReadInsights(path string) (*Insights, error) {
	objects, err := recorded.Read(path)
	if err != nil {
		return nil, output.OneLine(err)
	}
	in, err := InsightsOf(objects)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return in, nil
}
