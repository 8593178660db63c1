package integration

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// statusClient is what the generated typed clients of every insight kind have
// in common.
type statusClient[T any] interface {
	Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error)
	UpdateStatus(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
}

type object interface {
	metav1.Object
	runtime.Object
}

// createWithStatus creates obj and then writes its status through the status
// subresource (a create ignores status), returning what the server stored. It
// deletes the object when the test ends.
func createWithStatus[T object](t *testing.T, c statusClient[T], obj T) (T, error) {
	t.Helper()
	ctx := context.Background()
	created, err := c.Create(ctx, obj, metav1.CreateOptions{})
	if err != nil {
		return created, err
	}
	t.Cleanup(func() {
		if err := c.Delete(context.Background(), obj.GetName(), metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting %s: %v", obj.GetName(), err)
		}
	})
	obj.SetResourceVersion(created.GetResourceVersion())
	return c.UpdateStatus(ctx, obj, metav1.UpdateOptions{})
}

// The server stores times with a precision of one second.
var apiTime = metav1.NewTime(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))

func at(d time.Duration) *metav1.Time {
	t := metav1.NewTime(apiTime.Add(d))
	return &t
}

func condition(conditionType string, status metav1.ConditionStatus, reason string) metav1.Condition {
	return metav1.Condition{Type: conditionType, Status: status, Reason: reason, Message: "a message", LastTransitionTime: apiTime}
}

func clusterVersionInsight(name string) *insightsv1alpha1.ClusterVersionProgressInsight {
	return &insightsv1alpha1.ClusterVersionProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: insightsv1alpha1.ClusterVersionProgressInsightStatus{
			Conditions: []metav1.Condition{
				condition("Updating", metav1.ConditionTrue, "Progressing"),
				condition("Healthy", metav1.ConditionTrue, "AsExpected"),
			},
			Name:       "version",
			Assessment: insightsv1alpha1.ClusterVersionAssessmentProgressing,
			Versions: insightsv1alpha1.ControlPlaneUpdateVersions{
				Target: insightsv1alpha1.Version{
					Version:  "4.17.0",
					Metadata: []insightsv1alpha1.VersionMetadata{{Key: insightsv1alpha1.ArchitectureMetadata, Value: "multi"}},
				},
				Previous: &insightsv1alpha1.Version{
					Version:  "4.16.3",
					Metadata: []insightsv1alpha1.VersionMetadata{{Key: insightsv1alpha1.PartialMetadata}},
				},
			},
			CompletionPercent:    42,
			StartedAt:            at(0),
			CompletedAt:          at(time.Hour),
			EstimatedCompletedAt: at(50 * time.Minute),
			LastObservedProgress: at(10 * time.Minute),
		},
	}
}

func healthInsight(name string) *insightsv1alpha1.UpdateHealthInsight {
	return &insightsv1alpha1.UpdateHealthInsight{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: insightsv1alpha1.UpdateHealthInsightStatus{
			StartedAt: apiTime,
			Scope: insightsv1alpha1.InsightScope{
				Type: insightsv1alpha1.ScopeTypeControlPlane,
				Resources: []insightsv1alpha1.ResourceRef{
					{Group: "config.openshift.io", Resource: "clusteroperators", Name: "etcd"},
					{Resource: "pods", Name: "etcd-0", Namespace: "openshift-etcd"},
				},
			},
			Impact: insightsv1alpha1.InsightImpact{
				Level:       insightsv1alpha1.ErrorImpactLevel,
				Type:        insightsv1alpha1.APIAvailabilityImpactType,
				Summary:     "Cluster Operator etcd is unavailable",
				Description: "The etcd operator reports Available=False.\nCheck its pods.",
			},
			Remediation: insightsv1alpha1.InsightRemediation{
				Reference:       "https://docs.openshift.com/container-platform/latest/support/troubleshooting/troubleshooting-operator-issues.html",
				EstimatedFinish: at(time.Hour),
			},
		},
	}
}

func clusterOperatorInsight(name string) *insightsv1alpha1.ClusterOperatorProgressInsight {
	return &insightsv1alpha1.ClusterOperatorProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: insightsv1alpha1.ClusterOperatorProgressInsightStatus{
			Conditions: []metav1.Condition{
				condition("Updating", metav1.ConditionFalse, "Pending"),
				condition("Healthy", metav1.ConditionFalse, "Degraded"),
			},
			Name: "etcd",
		},
	}
}

