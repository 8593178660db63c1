package controlplane

import (
	"time"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var (
	started = time.Date(2024, 8, 2, 9, 0, 0, 0, time.UTC)
	now     = started.Add(20 * time.Minute)
)

type cvOption func(*configv1.ClusterVersion)

func clusterVersion(opts ...cvOption) *configv1.ClusterVersion {
	cv := &configv1.ClusterVersion{ObjectMeta: metav1.ObjectMeta{Name: "version"}}
	for _, o := range opts {
		o(cv)
	}
	return cv
}

func desired(version string) cvOption {
	return func(cv *configv1.ClusterVersion) { cv.Status.Desired.Version = version }
}

func progressingCondition(status configv1.ConditionStatus, reason, message string) cvOption {
	return func(cv *configv1.ClusterVersion) {
		cv.Status.Conditions = append(cv.Status.Conditions, configv1.ClusterOperatorStatusCondition{
			Type: configv1.OperatorProgressing, Status: status, Reason: reason, Message: message,
			LastTransitionTime: metav1.NewTime(started),
		})
	}
}

// historyEntry appends an entry; entries are given newest first. A zero
// duration leaves the entry without a completion time.
func historyEntry(version string, state configv1.UpdateState, start time.Time, took time.Duration) cvOption {
	return func(cv *configv1.ClusterVersion) {
		h := configv1.UpdateHistory{Version: version, State: state, StartedTime: metav1.NewTime(start), Image: "quay.io/release:" + version}
		if took > 0 {
			c := metav1.NewTime(start.Add(took))
			h.CompletionTime = &c
		}
		cv.Status.History = append(cv.Status.History, h)
	}
}

// updating is a ClusterVersion in the middle of an update from 4.15.3 to 4.16.0.
func updating(opts ...cvOption) *configv1.ClusterVersion {
	base := []cvOption{
		desired("4.16.0"),
		progressingCondition(configv1.ConditionTrue, "", "Working towards 4.16.0: 106 of 873 done (12% complete)"),
		historyEntry("4.16.0", configv1.PartialUpdate, started, 0),
		historyEntry("4.15.3", configv1.CompletedUpdate, started.Add(-24*time.Hour), 50*time.Minute),
		historyEntry("4.15.0", configv1.CompletedUpdate, started.Add(-48*time.Hour), 40*time.Minute),
	}
	return clusterVersion(append(base, opts...)...)
}

// migrating is a ClusterVersion migrating 4.16.0 to the multi-architecture
// payload: the same version, another image.
func migrating(opts ...cvOption) *configv1.ClusterVersion {
	base := []cvOption{
		desired("4.16.0"),
		func(cv *configv1.ClusterVersion) {
			cv.Status.Desired.Architecture = configv1.ClusterVersionArchitectureMulti
		},
		progressingCondition(configv1.ConditionTrue, "", "Working towards 4.16.0: 760 of 873 done (87% complete)"),
		historyEntry("4.16.0", configv1.PartialUpdate, started, 0),
		func(cv *configv1.ClusterVersion) { cv.Status.History[0].Image = "quay.io/release@sha256:multi" },
		historyEntry("4.16.0", configv1.CompletedUpdate, started.Add(-24*time.Hour), 50*time.Minute),
		historyEntry("4.15.0", configv1.CompletedUpdate, started.Add(-48*time.Hour), 40*time.Minute),
	}
	return clusterVersion(append(base, opts...)...)
}

type coOption func(*configv1.ClusterOperator)

func clusterOperator(name, version string, opts ...coOption) *configv1.ClusterOperator {
	co := &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{
		Name:        name,
		Annotations: map[string]string{"include.release.openshift.io/self-managed-high-availability": "true"},
	}}
	if version != "" {
		co.Status.Versions = []configv1.OperandVersion{{Name: "operand", Version: "x"}, {Name: "operator", Version: version}}
	}
	for _, o := range opts {
		o(co)
	}
	return co
}

func coProgressing(status configv1.ConditionStatus, since time.Time) coOption {
	return func(co *configv1.ClusterOperator) {
		co.Status.Conditions = append(co.Status.Conditions, configv1.ClusterOperatorStatusCondition{
			Type: configv1.OperatorProgressing, Status: status, LastTransitionTime: metav1.NewTime(since),
		})
	}
}

func withAnnotations(annotations map[string]string) coOption {
	return func(co *configv1.ClusterOperator) { co.Annotations = annotations }
}

func mtime(t time.Time) *metav1.Time {
	m := metav1.NewTime(t)
	return &m
}
