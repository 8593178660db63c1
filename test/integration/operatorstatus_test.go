package integration

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/operatorstatus"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

const clusterOperatorManifest = "../../manifests/0000_50_update-insights-operator_10_clusteroperator.yaml"

// createOwnClusterOperatorOutsideThePayload gives the test cluster the
// operator's ClusterOperator without the payload's annotations, as if the
// operator had been installed some other way. The other tests build small
// payloads and count their operators; this keeps the operator's own
// ClusterOperator out of those counts.
func createOwnClusterOperatorOutsideThePayload(ctx context.Context) error {
	co := &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{Name: names.OwnClusterOperator}}
	_, err := configClient.ConfigV1().ClusterOperators().Create(ctx, co, metav1.CreateOptions{})
	return err
}

// resetOwnClusterOperator replaces the operator's ClusterOperator with a new
// one outside the payload, with no status.
func resetOwnClusterOperator(ctx context.Context) error {
	if err := configClient.ConfigV1().ClusterOperators().Delete(ctx, names.OwnClusterOperator, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	return createOwnClusterOperatorOutsideThePayload(ctx)
}

// restoreOwnClusterOperatorWhenDone puts the operator's ClusterOperator back
// as the other tests expect it. Register it before starting the operator, so
// that it runs after the operator has stopped and cannot recreate it.
func restoreOwnClusterOperatorWhenDone(t *testing.T) {
	t.Cleanup(func() {
		if err := resetOwnClusterOperator(context.Background()); err != nil {
			t.Errorf("restoring ClusterOperator %s: %v", names.OwnClusterOperator, err)
		}
	})
}

// precreateOwnClusterOperator creates the ClusterOperator as the
// cluster-version operator does before the operator runs: the manifest's
// metadata, and of its status only the related objects. It adds a label and
// a condition of its own, which the operator must leave alone.
func precreateOwnClusterOperator(t *testing.T) *configv1.ClusterOperator {
	t.Helper()
	ctx := context.Background()
	raw, err := os.ReadFile(clusterOperatorManifest)
	if err != nil {
		t.Fatal(err)
	}
	var manifest configv1.ClusterOperator
	if err := yaml.UnmarshalStrict(raw, &manifest); err != nil {
		t.Fatalf("decoding %s: %v", clusterOperatorManifest, err)
	}
	if err := configClient.ConfigV1().ClusterOperators().Delete(ctx, manifest.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	co := &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{
		Name:        manifest.Name,
		Annotations: manifest.Annotations,
		Labels:      map[string]string{"precreated-by": "cluster-version-operator"},
	}}
	created, err := configClient.ConfigV1().ClusterOperators().Create(ctx, co, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	created.Status.RelatedObjects = manifest.Status.RelatedObjects
	created.Status.Conditions = []configv1.ClusterOperatorStatusCondition{
		{Type: "EvaluationConditionsDetected", Status: configv1.ConditionFalse, Reason: "NoData", LastTransitionTime: metav1.NewTime(time.Now().Add(-time.Hour).Truncate(time.Second))},
	}
	updated, err := configClient.ConfigV1().ClusterOperators().UpdateStatus(ctx, created, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return updated
}

// waitForOwnClusterOperator waits until the operator's ClusterOperator
// satisfies ok.
func waitForOwnClusterOperator(t testing.TB, timeout time.Duration, what string, ok func(*configv1.ClusterOperator) bool) *configv1.ClusterOperator {
	t.Helper()
	return waitFor(t, timeout, "ClusterOperator "+names.OwnClusterOperator+" to be "+what, func(ctx context.Context) (*configv1.ClusterOperator, error) {
		return configClient.ConfigV1().ClusterOperators().Get(ctx, names.OwnClusterOperator, metav1.GetOptions{})
	}, ok)
}

// conditionsAre says whether co has each condition type at the given status.
func conditionsAre(co *configv1.ClusterOperator, want map[configv1.ClusterStatusConditionType]configv1.ConditionStatus) bool {
	if co == nil {
		return false
	}
	for conditionType, status := range want {
		if !v1helpers.IsStatusConditionPresentAndEqual(co.Status.Conditions, conditionType, status) {
			return false
		}
	}
	return true
}

var healthyConditions = map[configv1.ClusterStatusConditionType]configv1.ConditionStatus{
	configv1.OperatorAvailable:   configv1.ConditionTrue,
	configv1.OperatorProgressing: configv1.ConditionFalse,
	configv1.OperatorDegraded:    configv1.ConditionFalse,
	configv1.OperatorUpgradeable: configv1.ConditionTrue,
}

func TestOperatorReportsItselfInItsClusterOperator(t *testing.T) {
	const releaseVersion = "4.99.0-integration"
	t.Setenv("RELEASE_VERSION", releaseVersion)
	restoreOwnClusterOperatorWhenDone(t)
	precreated := precreateOwnClusterOperator(t)
	startOperator(t)

	wantVersions := []configv1.OperandVersion{{Name: names.OperatorVersion, Version: releaseVersion}}
	co := waitForOwnClusterOperator(t, eventually, "healthy at "+releaseVersion, func(co *configv1.ClusterOperator) bool {
		return conditionsAre(co, healthyConditions) && cmp.Equal(co.Status.Versions, wantVersions)
	})
	if diff := cmp.Diff(operatorstatus.RelatedObjects(operatorNamespace, false), co.Status.RelatedObjects); diff != "" {
		t.Errorf("related objects (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(precreated.ObjectMeta.Labels, co.Labels); diff != "" {
		t.Errorf("the operator changed the labels the cluster-version operator set (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(precreated.ObjectMeta.Annotations, co.Annotations); diff != "" {
		t.Errorf("the operator changed the annotations (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(precreated.Status.Conditions[0], *v1helpers.FindStatusCondition(co.Status.Conditions, "EvaluationConditionsDetected")); diff != "" {
		t.Errorf("the operator changed a condition that is not its own (-want +got):\n%s", diff)
	}

	t.Log("deleting the ClusterOperator")
	if err := configClient.ConfigV1().ClusterOperators().Delete(context.Background(), co.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	recreated := waitForOwnClusterOperator(t, eventually, "recreated and healthy", func(c *configv1.ClusterOperator) bool {
		return c != nil && c.UID != co.UID && conditionsAre(c, healthyConditions) && cmp.Equal(c.Status.Versions, wantVersions)
	})
	if diff := cmp.Diff(precreated.ObjectMeta.Annotations, recreated.Annotations); diff != "" {
		t.Errorf("the recreated ClusterOperator's annotations are not the manifest's (-want +got):\n%s", diff)
	}
}

// The ClusterOperator relates the ConsolePlugin once the ClusterVersion
// enables the Console capability, as the cluster-version operator writes it
// when an administrator enables a capability after the install.
func TestOperatorRelatesTheConsolePluginWithTheConsoleCapability(t *testing.T) {
	restoreOwnClusterOperatorWhenDone(t)
	precreateOwnClusterOperator(t)
	capabilities := func(enabled ...configv1.ClusterVersionCapability) configv1.ClusterVersionStatus {
		status := midUpdateStatus()
		status.Capabilities = configv1.ClusterVersionCapabilitiesStatus{
			EnabledCapabilities: enabled,
			KnownCapabilities:   []configv1.ClusterVersionCapability{configv1.ClusterVersionCapabilityConsole, configv1.ClusterVersionCapabilityIngress},
		}
		return status
	}
	createClusterVersion(t, nil, capabilities(configv1.ClusterVersionCapabilityIngress))
	startOperator(t)

	for _, step := range []struct {
		name    string
		enabled []configv1.ClusterVersionCapability
		want    []configv1.ObjectReference
	}{
		{"without the Console capability", nil, operatorstatus.RelatedObjects(operatorNamespace, false)},
		{"with the Console capability", []configv1.ClusterVersionCapability{configv1.ClusterVersionCapabilityConsole, configv1.ClusterVersionCapabilityIngress},
			append(operatorstatus.RelatedObjects(operatorNamespace, false),
				configv1.ObjectReference{Group: "console.openshift.io", Resource: "consoleplugins", Name: "update-insights-console-plugin"})},
	} {
		if step.enabled != nil {
			setClusterVersionStatus(t, getClusterVersion(t), capabilities(step.enabled...))
		}
		co := waitForOwnClusterOperator(t, eventually, "healthy and relating its objects "+step.name, func(co *configv1.ClusterOperator) bool {
			return conditionsAre(co, healthyConditions) && cmp.Equal(co.Status.RelatedObjects, step.want)
		})
		if diff := cmp.Diff(step.want, co.Status.RelatedObjects); diff != "" {
			t.Errorf("%s, related objects (-want +got):\n%s", step.name, diff)
		}
	}
}

// denyClusterVersionInsightWrites makes the API server refuse the operator's
// writes of ClusterVersion insights, until the returned function is called.
// It returns once the policy is in force.
func denyClusterVersionInsightWrites(t *testing.T) (allow func()) {
	t.Helper()
	ctx := context.Background()
	policies := kubeClient.AdmissionregistrationV1().ValidatingAdmissionPolicies()
	bindings := kubeClient.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings()
	const name = "deny-operator-cluster-version-insight-writes"
	fail := admissionregistrationv1.Fail
	policy := &admissionregistrationv1.ValidatingAdmissionPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			FailurePolicy: &fail,
			MatchConstraints: &admissionregistrationv1.MatchResources{ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{
				RuleWithOperations: admissionregistrationv1.RuleWithOperations{
					Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
					Rule: admissionregistrationv1.Rule{
						APIGroups:   []string{insightsv1alpha1.GroupName},
						APIVersions: []string{"*"},
						Resources:   []string{"clusterversionprogressinsights", "clusterversionprogressinsights/status"},
					},
				},
			}}},
			MatchConditions: []admissionregistrationv1.MatchCondition{{
				Name:       "the-operator",
				Expression: fmt.Sprintf("request.userInfo.username == %q", operatorUser),
			}},
			Validations: []admissionregistrationv1.Validation{{Expression: "false", Message: "denied by the integration test"}},
		},
	}
	if _, err := policies.Create(ctx, policy, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	binding := &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{PolicyName: name, ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny}},
	}
	if _, err := bindings.Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	removed := false
	allow = func() {
		if removed {
			return
		}
		removed = true
		for _, err := range []error{bindings.Delete(ctx, name, metav1.DeleteOptions{}), policies.Delete(ctx, name, metav1.DeleteOptions{})} {
			if err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("removing the admission policy: %v", err)
			}
		}
		waitForOperatorWrites(t, true)
	}
	t.Cleanup(allow)
	waitForOperatorWrites(t, false)
	return allow
}

// waitForOperatorWrites waits until a dry-run write of a ClusterVersion
// insight, as the operator's user, is accepted or refused: admission
// policies take effect a moment after they are written.
func waitForOperatorWrites(t *testing.T, accepted bool) {
	t.Helper()
	cfg := rest.CopyConfig(testEnv.Config)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: operatorUser, Groups: []string{"system:masters"}}
	client, err := insightsclient.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	probe := clusterVersionInsight("admission-probe")
	err = wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
		_, err := client.InsightsV1alpha1().ClusterVersionProgressInsights().Create(ctx, probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil && !apierrors.IsForbidden(err) && !apierrors.IsInvalid(err) {
			return false, err
		}
		return (err == nil) == accepted, nil
	})
	if err != nil {
		t.Fatalf("waiting for the operator's writes to be accepted=%t: %v", accepted, err)
	}
}

