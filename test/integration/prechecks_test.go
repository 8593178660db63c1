package integration

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/planview"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

const (
	riskIdentity = "update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/risk/OVNHang"
	etcdIdentity = "mco/ControlPlane//slow-etcd"
)

// offeringStatus runs 4.17.1, and is offered 4.17.3 as a conditional
// update with the risk OVNHang.
func offeringStatus() configv1.ClusterVersionStatus {
	started := metav1.NewTime(time.Now().Add(-48 * time.Hour))
	return configv1.ClusterVersionStatus{
		Desired: configv1.Release{Version: "4.17.1", Image: "example.com/release@sha256:1"},
		History: []configv1.UpdateHistory{{State: configv1.CompletedUpdate, Version: "4.17.1", Image: "example.com/release@sha256:1",
			StartedTime: started, CompletionTime: &started, Verified: true}},
		ObservedGeneration: 1,
		VersionHash:        "hash",
		AvailableUpdates:   []configv1.Release{{Version: "4.17.2", Image: "example.com/release@sha256:2"}},
		ConditionalUpdates: []configv1.ConditionalUpdate{{
			Release:    configv1.Release{Version: "4.17.3", Image: "example.com/release@sha256:3"},
			Risks:      []configv1.ConditionalUpdateRisk{{Name: "OVNHang", URL: "https://example.com/ovn", Message: "OVN may hang.", MatchingRules: []configv1.ClusterCondition{{Type: "Always"}}}},
			Conditions: []metav1.Condition{{Type: "Recommended", Status: metav1.ConditionFalse, Reason: "OVNHang", Message: "OVN may hang.", LastTransitionTime: started}},
		}},
	}
}

// playPlanController evaluates the UpdatePlan for target as the operator's
// controller would, until the test ends: at each new evaluation request, and
// when the plan accepts other findings, it writes the status computed from
// the operator's risk finding and an informer's.
func playPlanController(t *testing.T, target string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() { cancel(); <-done })
	answers := []updatestatus.Answer{
		{Informer: updatestatus.BuiltinInformer, Insights: []insightsv1alpha1.UpdateInsight{{
			UID: "risk/OVNHang",
			Scope: insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane,
				Resources: []insightsv1alpha1.InsightResource{{Group: "config.openshift.io", Kind: "ClusterVersion", Name: "version"}}},
			Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.ErrorInsightLevel, Summary: "Conditional update risk OVNHang applies to the update to 4.17.3: OVN may hang."},
		}, {
			UID:    "duration",
			Scope:  insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane},
			Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.StatusInsightLevel, Summary: "The update to 4.17.3 should take about 1h10m"},
		}}},
		{Informer: "mco", Insights: []insightsv1alpha1.UpdateInsight{{
			UID:    "slow-etcd",
			Scope:  insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane},
			Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.WarningInsightLevel, Summary: "etcd is slow to write"},
		}}},
	}
	plans := insightsClient.InsightsV1alpha1().UpdatePlans()
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			time.Sleep(100 * time.Millisecond)
			plan, err := plans.Get(ctx, target, metav1.GetOptions{})
			if err != nil {
				continue
			}
			now := time.Now()
			status := updateplan.Compute(updateplan.Input{Plan: plan, Answers: answers, Expected: []string{"mco"},
				EvaluatedAt: now, Observed: plan.Spec.EvaluationRequest, Now: now})
			next := plan.DeepCopy()
			next.Status = status
			if plan.Status.ObservedEvaluationRequest == status.ObservedEvaluationRequest &&
				slices.EqualFunc(planview.Unaccepted(planview.Findings(plan)), planview.Unaccepted(planview.Findings(next)),
					func(a, b planview.Finding) bool { return a.Identity == b.Identity }) {
				continue
			}
			if _, err := plans.UpdateStatus(ctx, next, metav1.UpdateOptions{}); err != nil && ctx.Err() == nil && !apierrors.IsConflict(err) {
				t.Errorf("writing the plan's status: %v", err)
			}
		}
	}()
}

// command runs the binary's command against the test API server, and
// returns its stdout, its stderr and its exit status.
func command(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return commandWith(t, kubeconfigPath, args...)
}

// commandWith runs the binary's command with this kubeconfig, as the user
// it names.
func commandWith(t *testing.T, kubeconfig string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(operatorBinary, append(args, "--kubeconfig", kubeconfig)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.String(), errOut.String(), 0
	case errors.As(err, &exit):
		return out.String(), errOut.String(), exit.ExitCode()
	}
	t.Fatalf("running %v: %v", args, err)
	return "", "", 0
}

