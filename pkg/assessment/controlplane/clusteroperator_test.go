package controlplane

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func coCondition(t configv1.ClusterStatusConditionType, status configv1.ConditionStatus, message string) coOption {
	return func(co *configv1.ClusterOperator) {
		co.Status.Conditions = append(co.Status.Conditions, configv1.ClusterOperatorStatusCondition{
			Type: t, Status: status, Message: message, LastTransitionTime: metav1.NewTime(started),
		})
	}
}

func coVersion(name, version string) coOption {
	return func(co *configv1.ClusterOperator) {
		co.Status.Versions = append(co.Status.Versions, configv1.OperandVersion{Name: name, Version: version})
	}
}

func condition(t string, status metav1.ConditionStatus, reason, message string) metav1.Condition {
	return metav1.Condition{Type: t, Status: status, Reason: reason, Message: message, LastTransitionTime: metav1.NewTime(now)}
}

// since dates a condition that follows one of the ClusterOperator's: it
// turned when the operator's did.
func since(at time.Time, c metav1.Condition) metav1.Condition {
	c.LastTransitionTime = metav1.NewTime(at)
	return c
}

func TestClusterOperatorProgressUpdating(t *testing.T) {
	available := coCondition(configv1.OperatorAvailable, "True", "All is well")
	testCases := []struct {
		name     string
		co       *configv1.ClusterOperator
		desired  string
		mcoImage string
		want     metav1.Condition
	}{
		{
			name:    "at the target version",
			co:      clusterOperator("etcd", "4.16.0", available, coCondition(configv1.OperatorProgressing, "False", "Done")),
			desired: "4.16.0",
			want:    condition("Updating", "False", "Updated", "Done"),
		},
		{
			name:    "not at the target, progressing",
			co:      clusterOperator("etcd", "4.15.3", available, coCondition(configv1.OperatorProgressing, "True", "Rolling out revision 7")),
			desired: "4.16.0",
			want:    since(started, condition("Updating", "True", "Progressing", "Rolling out revision 7")),
		},
		{
			name:    "not at the target, not progressing: pending",
			co:      clusterOperator("etcd", "4.15.3", available, coCondition(configv1.OperatorProgressing, "False", "Idle")),
			desired: "4.16.0",
			want:    since(started, condition("Updating", "False", "Pending", "Idle")),
		},
		{
			name:    "not at the target, no Progressing condition",
			co:      clusterOperator("etcd", "4.15.3", available),
			desired: "4.16.0",
			want:    condition("Updating", "Unknown", "CannotDetermine", "The ClusterOperator has no Progressing condition"),
		},
		{
			name:    "not at the target, Progressing Unknown",
			co:      clusterOperator("etcd", "4.15.3", available, coCondition(configv1.OperatorProgressing, "Unknown", "Lost")),
			desired: "4.16.0",
			want:    condition("Updating", "Unknown", "CannotDetermine", "The ClusterOperator has Progressing=Unknown: Lost"),
		},
		{
			name:    "no operator version at all: pending",
			co:      clusterOperator("etcd", "", available, coCondition(configv1.OperatorProgressing, "False", "")),
			desired: "4.16.0",
			want:    since(started, condition("Updating", "False", "Pending", "")),
		},
		{
			name:    "no ClusterVersion to compare with",
			co:      clusterOperator("etcd", "4.16.0", available, coCondition(configv1.OperatorProgressing, "False", "")),
			desired: "",
			want:    condition("Updating", "Unknown", "CannotDetermine", "There is no ClusterVersion to tell the target version"),
		},
		{
			name: "machine-config at the target version but an old image: still updating",
			co: clusterOperator("machine-config", "4.16.0", available, coVersion("operator-image", "quay.io/mco@sha256:amd64"),
				coCondition(configv1.OperatorProgressing, "True", "Working towards 4.16.0")),
			desired:  "4.16.0",
			mcoImage: "quay.io/mco@sha256:multi",
			want:     since(started, condition("Updating", "True", "Progressing", "Working towards 4.16.0")),
		},
		{
			name: "machine-config at the target version and image",
			co: clusterOperator("machine-config", "4.16.0", available, coVersion("operator-image", "quay.io/mco@sha256:multi"),
				coCondition(configv1.OperatorProgressing, "False", "")),
			desired:  "4.16.0",
			mcoImage: "quay.io/mco@sha256:multi",
			want:     condition("Updating", "False", "Updated", ""),
		},
		{
			name:     "machine-config without an image version entry: the version decides",
			co:       clusterOperator("machine-config", "4.16.0", available, coCondition(configv1.OperatorProgressing, "False", "")),
			desired:  "4.16.0",
			mcoImage: "quay.io/mco@sha256:multi",
			want:     condition("Updating", "False", "Updated", ""),
		},
		{
			name:     "another operator's image entry is not compared",
			co:       clusterOperator("etcd", "4.16.0", available, coVersion("operator-image", "old"), coCondition(configv1.OperatorProgressing, "False", "")),
			desired:  "4.16.0",
			mcoImage: "new",
			want:     condition("Updating", "False", "Updated", ""),
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got := ClusterOperatorProgress(tc.co, tc.desired, tc.mcoImage, nil, now)
			if diff := cmp.Diff(tc.want, got.Conditions[0]); diff != "" {
				t.Errorf("Updating (-want +got):\n%s", diff)
			}
			if got.Name != tc.co.Name {
				t.Errorf("name %q, want %q", got.Name, tc.co.Name)
			}
		})
	}
}

