package updateinformers

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

func TestConvert(t *testing.T) {
	acquired := metav1.NewTime(now)
	finish := metav1.NewTime(now.Add(15 * time.Minute))
	tooMany := make([]protocol.Resource, maxResources+1)
	for i := range tooMany {
		tooMany[i] = protocol.Resource{Kind: "Node", Name: "n"}
	}
	for _, tc := range []struct {
		name        string
		in          protocol.Insight
		want        []insightsv1alpha1.UpdateInsight
		wantProblem string
	}{{
		name: "mapped one to one, with a duration from the acquisition time",
		in: protocol.Insight{
			UID: "a", AcquisitionTime: &acquired,
			Scope:       protocol.Scope{Type: protocol.ScopeWorkerPool, WorkerPool: []protocol.Resource{{Group: "machineconfiguration.openshift.io", Kind: "MachineConfigPool", Name: "worker"}}, Resources: []protocol.Resource{{Kind: "Node", Name: "w1"}}},
			Impact:      protocol.Impact{Level: protocol.LevelStatus, Type: protocol.ImpactAwaitingWindow, Summary: "held", Description: "until the window"},
			Remediation: protocol.Remediation{Reference: "https://example.com/runbook", EstimatedFinish: "15m"},
		},
		want: []insightsv1alpha1.UpdateInsight{{
			UID: "a", AcquisitionTime: &acquired,
			Scope: insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeWorkerPool,
				WorkerPool: []insightsv1alpha1.InsightResource{{Group: "machineconfiguration.openshift.io", Kind: "MachineConfigPool", Name: "worker"}},
				Resources:  []insightsv1alpha1.InsightResource{{Kind: "Node", Name: "w1"}}},
			Impact:      insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.StatusInsightLevel, Type: insightsv1alpha1.AwaitingWindowImpactType, Summary: "held", Description: "until the window"},
			Remediation: insightsv1alpha1.UpdateInsightRemediation{Reference: "https://example.com/runbook", EstimatedFinish: &finish},
		}},
	}, {
		name:        "a uid longer than the API allows",
		in:          protocol.Insight{UID: strings.Repeat("u", maxUIDLength+1), Scope: protocol.Scope{Type: protocol.ScopeControlPlane}, Impact: protocol.Impact{Level: protocol.LevelInfo, Summary: "s"}},
		wantProblem: "1 insights left out, which the API would refuse: insight \"" + strings.Repeat("u", 64) + "\": uid longer than 256 characters",
	}, {
		// The API counts characters: 256 two-byte é's fit.
		name: "a uid of as many characters as the API allows, in more bytes",
		in:   protocol.Insight{UID: strings.Repeat("é", maxUIDLength), Scope: protocol.Scope{Type: protocol.ScopeControlPlane}, Impact: protocol.Impact{Level: protocol.LevelInfo, Summary: "s"}},
		want: []insightsv1alpha1.UpdateInsight{{
			UID: strings.Repeat("é", maxUIDLength), Scope: insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane},
			Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.InfoInsightLevel, Summary: "s"},
		}},
	}, {
		name:        "more resources than the API allows",
		in:          protocol.Insight{UID: "r", Scope: protocol.Scope{Type: protocol.ScopeControlPlane, Resources: tooMany}, Impact: protocol.Impact{Level: protocol.LevelInfo, Summary: "s"}},
		wantProblem: "1 insights left out, which the API would refuse: insight \"r\": more than 32 resources",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := convert("mco", []protocol.Insight{tc.in})
			if diff := cmp.Diff(tc.want, got.insights); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantProblem, got.problem()); diff != "" {
				t.Errorf("problem (-want +got):\n%s", diff)
			}
		})
	}
}