func nodeInsight(name string) *insightsv1alpha1.NodeProgressInsight {
	return &insightsv1alpha1.NodeProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: insightsv1alpha1.NodeProgressInsightStatus{
			Conditions: []metav1.Condition{
				condition("Updating", metav1.ConditionTrue, "Draining"),
				condition("Degraded", metav1.ConditionFalse, "AsExpected"),
				condition("Available", metav1.ConditionTrue, "AsExpected"),
			},
			Name:                "worker-0",
			PoolResource:        insightsv1alpha1.ResourceRef{Group: "machineconfiguration.openshift.io", Resource: "machineconfigpools", Name: "worker"},
			ScopeType:           insightsv1alpha1.ScopeTypeWorkerPool,
			Version:             "4.16.3",
			EstimatedToComplete: &metav1.Duration{Duration: 10 * time.Minute},
			Message:             strings.Repeat("m", 100),
		},
	}
}

func poolInsight(name string) *insightsv1alpha1.MachineConfigPoolProgressInsight {
	return &insightsv1alpha1.MachineConfigPoolProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: insightsv1alpha1.MachineConfigPoolProgressInsightStatus{
			Conditions: []metav1.Condition{
				condition("Updating", metav1.ConditionTrue, "Progressing"),
				condition("Healthy", metav1.ConditionTrue, "AsExpected"),
			},
			Name:              "worker",
			ScopeType:         insightsv1alpha1.ScopeTypeWorkerPool,
			Assessment:        insightsv1alpha1.PoolProgressing,
			CompletionPercent: 33,
			Summaries: []insightsv1alpha1.NodeSummary{
				{Type: insightsv1alpha1.NodesTotal, Count: 3},
				{Type: insightsv1alpha1.NodesAvailable, Count: 2},
				{Type: insightsv1alpha1.NodesProgressing, Count: 1},
				{Type: insightsv1alpha1.NodesOutdated, Count: 2},
				{Type: insightsv1alpha1.NodesDraining, Count: 1},
				{Type: insightsv1alpha1.NodesExcluded, Count: 0},
				{Type: insightsv1alpha1.NodesDegraded, Count: 0},
			},
		},
	}
}