func TestClusterOperatorProgressHealthy(t *testing.T) {
	testCases := []struct {
		name string
		opts []coOption
		want metav1.Condition
	}{
		{name: "available, not degraded", opts: []coOption{coCondition(configv1.OperatorAvailable, "True", "Serving"), coCondition(configv1.OperatorDegraded, "False", "")},
			want: condition("Healthy", "True", "AsExpected", "Serving")},
		{name: "unavailable", opts: []coOption{coCondition(configv1.OperatorAvailable, "False", "Missing 1 replica"), coCondition(configv1.OperatorDegraded, "True", "Broken")},
			want: condition("Healthy", "False", "Unavailable", "Missing 1 replica")},
		{name: "availability unknown counts as unavailable", opts: []coOption{coCondition(configv1.OperatorAvailable, "Unknown", "Lost contact")},
			want: condition("Healthy", "False", "Unavailable", "Lost contact")},
		{name: "available but degraded", opts: []coOption{coCondition(configv1.OperatorAvailable, "True", "Serving"), coCondition(configv1.OperatorDegraded, "True", "Node not ready")},
			want: condition("Healthy", "False", "Degraded", "Node not ready")},
		{name: "no Available condition", opts: []coOption{coCondition(configv1.OperatorDegraded, "True", "Broken")},
			want: condition("Healthy", "Unknown", "CannotDetermine", "The ClusterOperator has no Available condition")},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got := ClusterOperatorProgress(clusterOperator("etcd", "4.16.0", tc.opts...), "4.16.0", "", nil, now)
			if diff := cmp.Diff(tc.want, got.Conditions[1]); diff != "" {
				t.Errorf("Healthy (-want +got):\n%s", diff)
			}
		})
	}
}

// coReason gives the ClusterOperator's last condition a reason.
func coReason(reason string) coOption {
	return func(co *configv1.ClusterOperator) {
		co.Status.Conditions[len(co.Status.Conditions)-1].Reason = reason
	}
}

// The insight carries the ClusterOperator's own Progressing reason while it
// updates, as oc prints it in its updating operators' table.
func TestClusterOperatorProgressCarriesTheProgressingReason(t *testing.T) {
	available := coCondition(configv1.OperatorAvailable, "True", "All is well")
	testCases := []struct {
		name string
		co   *configv1.ClusterOperator
		want string
	}{
		{
			name: "updating, with a reason",
			co: clusterOperator("etcd", "4.15.3", available,
				coCondition(configv1.OperatorProgressing, "True", "NodeInstallerProgressing: 2 nodes are at revision 33; 1 nodes are at revision 34"), coReason("NodeInstaller")),
			want: "NodeInstaller",
		},
		{
			name: "updating, without a reason",
			co:   clusterOperator("machine-config", "4.15.3", available, coCondition(configv1.OperatorProgressing, "True", "Working towards 4.16.0")),
		},
		{
			name: "pending: not updating",
			co:   clusterOperator("etcd", "4.15.3", available, coCondition(configv1.OperatorProgressing, "False", "Idle"), coReason("AsExpected")),
		},
		{
			name: "updated: not updating",
			co:   clusterOperator("etcd", "4.16.0", available, coCondition(configv1.OperatorProgressing, "True", "Rolling"), coReason("NodeInstaller")),
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got := ClusterOperatorProgress(tc.co, "4.16.0", "", nil, now)
			if got.ProgressingReason != tc.want {
				t.Errorf("progressingReason %q, want %q", got.ProgressingReason, tc.want)
			}
		})
	}

	// A new reason alone is written.
	co := clusterOperator("etcd", "4.15.3", available, coCondition(configv1.OperatorProgressing, "True", "Rolling"), coReason("NodeInstaller"))
	first := ClusterOperatorProgress(co, "4.16.0", "", nil, now)
	co.Status.Conditions[1].Reason = "RevisionController"
	if next := ClusterOperatorProgress(co, "4.16.0", "", &first, now); !ClusterOperatorProgressChanged(&first, &next) {
		t.Error("the Progressing reason changed, yet no write is wanted")
	}
}

func TestClusterOperatorProgressKeepsTransitionTimesAndWritesOnlyChanges(t *testing.T) {
	operator := func(version string) *configv1.ClusterOperator {
		return clusterOperator("etcd", version, coCondition(configv1.OperatorAvailable, "True", ""), coCondition(configv1.OperatorProgressing, "True", "Rolling"))
	}
	co := operator("4.15.3")
	first := ClusterOperatorProgress(co, "4.16.0", "", nil, now)
	later := now.Add(time.Hour)

	same := ClusterOperatorProgress(co, "4.16.0", "", &first, later)
	if ClusterOperatorProgressChanged(&first, &same) {
		t.Errorf("nothing changed, yet a write is wanted:\n%s", cmp.Diff(first, same))
	}
	// Progressing since the ClusterOperator says it began, before this
	// insight first saw it.
	if !same.Conditions[0].LastTransitionTime.Time.Equal(started) {
		t.Errorf("Updating transition at %v, want the operator's %v", same.Conditions[0].LastTransitionTime, started)
	}

	done := ClusterOperatorProgress(operator("4.16.0"), "4.16.0", "", &first, later)
	if !ClusterOperatorProgressChanged(&first, &done) {
		t.Error("the operator updated, yet no write is wanted")
	}
	if got := done.Conditions[0]; got.Reason != "Updated" || !got.LastTransitionTime.Time.Equal(later) {
		t.Errorf("Updating %s since %v, want Updated since %v", got.Reason, got.LastTransitionTime, later)
	}
	if !done.Conditions[1].LastTransitionTime.Time.Equal(now) {
		t.Errorf("Healthy did not change, yet its transition moved to %v", done.Conditions[1].LastTransitionTime)
	}
}
