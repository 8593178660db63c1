package integration

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

func serviceInformer(name string) *insightsv1alpha1.UpdateInformer {
	return &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{
			Service: &insightsv1alpha1.InformerServiceReference{Namespace: "openshift-machine-config-operator", Name: "mco-informer"},
		}},
	}
}

func urlInformer(name, url string) *insightsv1alpha1.UpdateInformer {
	return &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{URL: ptr.To(url)}},
	}
}

func updatePlan(name, target string) *insightsv1alpha1.UpdatePlan {
	return &insightsv1alpha1.UpdatePlan{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: insightsv1alpha1.UpdatePlanSpec{TargetRelease: target}}
}

// statusInsight is a status-level insight of the control plane.
func statusInsight(uid string) insightsv1alpha1.UpdateInsight {
	return insightsv1alpha1.UpdateInsight{
		UID:    uid,
		Scope:  insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane},
		Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.StatusInsightLevel, Summary: "Control plane updating"},
	}
}

// createAndDelete creates obj with create, and deletes it with del when the
// test ends.
func createAndDelete[T interface{ GetName() string }](t testing.TB, create func(context.Context, T, metav1.CreateOptions) (T, error),
	del func(context.Context, string, metav1.DeleteOptions) error, obj T) (T, error) {
	t.Helper()
	created, err := create(context.Background(), obj, metav1.CreateOptions{})
	if err == nil {
		t.Cleanup(func() {
			if err := del(context.Background(), obj.GetName(), metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("deleting %s: %v", obj.GetName(), err)
			}
		})
	}
	return created, err
}

func TestUpdateInformersAreValidatedAndDefaulted(t *testing.T) {
	c := insightsClient.InsightsV1alpha1().UpdateInformers()
	created, err := createAndDelete(t, c.Create, c.Delete, serviceInformer("mco"))
	if err != nil {
		t.Fatal(err)
	}
	want := insightsv1alpha1.UpdateInformerSpec{
		Enabled: ptr.To(true),
		ClientConfig: insightsv1alpha1.InformerClientConfig{Service: &insightsv1alpha1.InformerServiceReference{
			Namespace: "openshift-machine-config-operator", Name: "mco-informer", Port: ptr.To[int32](443),
		}},
	}
	if diff := cmp.Diff(want, created.Spec); diff != "" {
		t.Errorf("stored spec (-want +got):\n%s", diff)
	}
	if _, err := createAndDelete(t, c.Create, c.Delete, urlInformer("remote", "https://informer.example.com:8443/base")); err != nil {
		t.Errorf("an https URL was refused: %v", err)
	}

	both := serviceInformer("both")
	both.Spec.ClientConfig.URL = ptr.To("https://informer.example.com")
	badPath := serviceInformer("bad-path")
	badPath.Spec.ClientConfig.Service.Path = ptr.To("no-slash")
	badPort := serviceInformer("bad-port")
	badPort.Spec.ClientConfig.Service.Port = ptr.To[int32](70000)
	for _, tc := range []struct {
		name     string
		informer *insightsv1alpha1.UpdateInformer
		says     string
	}{
		{name: "both a service and a URL", informer: both, says: "exactly one of service and url must be set"},
		{name: "neither", informer: &insightsv1alpha1.UpdateInformer{ObjectMeta: metav1.ObjectMeta{Name: "neither"}}, says: "exactly one of service and url must be set"},
		{name: "plain http", informer: urlInformer("http", "http://informer.example.com"), says: "url must be an https URL with a host"},
		{name: "no URL at all", informer: urlInformer("garbage", "informer.example.com"), says: "url must be an https URL with a host"},
		{name: "user information", informer: urlInformer("userinfo", "https://admin:sekret@informer.example.com/hooks"), says: "url must hold no user information"},
		{name: "a query", informer: urlInformer("query", "https://informer.example.com/hooks?token=sekret"), says: "url must have no query or fragment"},
		{name: "an empty query", informer: urlInformer("empty-query", "https://informer.example.com/?"), says: "url must have no query or fragment"},
		{name: "a fragment", informer: urlInformer("fragment", "https://informer.example.com/#x"), says: "url must have no query or fragment"},
		{name: "a path that is not absolute", informer: badPath, says: "spec.clientConfig.service.path"},
		{name: "a port out of range", informer: badPort, says: "spec.clientConfig.service.port"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := createAndDelete(t, c.Create, c.Delete, tc.informer)
			if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("want a refusal that says %q, got %v", tc.says, err)
			}
		})
	}
}