func deletePlanAtEnd(t *testing.T, name string) {
	t.Cleanup(func() {
		err := insightsClient.InsightsV1alpha1().UpdatePlans().Delete(context.Background(), name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting UpdatePlan %s: %v", name, err)
		}
	})
}

// TestPreChecksAcceptanceRoundTrip: the findings are printed and refuse the
// update until accepted; accepting them is recorded in the plan, which the
// controller reflects, and then the command exits 0.
func TestPreChecksAcceptanceRoundTrip(t *testing.T) {
	createClusterVersion(t, nil, offeringStatus())
	deletePlanAtEnd(t, "4.17.3")
	playPlanController(t, "4.17.3")

	out, errOut, code := command(t, "pre-checks", "--to", "4.17.3")
	if code != 1 || !strings.Contains(out, "Error     OVNHang     update-insights-operator   No         Conditional update risk OVNHang") ||
		!strings.Contains(out, "Status:     The update to 4.17.3 should take about 1h10m (update-insights-operator)") ||
		!strings.HasSuffix(errOut, "error: the update to 4.17.3 is not ready: not accepted: OVNHang, slow-etcd\n") {
		t.Errorf("pre-checks: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	t.Logf("pre-checks --to 4.17.3 (exit %d):\n%s%s", code, out, errOut)

	out, _, code = command(t, "pre-checks", "--to", "4.17.3", "--quiet")
	if diff := cmp.Diff(riskIdentity+"\n"+etcdIdentity+"\n", out); code != 1 || diff != "" {
		t.Errorf("pre-checks --quiet: exit %d, stdout (-want +got):\n%s", code, diff)
	}

	_, errOut, code = command(t, "pre-checks", "--to", "4.17.3", "--accept", riskIdentity+",mco/ControlPlane//typo")
	if code != 1 || !strings.Contains(errOut, "error: nothing accepted in UpdatePlan 4.17.3: not among the plan's findings: mco/ControlPlane//typo") {
		t.Errorf("accepting an unknown identity: exit %d, stderr:\n%s", code, errOut)
	}

	// Accepted by the risk's short name, as the table prints it: the spec
	// records its identity.
	out, errOut, code = command(t, "pre-checks", "--to", "4.17.3", "--accept", "OVNHang", "--accept-all-of", "mco")
	if code != 0 || !strings.Contains(out, "Accepted:   True (AllAccepted) All 2 findings are accepted.") {
		t.Errorf("accepting: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	t.Logf("pre-checks --accept (exit %d):\n%s%s", code, out, errOut)
	plan, err := insightsClient.InsightsV1alpha1().UpdatePlans().Get(context.Background(), "4.17.3", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []insightsv1alpha1.AcceptedInsight{
		{UpdateInformer: updatestatus.BuiltinInformer, UID: riskIdentity, Accepted: true},
		{UpdateInformer: "mco", UID: etcdIdentity, Accepted: true},
	}
	if diff := cmp.Diff(want, plan.Spec.AcceptedInsights); diff != "" {
		t.Errorf("accepted insights (-want +got):\n%s", diff)
	}

	// A fresh evaluation keeps what was accepted.
	if out, errOut, code = command(t, "pre-checks", "--to", "4.17.3"); code != 0 {
		t.Errorf("pre-checks after accepting: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// TestUpgradeRefusedThenAllowed: upgrade refuses until the plan is
// accepted, a dry run writes nothing, and the update then sets the
// ClusterVersion's desiredUpdate as oc does.
func TestUpgradeRefusedThenAllowed(t *testing.T) {
	createClusterVersion(t, nil, offeringStatus())
	deletePlanAtEnd(t, "4.17.3")
	playPlanController(t, "4.17.3")

	_, errOut, code := command(t, "upgrade", "--to", "4.17.3")
	if code != 1 || errOut != "error: refusing to update to 4.17.3: it has no UpdatePlan; run pre-checks --to 4.17.3 first\n" {
		t.Errorf("upgrade without a plan: exit %d, stderr:\n%s", code, errOut)
	}
	if _, _, code = command(t, "pre-checks", "--to", "4.17.3"); code != 1 {
		t.Errorf("pre-checks: exit %d, want 1", code)
	}
	_, errOut, code = command(t, "upgrade", "--to", "4.17.3")
	if code != 1 || errOut != "error: refusing to update to 4.17.3: not accepted: OVNHang, slow-etcd\n" {
		t.Errorf("upgrade of an unaccepted plan: exit %d, stderr:\n%s", code, errOut)
	}
	if _, _, code = command(t, "pre-checks", "--to", "4.17.3", "--accept-all-of", "update-insights-operator,mco"); code != 0 {
		t.Errorf("accepting: exit %d", code)
	}

	out, errOut, code := command(t, "upgrade", "--to", "4.17.3", "--dry-run")
	if code != 0 || !strings.Contains(out, "image: example.com/release@sha256:3\n  version: 4.17.3\n") {
		t.Errorf("dry run: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	t.Logf("upgrade --dry-run (exit %d):\n%s%s", code, out, errOut)
	if u := getClusterVersion(t).Spec.DesiredUpdate; u != nil {
		t.Errorf("a dry run wrote the desiredUpdate %+v", u)
	}

	out, errOut, code = command(t, "upgrade", "--to", "4.17.3")
	if code != 0 || out != "Requested update to 4.17.3\n" {
		t.Errorf("upgrade: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	t.Logf("upgrade (exit %d):\n%s%s", code, out, errOut)
	// The test API server's ClusterVersion is the Default feature set's,
	// without acceptRisks: the risk is not recorded there, and it says so.
	if !strings.Contains(errOut, "warning: this cluster's ClusterVersion has no spec.desiredUpdate.acceptRisks, so the risks accepted in the UpdatePlan (OVNHang) are not recorded there") {
		t.Errorf("no warning that acceptRisks was left out:\n%s", errOut)
	}
	got := getClusterVersion(t).Spec.DesiredUpdate
	if diff := cmp.Diff(&configv1.Update{Version: "4.17.3", Image: "example.com/release@sha256:3"}, got); diff != "" {
		t.Errorf("desiredUpdate (-want +got):\n%s", diff)
	}
}

// TestPreChecksAndUpgradeAgainstTheOperator: the administrator's flow, with
// the operator's UpdatePlan controller evaluating the plan and an informer
// that handles plans: pre-checks lists the operator's conditional-update
// risk, its alert checks that did not run (the operator reads no alerts)
// and the informer's finding as not accepted, accepting them lets it
// pass, and upgrade then starts the update.
func TestPreChecksAndUpgradeAgainstTheOperator(t *testing.T) {
	// A cluster-version operator says whether the cluster is failing; the
	// operator's pre-checks warn of a ClusterVersion that does not.
	status := offeringStatus()
	status.Conditions = []configv1.ClusterOperatorStatusCondition{{Type: "Failing", Status: configv1.ConditionFalse, LastTransitionTime: status.History[0].StartedTime}}
	createClusterVersion(t, nil, status)
	deletePlanAtEnd(t, "4.17.3")
	startPlanInformer(t, "mco", 10*time.Second, 0, "slow-etcd")
	startOperator(t, informerInterval)
	waitFor(t, eventually, "mco discovered as handling plans", getInformer("mco"), func(i *insightsv1alpha1.UpdateInformer) bool {
		return i != nil && slices.ContainsFunc(i.Status.Handlers, func(h insightsv1alpha1.InformerHandler) bool { return h.Name == insightsv1alpha1.PlanHandler })
	})

	out, errOut, code := command(t, "pre-checks", "--to", "4.17.3", "--timeout", "30s")
	t.Logf("pre-checks --to 4.17.3 (exit %d):\n%s%s", code, out, errOut)
	if code != 1 || !strings.Contains(out, "Conditional update risk OVNHang") || !strings.Contains(out, "mco found slow-etcd for 4.17.3") ||
		!strings.Contains(out, "Answered:   True (AllAnswered)") ||
		!strings.HasSuffix(errOut, "error: the update to 4.17.3 is not ready: not accepted: OVNHang, slow-etcd, alerts-unchecked\n") {
		t.Errorf("pre-checks: exit %d, want 1 with the findings not accepted, the alert checks that did not run among them", code)
	}

	out, errOut, code = command(t, "pre-checks", "--to", "4.17.3", "--timeout", "30s", "--accept", riskIdentity+","+alertsUncheckedIdentity, "--accept-all-of", "mco")
	t.Logf("pre-checks --accept (exit %d):\n%s%s", code, out, errOut)
	if code != 0 || !strings.Contains(out, "Accepted:   True (AllAccepted) All 3 findings are accepted.") {
		t.Errorf("accepting: exit %d, want 0 with every finding accepted", code)
	}

	out, errOut, code = command(t, "upgrade", "--to", "4.17.3")
	t.Logf("upgrade --to 4.17.3 (exit %d):\n%s%s", code, out, errOut)
	if code != 0 || out != "Requested update to 4.17.3\n" {
		t.Errorf("upgrade: exit %d, want 0", code)
	}
	got := getClusterVersion(t).Spec.DesiredUpdate
	if diff := cmp.Diff(&configv1.Update{Version: "4.17.3", Image: "example.com/release@sha256:3"}, got); diff != "" {
		t.Errorf("desiredUpdate (-want +got):\n%s", diff)
	}
}
