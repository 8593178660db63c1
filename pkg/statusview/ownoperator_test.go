package statusview

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// updating is the ClusterVersion insight of an update under way.
func updating() *insightsv1alpha1.ClusterVersionProgressInsight {
	return &insightsv1alpha1.ClusterVersionProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: "version"},
		Status:     insightsv1alpha1.ClusterVersionProgressInsightStatus{Assessment: insightsv1alpha1.ClusterVersionAssessmentProgressing},
	}
}

// ownOperator is the operator's ClusterOperator with one condition.
func ownOperator(conditionType configv1.ClusterStatusConditionType, status configv1.ConditionStatus, reason string) *configv1.ClusterOperator {
	return &configv1.ClusterOperator{
		ObjectMeta: metav1.ObjectMeta{Name: names.OwnClusterOperator},
		Status: configv1.ClusterOperatorStatus{Conditions: []configv1.ClusterOperatorStatusCondition{
			{Type: conditionType, Status: status, Reason: reason},
		}},
	}
}

func TestOwnOperatorWarnings(t *testing.T) {
	unavailableAndDegraded := ownOperator(configv1.OperatorAvailable, configv1.ConditionFalse, "NodeCacheNotSynced")
	unavailableAndDegraded.Status.Conditions = append(unavailableAndDegraded.Status.Conditions,
		configv1.ClusterOperatorStatusCondition{Type: configv1.OperatorDegraded, Status: configv1.ConditionTrue, Reason: "NodeCacheNotSynced"})
	for _, tc := range []struct {
		name     string
		operator *configv1.ClusterOperator
		want     []string
	}{
		{name: "no ClusterOperator"},
		{name: "available", operator: ownOperator(configv1.OperatorAvailable, configv1.ConditionTrue, "AsExpected")},
		{name: "not degraded", operator: ownOperator(configv1.OperatorDegraded, configv1.ConditionFalse, "AsExpected")},
		{name: "no conditions yet", operator: ownOperator("Other", configv1.ConditionTrue, "")},
		{
			name:     "degraded",
			operator: ownOperator(configv1.OperatorDegraded, configv1.ConditionTrue, "ClusterVersionWriteRejected"),
			want:     []string{"The update-insights operator is degraded (ClusterVersionWriteRejected), so what follows may be out of date; `oc describe clusteroperator update-insights` says why."},
		},
		{
			name:     "available, but a source cannot be read",
			operator: ownOperator(configv1.OperatorAvailable, configv1.ConditionTrue, "AlertsSourceUnreachable"),
			want:     []string{"The update-insights operator cannot read a source of its insights (AlertsSourceUnreachable), so those may be out of date; `oc describe clusteroperator update-insights` says why."},
		},
		{
			name:     "not available says so, degraded or not",
			operator: unavailableAndDegraded,
			want:     []string{"The update-insights operator is not available (NodeCacheNotSynced), so what follows may be out of date; `oc describe clusteroperator update-insights` says why."},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ownOperatorWarnings(tc.operator)); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// The warning comes first, whether the cluster is updating or not.
func TestTextStartsWithTheWarnings(t *testing.T) {
	in := &Insights{
		ClusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{updating()},
		Operator:        ownOperator(configv1.OperatorDegraded, configv1.ConditionTrue, "NodeWriteRejected"),
	}
	s, err := Build(in, time.Date(2024, 8, 5, 17, 23, 22, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteText(&b, s, Details{}); err != nil {
		t.Fatal(err)
	}
	want := "Warning: The update-insights operator is degraded (NodeWriteRejected), so what follows may be out of date; `oc describe clusteroperator update-insights` says why.\n\n= Control Plane =\n"
	if !strings.HasPrefix(b.String(), want) {
		t.Errorf("the text starts\n%s\nwant it to start\n%s", b.String()[:min(len(b.String()), len(want))], want)
	}
}

// A file may hold the operator's ClusterOperator with the insights, and no
// other.
func TestInsightsOfTakesOnlyTheOperatorsClusterOperator(t *testing.T) {
	own := ownOperator(configv1.OperatorDegraded, configv1.ConditionTrue, "NodeWriteRejected")
	in, err := InsightsOf([]runtime.Object{updating(), own})
	if err != nil {
		t.Fatal(err)
	}
	if in.Operator != own {
		t.Errorf("the operator's ClusterOperator was not taken: %v", in.Operator)
	}

	etcd := &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{Name: "etcd"}}
	if _, err := InsightsOf([]runtime.Object{updating(), etcd}); err == nil || !strings.Contains(err.Error(), "ClusterOperator etcd") {
		t.Errorf("got error %v, want one naming ClusterOperator etcd", err)
	}
}
