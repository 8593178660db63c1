package integration

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

// statusRun is what one run of `status` printed and how it exited.
type statusRun struct {
	stdout, stderr string
	code           int
}

func runStatus(t *testing.T, args ...string) statusRun {
	t.Helper()
	cmd := exec.Command(operatorBinary, append([]string{"status", "--kubeconfig", kubeconfigPath}, args...)...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return statusRun{stdout: stdout.String(), stderr: stderr.String(), code: cmd.ProcessState.ExitCode()}
}

// wants checks that status exited with code and that its output starts
// with first.
func (r statusRun) wants(t *testing.T, code int, first string) {
	t.Helper()
	if r.code != code || !strings.HasPrefix(r.stdout, first) {
		t.Errorf("status exited %d, printing:\n%s%s\nwant exit %d and output starting with %q", r.code, r.stdout, r.stderr, code, first)
	}
}

// renewTime is when the operator's Lease was last renewed, or released.
func renewTime(t *testing.T) time.Time {
	t.Helper()
	lease, err := kubeClient.CoordinationV1().Leases(operatorNamespace).Get(context.Background(), leaseName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return lease.Spec.RenewTime.Time
}

func nowFlag(t time.Time) string { return "--now=" + t.UTC().Format(time.RFC3339Nano) }

// TestStatusSaysWhenTheOperatorDoesNotRun runs the operator, hangs it,
// stops it as the kubelet does and removes its Lease, asking status each
// time whether what it shows is current: it reads the Lease that
// client-go's leader election wrote. Time passing is played with --now,
// from the Lease's own renewTime, rather than waited for.
func TestStatusSaysWhenTheOperatorDoesNotRun(t *testing.T) {
	deleteLease(t)
	t.Cleanup(func() { deleteLease(t) })
	// A renew deadline long enough for the hung operator to keep its
	// leadership once it goes on, however slow the machine.
	op := startOperator(t, "--leader-election-lease-duration=60s", "--leader-election-renew-deadline=50s")
	createClusterVersion(t, nil, completedStatus())
	waitForInsight(t, eventually, "Completed", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentCompleted
	})
	holder := waitForHolder(t, eventually, func(h string) bool { return h != "" })
	expires := 60*time.Second + statusview.ClockSkew

	t.Run("running: no warning, exit 0", func(t *testing.T) {
		waitForRenewals(t, holder, 1)
		runStatus(t).wants(t, 0, "The cluster is not updating.\n")
	})

	t.Run("hung: the warning first, exit 3", func(t *testing.T) {
		if err := syscall.Kill(op.Pid(), syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := syscall.Kill(op.Pid(), syscall.SIGCONT); err != nil {
				t.Error(err)
			}
		}()
		renewed := renewTime(t)
		runStatus(t, nowFlag(renewed.Add(expires))).wants(t, 0, "The cluster is not updating.\n")
		late := runStatus(t, nowFlag(renewed.Add(expires+time.Second)))
		late.wants(t, 3, "Warning: What follows may be stale since "+renewed.UTC().Format(time.RFC3339)+" (1m31s ago): the update-insights operator last renewed its leader Lease "+
			"openshift-update-insights/update-insights-operator-lock then, and a running operator renews it within 1m, so it is stopped or hung.\n\nThe cluster is not updating.\n")
		if want := "error: the update-insights operator is not running, so what status printed may be stale since " + renewed.UTC().Format(time.RFC3339) + "\n"; late.stderr != want {
			t.Errorf("stderr %q, want %q", late.stderr, want)
		}
		structured := runStatus(t, nowFlag(renewed.Add(expires+time.Second)), "-o", "json")
		var s struct {
			Liveness statusview.Liveness `json:"liveness"`
		}
		if err := json.Unmarshal([]byte(structured.stdout), &s); err != nil {
			t.Fatalf("%v:\n%s", err, structured.stdout)
		}
		if structured.code != 3 || s.Liveness.State != statusview.OperatorNotRunning || s.Liveness.Holder != holder || !s.Liveness.StaleSince.Equal(&metav1.Time{Time: renewed.Truncate(time.Second)}) {
			t.Errorf("-o json exited %d with liveness %+v, want 3 and NotRunning since %s by %s", structured.code, s.Liveness, renewed, holder)
		}
	})

	t.Run("stopped: the Lease released, then not taken", func(t *testing.T) {
		op.stop(t, terminationGracePeriod)
		if h := leaseHolder(t); h != "" {
			t.Fatalf("the stopped operator left the Lease held by %q", h)
		}
		released := renewTime(t)
		// A standby, such as a rolling update's new pod, may yet take it.
		runStatus(t).wants(t, 0, "The cluster is not updating.\n")
		runStatus(t, nowFlag(released.Add(statusview.ReleasedGrace+statusview.ClockSkew+time.Minute))).wants(t, 3,
			"Warning: What follows may be stale since "+released.UTC().Format(time.RFC3339)+" (3m42s ago): the update-insights operator released its leader Lease "+
				"openshift-update-insights/update-insights-operator-lock then, as it does when it stops, and no instance has taken it since, so none is running.\n\n")
	})

	t.Run("no Lease", func(t *testing.T) {
		deleteLease(t)
		runStatus(t).wants(t, 3, "Warning: What follows may be stale: the update-insights operator is not running, as it always holds its leader Lease "+
			"openshift-update-insights/update-insights-operator-lock and there is none (it never ran in this cluster, or was removed).\n\n")
	})

	t.Run("a reader of the insights who may not read the Lease: not known, exit 4", func(t *testing.T) {
		grantInsightsReader(t, "insights-reader")
		runStatus(t, "--as", "insights-reader").wants(t, 4, "Warning: Could not tell whether the update-insights operator is running, so what follows may be stale: "+
			`reading its leader Lease openshift-update-insights/update-insights-operator-lock: leases.coordination.k8s.io "update-insights-operator-lock" is forbidden: `+
			`User "insights-reader" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "openshift-update-insights".`+"\n\nThe cluster is not updating.\n")
	})
}

// grantInsightsReader lets user read the insights, and nothing else.
func grantInsightsReader(t *testing.T, user string) {
	t.Helper()
	ctx := context.Background()
	role := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: user},
		Rules:      []rbacv1.PolicyRule{{APIGroups: []string{insightsv1alpha1.GroupName}, Resources: []string{"*"}, Verbs: []string{"get", "list", "watch"}}},
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: user},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: user},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: user}},
	}
	rbac := kubeClient.RbacV1()
	if _, err := rbac.ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := rbac.ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, err := range []error{
			rbac.ClusterRoleBindings().Delete(context.Background(), user, metav1.DeleteOptions{}),
			rbac.ClusterRoles().Delete(context.Background(), user, metav1.DeleteOptions{}),
		} {
			if err != nil && !apierrors.IsNotFound(err) {
				t.Error(err)
			}
		}
	})
}