var sinceInMessage = regexp.MustCompile(`since (\S+Z)`)

// A write the API server refuses is retried, and degrades the operator only
// once it has been refused for the grace period; once accepted again, the
// operator is no longer degraded.
func TestRejectedWritesDegradeTheOperatorAfterTheGracePeriod(t *testing.T) {
	const grace = 5 * time.Second
	allow := denyClusterVersionInsightWrites(t)
	createClusterOperators(t, map[string]string{"etcd": toVersion, "dns": fromVersion})
	createClusterVersion(t, nil, midUpdateStatus())
	startOperator(t, fmt.Sprintf("--degraded-grace-period=%s", grace))

	co := waitForOwnClusterOperator(t, eventually, "Degraded by rejected writes", func(co *configv1.ClusterOperator) bool {
		return conditionsAre(co, map[configv1.ClusterStatusConditionType]configv1.ConditionStatus{
			configv1.OperatorDegraded:  configv1.ConditionTrue,
			configv1.OperatorAvailable: configv1.ConditionTrue,
		})
	})
	degraded := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorDegraded)
	if degraded.Reason != "ClusterVersionWriteRejected" {
		t.Errorf("Degraded reason %q, want ClusterVersionWriteRejected", degraded.Reason)
	}
	if !regexp.MustCompile(`^ClusterVersion controller: .*denied by the integration test`).MatchString(degraded.Message) {
		t.Errorf("Degraded message %q does not say which controller saw what", degraded.Message)
	}
	match := sinceInMessage.FindStringSubmatch(degraded.Message)
	if match == nil {
		t.Fatalf("Degraded message %q does not say since when", degraded.Message)
	}
	since, err := time.Parse(time.RFC3339, match[1])
	if err != nil {
		t.Fatal(err)
	}
	lasted := degraded.LastTransitionTime.Sub(since)
	if lasted < grace-time.Second {
		t.Errorf("Degraded %s after the first rejection, want at least the %s grace period", lasted, grace)
	}
	t.Logf("Degraded %s after the first rejected write (grace period %s; both times are whole seconds)", lasted, grace)

	allow()
	allowed := time.Now()
	// The next retry may be some seconds away on the workqueue's backoff; a
	// change of the ClusterVersion, as any real fix would bring, syncs now.
	cv := getClusterVersion(t)
	cv.Annotations = map[string]string{"touched": "yes"}
	if _, err := configClient.ConfigV1().ClusterVersions().Update(context.Background(), cv, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitForOwnClusterOperator(t, eventually, "no longer Degraded", func(co *configv1.ClusterOperator) bool {
		return conditionsAre(co, healthyConditions)
	})
	t.Logf("no longer Degraded %s after the writes were accepted again", time.Since(allowed).Round(time.Millisecond))
	waitForInsight(t, eventually, "written", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool { return i != nil })
}
