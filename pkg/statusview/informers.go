package statusview

import (
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// informerHealth returns the problems the UpdateInformers report, each
// with its informer's name. The operator's own (the built-in informer's)
// are its health insights, read as such.
func informerHealth(s *insightsv1alpha1.UpdateStatus) []Health {
	if s == nil {
		return nil
	}
	var out []Health
	add := func(informers []insightsv1alpha1.InformerInsights) {
		for _, informer := range informers {
			if informer.Name == updatestatus.BuiltinInformer {
				continue
			}
			for _, i := range informer.Insights {
				level, ok := insightsv1alpha1.ImpactLevel(i.Impact.Level)
				if !ok {
					continue
				}
				h := Health{
					Name:        informer.Name + "/" + i.UID,
					Informer:    informer.Name,
					StartedAt:   i.AcquisitionTime,
					Level:       level,
					Impact:      insightsv1alpha1.InsightImpactType(i.Impact.Type),
					Scope:       i.Scope.Type,
					Summary:     i.Impact.Summary,
					Description: i.Impact.Description,
					Reference:   i.Remediation.Reference,
				}
				if h.Impact == "" {
					h.Impact = insightsv1alpha1.UnknownImpactType
				}
				for _, r := range i.Scope.Resources {
					h.Resources = append(h.Resources, insightsv1alpha1.ResourceRef{Group: r.Group, Resource: r.Kind, Namespace: r.Namespace, Name: r.Name})
				}
				out = append(out, h)
			}
		}
	}
	add(s.Status.ControlPlane.Informers)
	for _, pool := range s.Status.WorkerPools {
		add(pool.Informers)
	}
	return out
}

// informerProgress returns the status-level insights of the UpdateInformers
// other than the operator's own (whose progress is read from its insights):
// the control plane's, and each worker pool's by the pool's name.
func informerProgress(s *insightsv1alpha1.UpdateStatus) ([]Progress, map[string][]Progress) {
	if s == nil {
		return nil, nil
	}
	progress := func(informers []insightsv1alpha1.InformerInsights) []Progress {
		var out []Progress
		for _, informer := range informers {
			if informer.Name == updatestatus.BuiltinInformer {
				continue
			}
			for _, i := range informer.Insights {
				if i.Impact.Level != insightsv1alpha1.StatusInsightLevel {
					continue
				}
				out = append(out, Progress{
					Informer: informer.Name, UID: i.UID, Summary: i.Impact.Summary,
					Since: i.AcquisitionTime, EstimatedFinish: i.Remediation.EstimatedFinish,
					AwaitingWindow: i.Impact.Type == insightsv1alpha1.AwaitingWindowImpactType,
					Stale:          informer.Stale,
				})
			}
		}
		return out
	}
	pools := map[string][]Progress{}
	for _, pool := range s.Status.WorkerPools {
		if p := progress(pool.Informers); len(p) > 0 {
			pools[pool.Resource.Name] = p
		}
	}
	return progress(s.Status.ControlPlane.Informers), pools
}

// informerWarnings say which informers could not be heard, as the
// operator reports them in the UpdateStatus: their insights are missing or
// old, which the rest of the output cannot tell.
func informerWarnings(s *insightsv1alpha1.UpdateStatus) []string {
	if s == nil {
		return nil
	}
	var out []string
	if c := meta.FindStatusCondition(s.Status.Conditions, updatestatus.ConditionInsightsComplete); c != nil && c.Status == metav1.ConditionFalse {
		out = append(out, "UpdateStatus does not hold every insight the informers reported: "+text.Truncate(strings.ReplaceAll(c.Message, "\n", "; "), 1024)+".")
	}
	for _, informer := range s.Status.ControlPlane.Informers {
		if informer.Name != updatestatus.BuiltinInformer {
			continue
		}
		for _, i := range informer.Insights {
			if strings.HasPrefix(i.UID, updatestatus.OfflineUIDPrefix) {
				out = append(out, i.Impact.Summary+".")
			}
		}
	}
	return out
}