func TestValidInsightsAreStoredWithTheirFullStatus(t *testing.T) {
	c := insightsClient.InsightsV1alpha1()
	t.Run("ClusterVersionProgressInsight", func(t *testing.T) {
		want := clusterVersionInsight("valid")
		got, err := createWithStatus(t, c.ClusterVersionProgressInsights(), want.DeepCopy())
		if err != nil {
			t.Fatalf("rejected: %v", err)
		}
		if diff := cmp.Diff(want.Status, got.Status); diff != "" {
			t.Errorf("stored status differs (-sent +stored):\n%s", diff)
		}
	})
	t.Run("ClusterVersionProgressInsight with every optional field omitted", func(t *testing.T) {
		want := &insightsv1alpha1.ClusterVersionProgressInsight{
			ObjectMeta: metav1.ObjectMeta{Name: "minimal"},
			Status: insightsv1alpha1.ClusterVersionProgressInsightStatus{
				Name:       "version",
				Assessment: insightsv1alpha1.ClusterVersionAssessmentUnknown,
			},
		}
		got, err := createWithStatus(t, c.ClusterVersionProgressInsights(), want.DeepCopy())
		if err != nil {
			t.Fatalf("rejected: %v", err)
		}
		if diff := cmp.Diff(want.Status, got.Status); diff != "" {
			t.Errorf("stored status differs (-sent +stored):\n%s", diff)
		}
	})
	t.Run("UpdateHealthInsight", func(t *testing.T) {
		want := healthInsight("valid")
		got, err := createWithStatus(t, c.UpdateHealthInsights(), want.DeepCopy())
		if err != nil {
			t.Fatalf("rejected: %v", err)
		}
		if diff := cmp.Diff(want.Status, got.Status); diff != "" {
			t.Errorf("stored status differs (-sent +stored):\n%s", diff)
		}
	})
	t.Run("UpdateHealthInsight undated", func(t *testing.T) {
		// A problem no object dates (a degraded node, a paused pool) has
		// no startedAt: the empty time the client sends as null is dropped,
		// and the insight is stored without it.
		want := healthInsight("undated")
		want.Status.StartedAt = metav1.Time{}
		got, err := createWithStatus(t, c.UpdateHealthInsights(), want.DeepCopy())
		if err != nil {
			t.Fatalf("rejected: %v", err)
		}
		if diff := cmp.Diff(want.Status, got.Status); diff != "" {
			t.Errorf("stored status differs (-sent +stored):\n%s", diff)
		}
	})
	t.Run("ClusterOperatorProgressInsight", func(t *testing.T) {
		want := clusterOperatorInsight("valid")
		got, err := createWithStatus(t, c.ClusterOperatorProgressInsights(), want.DeepCopy())
		if err != nil {
			t.Fatalf("rejected: %v", err)
		}
		if diff := cmp.Diff(want.Status, got.Status); diff != "" {
			t.Errorf("stored status differs (-sent +stored):\n%s", diff)
		}
	})
	t.Run("NodeProgressInsight", func(t *testing.T) {
		want := nodeInsight("valid")
		got, err := createWithStatus(t, c.NodeProgressInsights(), want.DeepCopy())
		if err != nil {
			t.Fatalf("rejected: %v", err)
		}
		if diff := cmp.Diff(want.Status, got.Status); diff != "" {
			t.Errorf("stored status differs (-sent +stored):\n%s", diff)
		}
	})
	// The longest texts the operator writes whole: a condition message a
	// health insight quotes, a daemon's reason on a node, an operator's
	// Progressing reason; in characters of several bytes, as the API
	// counts characters.
	t.Run("the longest texts allowed", func(t *testing.T) {
		health := healthInsight("longest")
		health.Status.Impact.Description = strings.Repeat("é", insightsv1alpha1.HealthDescriptionMaxLength)
		if got, err := createWithStatus(t, c.UpdateHealthInsights(), health.DeepCopy()); err != nil {
			t.Errorf("health insight rejected: %v", err)
		} else if got.Status.Impact.Description != health.Status.Impact.Description {
			t.Errorf("stored description of %d bytes, sent %d", len(got.Status.Impact.Description), len(health.Status.Impact.Description))
		}
		node := nodeInsight("longest")
		node.Status.Message = strings.Repeat("é", insightsv1alpha1.NodeMessageMaxLength)
		if got, err := createWithStatus(t, c.NodeProgressInsights(), node.DeepCopy()); err != nil {
			t.Errorf("node insight rejected: %v", err)
		} else if got.Status.Message != node.Status.Message {
			t.Errorf("stored message of %d bytes, sent %d", len(got.Status.Message), len(node.Status.Message))
		}
		operator := clusterOperatorInsight("longest")
		operator.Status.ProgressingReason = strings.Repeat("R", insightsv1alpha1.ProgressingReasonMaxLength)
		if got, err := createWithStatus(t, c.ClusterOperatorProgressInsights(), operator.DeepCopy()); err != nil {
			t.Errorf("operator insight rejected: %v", err)
		} else if diff := cmp.Diff(operator.Status, got.Status); diff != "" {
			t.Errorf("stored status differs (-sent +stored):\n%s", diff)
		}
	})
	t.Run("MachineConfigPoolProgressInsight", func(t *testing.T) {
		want := poolInsight("valid")
		got, err := createWithStatus(t, c.MachineConfigPoolProgressInsights(), want.DeepCopy())
		if err != nil {
			t.Fatalf("rejected: %v", err)
		}
		if diff := cmp.Diff(want.Status, got.Status); diff != "" {
			t.Errorf("stored status differs (-sent +stored):\n%s", diff)
		}
	})
}

