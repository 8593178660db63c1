package updatestatus

import (
	"fmt"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	"k8s.io/apimachinery/pkg/api/meta"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	healthinsight "github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// BuiltinInformer names the operator's own insights in UpdateStatus: the
// built-in informer, answered without HTTP but in the protocol's shape.
const BuiltinInformer = "update-insights-operator"

// Insights are the operator's own insight objects.
type Insights struct {
	ClusterVersions []*insightsv1alpha1.ClusterVersionProgressInsight
	Pools           []*insightsv1alpha1.MachineConfigPoolProgressInsight
	Nodes           []*insightsv1alpha1.NodeProgressInsight
	Health          []*insightsv1alpha1.UpdateHealthInsight
}

// Builtin returns the operator's own insights in the protocol's shape:
// status-level insights for the progress of the control plane, of each pool
// and of each node that is not done, and the health insights at their
// levels. Nothing in them depends on the time they are computed at, so that
// an UpdateStatus without news is not written again.
func Builtin(in Insights) []insightsv1alpha1.UpdateInsight {
	var out []insightsv1alpha1.UpdateInsight
	for _, cv := range in.ClusterVersions {
		if i, ok := controlPlaneProgress(cv); ok {
			out = append(out, i)
		}
	}
	for _, pool := range in.Pools {
		if i, ok := poolProgress(pool); ok {
			out = append(out, i)
		}
	}
	for _, node := range in.Nodes {
		if i, ok := nodeProgress(node); ok {
			out = append(out, i)
		}
	}
	for _, h := range in.Health {
		out = append(out, health(h))
	}
	return out
}

func controlPlaneProgress(cv *insightsv1alpha1.ClusterVersionProgressInsight) (insightsv1alpha1.UpdateInsight, bool) {
	s := cv.Status
	if s.Assessment == insightsv1alpha1.ClusterVersionAssessmentCompleted {
		return insightsv1alpha1.UpdateInsight{}, false
	}
	return insightsv1alpha1.UpdateInsight{
		UID: boundedUID("controlplane/" + cv.Name),
		Scope: insightsv1alpha1.UpdateInsightScope{
			Type:      insightsv1alpha1.ScopeTypeControlPlane,
			Resources: []insightsv1alpha1.InsightResource{{Group: configv1.GroupName, Kind: "ClusterVersion", Name: cv.Name}},
		},
		Impact: insightsv1alpha1.UpdateInsightImpact{
			Level:   insightsv1alpha1.StatusInsightLevel,
			Summary: fmt.Sprintf("Control plane %s: %d%% of its operators updated to %s", controlPlaneWord(s.Assessment), s.CompletionPercent, s.Versions.Target.Version),
		},
		Remediation: insightsv1alpha1.UpdateInsightRemediation{EstimatedFinish: s.EstimatedCompletedAt},
	}, true
}

// controlPlaneWord is an assessment in a sentence: the API's word in lower
// case, but for the words that are not one (ProgressingSlow), and Degraded,
// which earlier versions wrote and `status` says as Stalled.
func controlPlaneWord(a insightsv1alpha1.ClusterVersionAssessment) string {
	switch a {
	case insightsv1alpha1.ClusterVersionAssessmentProgressingSlow:
		return "progressing slowly"
	case insightsv1alpha1.ClusterVersionAssessmentDegraded:
		return "stalled"
	}
	return strings.ToLower(string(a))
}

func poolProgress(pool *insightsv1alpha1.MachineConfigPoolProgressInsight) (insightsv1alpha1.UpdateInsight, bool) {
	s := pool.Status
	if s.ScopeType != insightsv1alpha1.ScopeTypeWorkerPool || s.Assessment == insightsv1alpha1.PoolCompleted {
		return insightsv1alpha1.UpdateInsight{}, false
	}
	ref := poolResource(s.Name)
	impact := insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.StatusInsightLevel,
		Summary: fmt.Sprintf("Pool %s %s: %d%% of its nodes updated", s.Name, strings.ToLower(string(s.Assessment)), s.CompletionPercent)}
	if hosted.IsNodePool(s.Resource) {
		ref = nodePoolResource(s.Name)
		impact.Summary = "NodePool " + strings.TrimPrefix(impact.Summary, "Pool ")
		if s.Assessment == insightsv1alpha1.PoolBehind {
			// Behind is no progress. How far behind, and the limit, is
			// its insight's message: longer than a summary may be, so it
			// is the description.
			impact.Summary = fmt.Sprintf("NodePool %s is behind the control plane", s.Name)
			if updating := meta.FindStatusCondition(s.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightUpdating); updating != nil {
				impact.Description = updating.Message
			}
		}
	}
	return insightsv1alpha1.UpdateInsight{
		UID:    boundedUID("pool/" + s.Name),
		Scope:  insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeWorkerPool, WorkerPool: []insightsv1alpha1.InsightResource{ref}, Resources: []insightsv1alpha1.InsightResource{ref}},
		Impact: impact,
	}, true
}

