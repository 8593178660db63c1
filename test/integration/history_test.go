package integration

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/historyview"
)

// reader is a user bound to nothing but the payload's reader role, as a
// read-only administrator is through cluster-reader.
const reader = "jane-reader"

// bindReader creates the payload's reader role and binds reader to it.
func bindReader(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	for _, m := range manifestObjects(t, "../../manifests/0000_50_update-insights-operator_03_clusterrole-reader.yaml") {
		if _, err := m.resource.Create(ctx, m.obj, metav1.CreateOptions{}); err != nil {
			t.Fatalf("%s: %v", m.file, err)
		}
		t.Cleanup(func() {
			if err := m.resource.Delete(context.Background(), m.obj.GetName(), metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Error(err)
			}
		})
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: reader},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "update-insights-reader"},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: reader}},
	}
	if _, err := kubeClient.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := kubeClient.RbacV1().ClusterRoleBindings().Delete(context.Background(), reader, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Error(err)
		}
	})
}

// history runs `history args...` as user.
func history(user string, args ...string) (string, error) {
	out, err := exec.Command(operatorBinary, append([]string{"history", "--kubeconfig", kubeconfigPath, "--as", user}, args...)...).CombinedOutput()
	return string(out), err
}

// A ClusterOperator degraded during an update is a stall of its record,
// ended when the degradation clears; once the update completes, a
// read-only administrator lists it and reads its postmortem, and a user
// without the reader role is refused.
func TestHistoryTellsARecordedUpdateToAReader(t *testing.T) {
	recordFromScratch(t)
	createClusterOperators(t, map[string]string{"etcd": fromVersion, "dns": fromVersion})
	createClusterVersion(t, nil, midUpdateStatus())
	startOperator(t)
	bindReader(t)

	dns := getOperator(t, "dns").DeepCopy()
	dns.Status.Conditions = append(dns.Status.Conditions, configv1.ClusterOperatorStatusCondition{
		Type: configv1.OperatorDegraded, Status: configv1.ConditionTrue, Reason: "DNSDegraded", Message: "DNS default is degraded",
		// Degraded for 6 minutes: a Warning from 5 (pkg/health, degradedWarningAfter).
		LastTransitionTime: metav1.NewTime(time.Now().Add(-6 * time.Minute).Truncate(time.Second)),
	})
	dns, err := configClient.ConfigV1().ClusterOperators().UpdateStatus(context.Background(), dns, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stallOf := func(r *insightsv1alpha1.UpdateRecord) *insightsv1alpha1.UpdateStall {
		for i := range r.Status.Stalls {
			if strings.Contains(r.Status.Stalls[i].Summary, "Cluster Operator dns is degraded (DNSDegraded)") {
				return &r.Status.Stalls[i]
			}
		}
		return nil
	}
	waitForRecord(t, "with dns degraded as a stall", func(r *insightsv1alpha1.UpdateRecord) bool {
		return r != nil && stallOf(r) != nil && stallOf(r).EndedAt == nil
	})

	dns.Status.Conditions = nil
	if _, err := configClient.ConfigV1().ClusterOperators().UpdateStatus(context.Background(), dns, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	setOperatorVersion(t, getOperator(t, "dns"), toVersion)
	setOperatorVersion(t, getOperator(t, "etcd"), toVersion)
	ended := waitForRecord(t, "with the stall ended", func(r *insightsv1alpha1.UpdateRecord) bool {
		return stallOf(r) != nil && stallOf(r).EndedAt != nil
	})
	if s := stallOf(ended); s.Level != insightsv1alpha1.WarningImpactLevel || s.StartedAt == nil || s.EndNotObserved {
		t.Errorf("the stall %+v: want a Warning, as a degraded ClusterOperator's insight is, dated by the Degraded condition, its end observed", s)
	}

	completed := midUpdateStatus()
	completed.History[0].State = configv1.CompletedUpdate
	completed.History[0].CompletionTime = &metav1.Time{Time: updateStarted.Add(72 * time.Minute)}
	completed.Conditions[0] = configv1.ClusterOperatorStatusCondition{Type: configv1.OperatorProgressing, Status: configv1.ConditionFalse,
		Message: "Cluster version is " + toVersion, LastTransitionTime: *completed.History[0].CompletionTime}
	setClusterVersionStatus(t, getClusterVersion(t), completed)
	waitForRecord(t, "Completed", func(r *insightsv1alpha1.UpdateRecord) bool {
		return r.Status.State == insightsv1alpha1.UpdateRecordCompleted
	})

	list, err := history(reader)
	if err != nil {
		t.Fatalf("history as %s: %v\n%s", reader, err, list)
	}
	lines := strings.Split(strings.TrimSpace(list), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], toVersion+" ") || !strings.Contains(lines[1], "Completed (partly observed)") ||
		!strings.Contains(lines[1], "1h12m") || !strings.Contains(lines[1], " 1 (") {
		t.Errorf("history as %s, want its one update to %s, completed in 1h12m with one stall:\n%s", reader, toVersion, list)
	}
	postmortem, err := history(reader, toVersion)
	if err != nil {
		t.Fatalf("history %s: %v\n%s", toVersion, err, postmortem)
	}
	for _, want := range []string{"= Update to " + toVersion + " from " + fromVersion + " =", "Control Plane:  completed at",
		"Warning  ", "Cluster Operator dns is degraded (DNSDegraded)", "Not Observed:"} {
		if !strings.Contains(postmortem, want) {
			t.Errorf("the postmortem lacks %q:\n%s", want, postmortem)
		}
	}
	out, err := history(reader, toVersion, "-o", "json")
	if err != nil {
		t.Fatalf("history -o json: %v\n%s", err, out)
	}
	var p historyview.Postmortem
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("history -o json is not a postmortem: %v\n%s", err, out)
	}
	if p.Update.To != toVersion || len(p.Stalls) != 1 || p.Update.ControlPlane.Duration != 72*time.Minute {
		t.Errorf("history -o json: to %s, %d stalls, control plane %s; want %s, 1, 1h12m", p.Update.To, len(p.Stalls), p.Update.ControlPlane.Duration, toVersion)
	}

	if out, err := history("someone-else"); err == nil || !strings.Contains(out, "forbidden") {
		t.Errorf("history as a user without the reader role: %v, want refused as forbidden:\n%s", err, out)
	}
}