func TestUpdateStatusIsASingletonWithBoundedInsights(t *testing.T) {
	c := insightsClient.InsightsV1alpha1().UpdateStatuses()
	if _, err := createAndDelete(t, c.Create, c.Delete, &insightsv1alpha1.UpdateStatus{ObjectMeta: metav1.ObjectMeta{Name: "another"}}); !apierrors.IsInvalid(err) ||
		!strings.Contains(err.Error(), "the UpdateStatus is a singleton named cluster") {
		t.Errorf("an UpdateStatus not named cluster: want a refusal, got %v", err)
	}

	// An operator of an earlier test may have left its UpdateStatus.
	if err := c.Delete(context.Background(), insightsv1alpha1.UpdateStatusName, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	status := &insightsv1alpha1.UpdateStatus{ObjectMeta: metav1.ObjectMeta{Name: insightsv1alpha1.UpdateStatusName}}
	created, err := createAndDelete(t, c.Create, c.Delete, status)
	if err != nil {
		t.Fatal(err)
	}
	insights := make([]insightsv1alpha1.UpdateInsight, 0, 129)
	for i := range 129 {
		insights = append(insights, statusInsight(fmt.Sprintf("insight-%d", i)))
	}
	created.Status.ControlPlane = insightsv1alpha1.ControlPlaneUpdateStatus{
		Conditions: []metav1.Condition{condition(insightsv1alpha1.UpdatePending, metav1.ConditionTrue, "ClusterVersionNotReconciled")},
		Informers:  []insightsv1alpha1.InformerInsights{{Name: "update-insights-operator", Insights: insights[:128]}},
	}
	created.Status.WorkerPools = []insightsv1alpha1.WorkerPoolUpdateStatus{{
		Resource: insightsv1alpha1.ResourceRef{Group: "machineconfiguration.openshift.io", Resource: "machineconfigpools", Name: "worker"},
		Informers: []insightsv1alpha1.InformerInsights{{Name: "update-insights-operator", Insights: []insightsv1alpha1.UpdateInsight{{
			UID:    "worker-0",
			Scope:  insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeWorkerPool, Resources: []insightsv1alpha1.InsightResource{{Kind: "Node", Name: "worker-0"}}},
			Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.StatusInsightLevel, Type: insightsv1alpha1.AwaitingWindowImpactType, Summary: "Awaiting the maintenance window"},
		}}}},
	}}
	stored, err := c.UpdateStatus(context.Background(), created, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("128 control plane insights of one informer and a pool's were refused: %v", err)
	}
	stored.Status.ControlPlane.Informers[0].Insights = insights
	if _, err := c.UpdateStatus(context.Background(), stored, metav1.UpdateOptions{}); !apierrors.IsInvalid(err) ||
		!strings.Contains(err.Error(), "an informer has at most 128 control plane insights") {
		t.Errorf("129 control plane insights of one informer: want a refusal, got %v", err)
	}
}