func nodeProgress(node *insightsv1alpha1.NodeProgressInsight) (insightsv1alpha1.UpdateInsight, bool) {
	s := node.Status
	updating := meta.FindStatusCondition(s.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
	if updating == nil || updating.Reason == insightsv1alpha1.NodeCompleted {
		return insightsv1alpha1.UpdateInsight{}, false
	}
	summary := fmt.Sprintf("Node %s: %s", s.Name, updating.Reason)
	if s.Message != "" {
		summary += ": " + s.Message
	}
	scope := insightsv1alpha1.UpdateInsightScope{Type: s.ScopeType, Resources: []insightsv1alpha1.InsightResource{{Kind: "Node", Name: s.Name}}}
	if s.ScopeType == insightsv1alpha1.ScopeTypeWorkerPool {
		scope.WorkerPool = []insightsv1alpha1.InsightResource{poolResource(s.PoolResource.Name)}
		if hosted.IsNodePool(&s.PoolResource) {
			scope.WorkerPool = []insightsv1alpha1.InsightResource{nodePoolResource(s.PoolResource.Name)}
		}
	}
	return insightsv1alpha1.UpdateInsight{
		UID:    boundedUID("node/" + s.Name),
		Scope:  scope,
		Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.StatusInsightLevel, Summary: summary, Description: updating.Message},
	}, true
}

func health(h *insightsv1alpha1.UpdateHealthInsight) insightsv1alpha1.UpdateInsight {
	s := h.Status
	scope := insightsv1alpha1.UpdateInsightScope{Type: s.Scope.Type}
	for _, r := range s.Scope.Resources {
		kind, ok := healthinsight.Kind(r.Resource)
		if !ok {
			// An insight an older or newer operator wrote: its resource
			// is the best name there is.
			kind = r.Resource
		}
		resource := insightsv1alpha1.InsightResource{Group: r.Group, Kind: kind, Namespace: r.Namespace, Name: r.Name}
		scope.Resources = append(scope.Resources, resource)
		if healthinsight.IsPool(kind) && s.Scope.Type == insightsv1alpha1.ScopeTypeWorkerPool {
			scope.WorkerPool = append(scope.WorkerPool, resource)
		}
	}
	return insightsv1alpha1.UpdateInsight{
		UID:   boundedUID("health/" + h.Name),
		Scope: scope,
		Impact: insightsv1alpha1.UpdateInsightImpact{
			Level:       insightsv1alpha1.InformerLevel(s.Impact.Level),
			Type:        insightsv1alpha1.UpdateInsightImpactType(s.Impact.Type),
			Summary:     s.Impact.Summary,
			Description: s.Impact.Description,
		},
		Remediation: insightsv1alpha1.UpdateInsightRemediation{Reference: s.Remediation.Reference, EstimatedFinish: s.Remediation.EstimatedFinish},
	}
}

func poolResource(name string) insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Group: machineconfigurationv1.GroupName, Kind: "MachineConfigPool", Name: name}
}

func nodePoolResource(name string) insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Group: hosted.NodePoolGroup, Kind: "NodePool", Name: name}
}

// NodePools maps each node with an insight to its pool's name.
func NodePools(nodes []*insightsv1alpha1.NodeProgressInsight) map[string]string {
	pools := make(map[string]string, len(nodes))
	for _, n := range nodes {
		pools[n.Status.Name] = n.Status.PoolResource.Name
	}
	return pools
}
