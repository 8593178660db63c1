package integration

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// offers is how the commands name what offeringStatus offers.
const offers = "The cluster is offered 4.17.2 (recommended), 4.17.3 (not recommended: OVNHang)."

// planExists says whether the UpdatePlan of that name exists.
func planExists(t *testing.T, name string) bool {
	t.Helper()
	_, err := insightsClient.InsightsV1alpha1().UpdatePlans().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	return err == nil
}

// TestATargetThatIsNotAVersion: a target that is not a release version, as
// oc's `adm upgrade --to` parses it, is refused by both commands before they
// write anything, with the releases the cluster is offered.
func TestATargetThatIsNotAVersion(t *testing.T) {
	createClusterVersion(t, nil, offeringStatus())
	deletePlanAtEnd(t, "garbage")
	want := `error: --to "garbage" is not a release version such as 4.17.3 or 4.18.0-ec.2 (No Major.Minor.Patch elements found). ` + offers + "\n"
	for _, args := range [][]string{
		{"pre-checks", "--to", "garbage", "--timeout", "5s"},
		{"upgrade", "--to", "garbage"},
	} {
		t.Run(args[0], func(t *testing.T) {
			out, errOut, code := command(t, args...)
			t.Logf("%s (exit %d):\n%s%s", strings.Join(args, " "), code, out, errOut)
			if diff := cmp.Diff(want, errOut); code != 1 || out != "" || diff != "" {
				t.Errorf("exit %d, stdout %q, stderr (-want +got):\n%s", code, out, diff)
			}
			if planExists(t, "garbage") {
				t.Errorf("UpdatePlan garbage was created")
			}
		})
	}
}

// TestATargetThatIsNotOffered: a release the cluster is not offered is said
// so first and then checked, as oc adm upgrade recommend --version does; the
// plan made for the check is deleted once printed unless
// --allow-not-offered keeps it, and upgrade refuses the release, naming the
// offers.
func TestATargetThatIsNotOffered(t *testing.T) {
	createClusterVersion(t, nil, offeringStatus())
	deletePlanAtEnd(t, "4.17.5")
	playPlanController(t, "4.17.5")
	first := "Warning: 4.17.5 is not an update offered to this cluster: upgrade refuses it until it is. " + offers
	deleted := "UpdatePlan 4.17.5 was deleted, as 4.17.5 is not offered: to keep it, and accept its findings before it is offered, add --allow-not-offered."
	lines := func(out string) []string { return strings.Split(strings.TrimSuffix(out, "\n"), "\n") }

	out, errOut, code := command(t, "pre-checks", "--to", "4.17.5", "--timeout", "30s")
	t.Logf("pre-checks --to 4.17.5 (exit %d):\n%s%s", code, out, errOut)
	if l := lines(out); code != 1 || l[0] != first || !strings.Contains(out, "Conditional update risk OVNHang") || l[len(l)-1] != deleted {
		t.Errorf("exit %d, stdout:\n%s\nwant exit 1, first %q and last %q", code, out, first, deleted)
	}
	if planExists(t, "4.17.5") {
		t.Errorf("UpdatePlan 4.17.5 is left")
	}

	_, errOut, code = command(t, "upgrade", "--to", "4.17.5")
	t.Logf("upgrade --to 4.17.5 (exit %d):\n%s", code, errOut)
	if want := "error: refusing to update to 4.17.5: it is not an update offered to this cluster. " + offers + "\n"; code != 1 || errOut != want {
		t.Errorf("upgrade: exit %d, stderr:\n%s\nwant:\n%s", code, errOut, want)
	}

	for _, args := range [][]string{
		{"pre-checks", "--to", "4.17.5", "--allow-not-offered"},
		// A plan that is kept is evaluated afresh, says the same, and stays.
		{"pre-checks", "--to", "4.17.5"},
	} {
		out, errOut, code := command(t, args...)
		t.Logf("%s (exit %d):\n%s%s", strings.Join(args, " "), code, out, errOut)
		if code != 1 || lines(out)[0] != first || strings.Contains(out, deleted) {
			t.Errorf("%v: exit %d, stdout:\n%s\nwant first:\n%s", args, code, out, first)
		}
		plan, err := insightsClient.InsightsV1alpha1().UpdatePlans().Get(context.Background(), "4.17.5", metav1.GetOptions{})
		if err != nil {
			t.Fatalf("%v: the plan is not kept: %v", args, err)
		}
		if _, ok := plan.Labels[insightsv1alpha1.OneOffCheckLabel]; ok {
			t.Errorf("%v: the plan kept is labelled %v", args, plan.Labels)
		}
	}
}

// TestAnInterruptedCheckOfATargetNotOfferedLeavesNoPlan: pre-checks,
// interrupted while it waits for the findings of a release not offered,
// deletes the plan it made for the check.
func TestAnInterruptedCheckOfATargetNotOfferedLeavesNoPlan(t *testing.T) {
	createClusterVersion(t, nil, offeringStatus())
	deletePlanAtEnd(t, "4.17.5")
	cmd := exec.Command(operatorBinary, "pre-checks", "--to", "4.17.5", "--kubeconfig", kubeconfigPath)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// No controller answers: the command waits until it is interrupted.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := wait.PollUntilContextCancel(ctx, 50*time.Millisecond, true, func(context.Context) (bool, error) {
		return planExists(t, "4.17.5"), nil
	})
	if err != nil {
		_ = cmd.Process.Kill()
		t.Fatalf("the plan was never created: %v", err)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	t.Logf("pre-checks --to 4.17.5, interrupted (%v):\n%s%s", err, out.String(), errOut.String())
	if err == nil {
		t.Errorf("the interrupted command exited 0")
	}
	if planExists(t, "4.17.5") {
		t.Errorf("UpdatePlan 4.17.5 is left")
	}
}