// The API server, not a controller's race, keeps one UpdatePlan per target
// release: a plan is named after its target, which does not change.
func TestUpdatePlansAreOnePerTargetRelease(t *testing.T) {
	c := insightsClient.InsightsV1alpha1().UpdatePlans()
	plan, err := createAndDelete(t, c.Create, c.Delete, updatePlan("4.16.0-ec.3", "4.16.0-ec.3"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := createAndDelete(t, c.Create, c.Delete, updatePlan("4.16.0-ec.3", "4.16.0-ec.3")); !apierrors.IsAlreadyExists(err) {
		t.Errorf("a second plan for the same target: want AlreadyExists, got %v", err)
	}
	if _, err := createAndDelete(t, c.Create, c.Delete, updatePlan("my-plan", "4.16.0-ec.3")); !apierrors.IsInvalid(err) ||
		!strings.Contains(err.Error(), "an UpdatePlan is named after its target release") {
		t.Errorf("a plan named otherwise: want a refusal, got %v", err)
	}
	plan.Spec.TargetRelease = "4.16.1"
	if _, err := c.Update(context.Background(), plan, metav1.UpdateOptions{}); !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "targetRelease is immutable") {
		t.Errorf("changing the target: want a refusal, got %v", err)
	}
}

// A plan's findings are stored with their identity and whether they are
// accepted, bounded as UpdateStatus' insights are.
func TestUpdatePlanFindingsAreStoredWithTheirAcceptance(t *testing.T) {
	c := insightsClient.InsightsV1alpha1().UpdatePlans()
	plan, err := createAndDelete(t, c.Create, c.Delete, updatePlan("4.17.2", "4.17.2"))
	if err != nil {
		t.Fatal(err)
	}
	findings := make([]insightsv1alpha1.UpdatePlanInsight, 0, 129)
	for i := range 129 {
		insight := statusInsight(fmt.Sprintf("finding-%d", i))
		findings = append(findings, insightsv1alpha1.UpdatePlanInsight{UpdateInsight: insight, Identity: "update-insights-operator/ControlPlane//" + insight.UID, Accepted: i%2 == 0})
	}
	evaluated := metav1.NewTime(time.Now().Truncate(time.Second))
	plan.Status = insightsv1alpha1.UpdatePlanStatus{
		EvaluatedAt:  &evaluated,
		ControlPlane: insightsv1alpha1.ControlPlanePlan{Informers: []insightsv1alpha1.InformerPlanInsights{{Name: "update-insights-operator", Insights: findings[:128]}}},
		WorkerPools: []insightsv1alpha1.WorkerPoolPlan{{
			Resource:  insightsv1alpha1.ResourceRef{Group: "machineconfiguration.openshift.io", Resource: "machineconfigpools", Name: "worker"},
			Informers: []insightsv1alpha1.InformerPlanInsights{{Name: "mco", Stale: true, Insights: findings[:1]}},
		}},
	}
	stored, err := c.UpdateStatus(context.Background(), plan, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("128 control plane findings of one informer were refused: %v", err)
	}
	if diff := cmp.Diff(plan.Status, stored.Status); diff != "" {
		t.Errorf("stored status (-written +stored):\n%s", diff)
	}

	stored.Status.ControlPlane.Informers[0].Insights = findings
	if _, err := c.UpdateStatus(context.Background(), stored, metav1.UpdateOptions{}); !apierrors.IsInvalid(err) ||
		!strings.Contains(err.Error(), "an informer has at most 128 control plane insights") {
		t.Errorf("129 control plane findings of one informer: want a refusal, got %v", err)
	}
	stored.Status.ControlPlane.Informers[0].Insights = []insightsv1alpha1.UpdatePlanInsight{{UpdateInsight: statusInsight("no-identity")}}
	if _, err := c.UpdateStatus(context.Background(), stored, metav1.UpdateOptions{}); !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "identity") {
		t.Errorf("a finding without an identity: want a refusal, got %v", err)
	}
}

// The operator keeps UpdateStatus/cluster current with its own insights, as
// the built-in informer's.
func TestUpdateStatusFollowsTheUpdate(t *testing.T) {
	c := insightsClient.InsightsV1alpha1().UpdateStatuses()
	t.Cleanup(func() {
		if err := c.Delete(context.Background(), insightsv1alpha1.UpdateStatusName, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Error(err)
		}
	})
	createClusterVersion(t, nil, midUpdateStatus())
	startOperator(t)

	active := func(s *insightsv1alpha1.UpdateStatus) string {
		if a := meta.FindStatusCondition(s.Status.ControlPlane.Conditions, insightsv1alpha1.UpdateActive); a != nil {
			return a.Reason
		}
		return ""
	}
	get := func(ctx context.Context) (*insightsv1alpha1.UpdateStatus, error) {
		s, err := c.Get(ctx, insightsv1alpha1.UpdateStatusName, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return s, err
	}
	s := waitFor(t, eventually, "UpdateStatus updating, with the operator's control plane progress", get, func(s *insightsv1alpha1.UpdateStatus) bool {
		if s == nil || active(s) != "Updating" || len(s.Status.ControlPlane.Informers) != 1 {
			return false
		}
		builtin := s.Status.ControlPlane.Informers[0]
		return builtin.Name == "update-insights-operator" && slices.ContainsFunc(builtin.Insights, func(i insightsv1alpha1.UpdateInsight) bool {
			return i.UID == "controlplane/version" && i.Impact.Level == insightsv1alpha1.StatusInsightLevel
		})
	})
	t.Logf("control plane: %+v", s.Status.ControlPlane.Conditions)

	setClusterVersionStatus(t, getClusterVersion(t), completedStatus())
	waitFor(t, eventually, "UpdateStatus completed", get, func(s *insightsv1alpha1.UpdateStatus) bool {
		return s != nil && active(s) == "Completed"
	})
}
