package health

import (
	"fmt"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// NodePoolBeyondSkew is a HyperShift NodePool running more minor releases
// behind its hosted control plane than HyperShift supports.
const NodePoolBeyondSkew = "NodePoolBeyondSupportedSkew"

// versionSkewDocs is HyperShift's version skew policy
// (docs/content/reference/versioning-support.md).
const versionSkewDocs = "https://hypershift.pages.dev/reference/versioning-support/"

// NodePoolSkew is how far a NodePool's oldest node runs behind the control
// plane: its kubelet version, the control plane's Kubernetes version, and
// how many minor releases lie between them.
type NodePoolSkew struct {
	Kubelet, ControlPlane string
	MinorsBehind          int
}

// ForNodePool returns the health insights of a NodePool whose insight status
// is s: one when its oldest node runs more than hosted.MaxMinorsBehind minor
// releases behind the control plane, the limit HyperShift validates
// (support/supportedversion/version.go ValidateVersionSkew). Such a NodePool
// keeps running, without guarantees of stability or support
// (docs/content/reference/versioning-support.md).
func ForNodePool(s *insightsv1alpha1.MachineConfigPoolProgressInsightStatus, skew NodePoolSkew) []Insight {
	if skew.MinorsBehind <= hosted.MaxMinorsBehind {
		return nil
	}
	resources := []insightsv1alpha1.ResourceRef{PoolRef(s)}
	return []Insight{nodeInsight(NodePoolBeyondSkew, s.ScopeType, resources,
		conditionSince(s.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightHealthy),
		insightsv1alpha1.InsightImpact{
			Level: insightsv1alpha1.ErrorImpactLevel,
			Type:  insightsv1alpha1.UnknownImpactType,
			Summary: text.OneLine(fmt.Sprintf("NodePool %s is %d minor releases behind the control plane, beyond the supported %d",
				s.Name, skew.MinorsBehind, hosted.MaxMinorsBehind), maxSummaryLength),
			Description: text.Truncate(fmt.Sprintf("Nodes of NodePool %s run kubelet %s, while the control plane runs Kubernetes %s: %d minor releases apart. "+
				"HyperShift supports NodePools up to %d minor releases behind the control plane; beyond that the NodePool keeps running without guarantees of stability or support. "+
				"NodePools are updated apart from the control plane: update the NodePool's release to one within the limit.",
				s.Name, skew.Kubelet, skew.ControlPlane, skew.MinorsBehind, hosted.MaxMinorsBehind), maxDescriptionLength),
		}, versionSkewDocs)}
}