// TestTheReleaseTheClusterRuns: both commands say, as `oc adm upgrade --to`
// does, that the cluster is already there, exit 0, and write nothing.
func TestTheReleaseTheClusterRuns(t *testing.T) {
	createClusterVersion(t, nil, offeringStatus())
	deletePlanAtEnd(t, "4.17.1")
	for _, args := range [][]string{
		{"pre-checks", "--to", "4.17.1", "--timeout", "5s"},
		{"upgrade", "--to", "4.17.1"},
	} {
		t.Run(args[0], func(t *testing.T) {
			out, errOut, code := command(t, args...)
			t.Logf("%s (exit %d):\n%s%s", strings.Join(args, " "), code, out, errOut)
			if code != 0 || out != "info: Cluster is already at version 4.17.1\n" || errOut != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want 0 and oc's line", code, out, errOut)
			}
			if planExists(t, "4.17.1") {
				t.Errorf("UpdatePlan 4.17.1 was created")
			}
		})
	}
}

// planReader returns a kubeconfig of a user who may read UpdatePlans and the
// ClusterVersion, and write neither, as the API server's RBAC decides.
func planReader(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	const name = "update-plan-reader"
	role := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{"openshift.muller.dev"}, Resources: []string{"updateplans"}, Verbs: []string{"get", "list", "watch"}},
			{APIGroups: []string{"config.openshift.io"}, Resources: []string{"clusterversions"}, Verbs: []string{"get", "list", "watch"}},
		},
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: name},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: name}},
	}
	if _, err := kubeClient.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = kubeClient.RbacV1().ClusterRoles().Delete(context.Background(), name, metav1.DeleteOptions{})
	})
	if _, err := kubeClient.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = kubeClient.RbacV1().ClusterRoleBindings().Delete(context.Background(), name, metav1.DeleteOptions{})
	})
	user, err := testEnv.AddUser(envtest.User{Name: name}, nil)
	if err != nil {
		t.Fatal(err)
	}
	kubeconfig, err := user.KubeConfig()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, kubeconfig, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPreChecksAsAPlanReader: a user who may read UpdatePlans but not write
// them is told to ask someone who may, or shown the plan as last evaluated.
func TestPreChecksAsAPlanReader(t *testing.T) {
	createClusterVersion(t, nil, offeringStatus())
	deletePlanAtEnd(t, "4.17.3")
	reader := planReader(t)

	out, errOut, code := commandWith(t, reader, "pre-checks", "--to", "4.17.3", "--timeout", "5s")
	t.Logf("pre-checks --to 4.17.3 without a plan (exit %d):\n%s%s", code, out, errOut)
	want := "error: there is no UpdatePlan 4.17.3, and you may not create UpdatePlans (updateplans.openshift.muller.dev): ask someone who may to run pre-checks --to 4.17.3\n"
	if diff := cmp.Diff(want, errOut); code != 1 || diff != "" {
		t.Errorf("exit %d, stderr (-want +got):\n%s", code, diff)
	}

	playPlanController(t, "4.17.3")
	if _, errOut, code := command(t, "pre-checks", "--to", "4.17.3"); code != 1 {
		t.Fatalf("pre-checks as an administrator: exit %d, stderr:\n%s", code, errOut)
	}
	out, errOut, code = commandWith(t, reader, "pre-checks", "--to", "4.17.3", "--timeout", "5s")
	t.Logf("pre-checks --to 4.17.3 with a plan (exit %d):\n%s%s", code, out, errOut)
	want = "warning: you may not update UpdatePlans (updateplans.openshift.muller.dev), so UpdatePlan 4.17.3 was not evaluated afresh: it is shown as last evaluated. " +
		"Ask someone who may update UpdatePlans to run pre-checks --to 4.17.3 again.\n" +
		"error: the update to 4.17.3 is not ready: not accepted: OVNHang, slow-etcd\n"
	if diff := cmp.Diff(want, errOut); code != 1 || !strings.Contains(out, "Conditional update risk OVNHang") || diff != "" {
		t.Errorf("exit %d, stdout:\n%s\nstderr (-want +got):\n%s", code, out, diff)
	}

	_, errOut, code = commandWith(t, reader, "pre-checks", "--to", "4.17.3", "--accept-all-of", "mco", "--timeout", "5s")
	t.Logf("pre-checks --accept-all-of mco (exit %d):\n%s", code, errOut)
	want = "error: you may not update UpdatePlans (updateplans.openshift.muller.dev), so nothing was accepted in UpdatePlan 4.17.3: ask someone who may to accept the findings\n"
	if diff := cmp.Diff(want, errOut); code != 1 || diff != "" {
		t.Errorf("accepting: exit %d, stderr (-want +got):\n%s", code, diff)
	}
}