func TestInvalidInsightsAreRejected(t *testing.T) {
	c := insightsClient.InsightsV1alpha1()
	testCases := []struct {
		name string
		// write tries to store an invalid insight and returns the server's answer.
		write func(t *testing.T) error
		// field is the path the server must name in its refusal.
		field string
	}{
		{
			name:  "assessment outside its enum",
			field: "status.assessment",
			write: func(t *testing.T) error {
				o := clusterVersionInsight("bad-assessment")
				o.Status.Assessment = "Stuck"
				_, err := createWithStatus(t, c.ClusterVersionProgressInsights(), o)
				return err
			},
		},
		{
			name:  "completion of 150 percent",
			field: "status.completionPercent",
			write: func(t *testing.T) error {
				o := clusterVersionInsight("completion-150")
				o.Status.CompletionPercent = 150
				_, err := createWithStatus(t, c.ClusterVersionProgressInsights(), o)
				return err
			},
		},
		{
			name:  "negative completion",
			field: "status.completionPercent",
			write: func(t *testing.T) error {
				o := poolInsight("completion-negative")
				o.Status.CompletionPercent = -1
				_, err := createWithStatus(t, c.MachineConfigPoolProgressInsights(), o)
				return err
			},
		},
		{
			name:  "version metadata key outside its enum",
			field: "status.versions.target.metadata[0].key",
			write: func(t *testing.T) error {
				o := clusterVersionInsight("bad-metadata")
				o.Status.Versions.Target.Metadata = []insightsv1alpha1.VersionMetadata{{Key: "Color", Value: "blue"}}
				_, err := createWithStatus(t, c.ClusterVersionProgressInsights(), o)
				return err
			},
		},
		{
			name:  "empty summary",
			field: "status.impact.summary",
			write: func(t *testing.T) error {
				o := healthInsight("empty-summary")
				o.Status.Impact.Summary = ""
				_, err := createWithStatus(t, c.UpdateHealthInsights(), o)
				return err
			},
		},
		{
			name:  "summary of two lines",
			field: "status.impact.summary",
			write: func(t *testing.T) error {
				o := healthInsight("two-line-summary")
				o.Status.Impact.Summary = "first line\nsecond line"
				_, err := createWithStatus(t, c.UpdateHealthInsights(), o)
				return err
			},
		},
		{
			name:  "summary over 256 characters",
			field: "status.impact.summary",
			write: func(t *testing.T) error {
				o := healthInsight("long-summary")
				o.Status.Impact.Summary = strings.Repeat("s", 257)
				_, err := createWithStatus(t, c.UpdateHealthInsights(), o)
				return err
			},
		},
		{
			name:  "health description over 32768 characters",
			field: "status.impact.description",
			write: func(t *testing.T) error {
				o := healthInsight("long-description")
				o.Status.Impact.Description = strings.Repeat("d", insightsv1alpha1.HealthDescriptionMaxLength+1)
				_, err := createWithStatus(t, c.UpdateHealthInsights(), o)
				return err
			},
		},
		{
			name:  "impact level outside its enum",
			field: "status.impact.level",
			write: func(t *testing.T) error {
				o := healthInsight("bad-level")
				o.Status.Impact.Level = "Catastrophic"
				_, err := createWithStatus(t, c.UpdateHealthInsights(), o)
				return err
			},
		},
		{
			name:  "impact type outside its enum",
			field: "status.impact.type",
			write: func(t *testing.T) error {
				o := healthInsight("bad-type")
				o.Status.Impact.Type = "Bad Vibes"
				_, err := createWithStatus(t, c.UpdateHealthInsights(), o)
				return err
			},
		},
		{
			name:  "reference that is not a URL",
			field: "status.remediation.reference",
			write: func(t *testing.T) error {
				o := healthInsight("bad-reference")
				o.Status.Remediation.Reference = "see the docs"
				_, err := createWithStatus(t, c.UpdateHealthInsights(), o)
				return err
			},
		},
		{
			name:  "scope type outside its enum",
			field: "status.scope.type",
			write: func(t *testing.T) error {
				o := healthInsight("bad-scope")
				o.Status.Scope.Type = "Everything"
				_, err := createWithStatus(t, c.UpdateHealthInsights(), o)
				return err
			},
		},
		{
			name:  "resource reference without a name",
			field: "status.scope.resources[0].name",
			write: func(t *testing.T) error {
				o := healthInsight("unnamed-resource")
				o.Status.Scope.Resources[0].Name = ""
				_, err := createWithStatus(t, c.UpdateHealthInsights(), o)
				return err
			},
		},
		{
			name:  "node message over 4096 characters",
			field: "status.message",
			write: func(t *testing.T) error {
				o := nodeInsight("long-message")
				o.Status.Message = strings.Repeat("m", insightsv1alpha1.NodeMessageMaxLength+1)
				_, err := createWithStatus(t, c.NodeProgressInsights(), o)
				return err
			},
		},
		{
			name:  "pool summary type outside its enum",
			field: "status.summaries[0].type",
			write: func(t *testing.T) error {
				o := poolInsight("bad-summary")
				o.Status.Summaries = []insightsv1alpha1.NodeSummary{{Type: "Happy", Count: 1}}
				_, err := createWithStatus(t, c.MachineConfigPoolProgressInsights(), o)
				return err
			},
		},
		{
			name:  "pool assessment outside its enum",
			field: "status.assessment",
			write: func(t *testing.T) error {
				o := poolInsight("bad-pool-assessment")
				o.Status.Assessment = "Unknown"
				_, err := createWithStatus(t, c.MachineConfigPoolProgressInsights(), o)
				return err
			},
		},
		{
			name:  "two conditions of one type",
			field: "status.conditions[2]",
			write: func(t *testing.T) error {
				o := clusterOperatorInsight("duplicate-condition")
				o.Status.Conditions = append(o.Status.Conditions, condition("Updating", metav1.ConditionTrue, "Progressing"))
				_, err := createWithStatus(t, c.ClusterOperatorProgressInsights(), o)
				return err
			},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.write(t)
			if !apierrors.IsInvalid(err) {
				t.Fatalf("want the server to reject it as invalid, got %v", err)
			}
			if !strings.Contains(err.Error(), tc.field) {
				t.Errorf("want the refusal to name %s, got: %v", tc.field, err)
			}
		})
	}
}
