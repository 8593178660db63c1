package controlplane

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/eta"
	"github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

const progressingMessage = "ClusterVersion has Progressing=True(Reason=) | Message='Working towards 4.16.0: 106 of 873 done (12% complete)'"

func updatingCond(status metav1.ConditionStatus, reason, message string, since time.Time) metav1.Condition {
	return metav1.Condition{Type: "Updating", Status: status, Reason: reason, Message: message, LastTransitionTime: metav1.NewTime(since)}
}

// oneOfThreeUpdated: one operator at the target, one progressing since 12
// minutes into the update, one not started.
func oneOfThreeUpdated() []*configv1.ClusterOperator {
	return []*configv1.ClusterOperator{
		clusterOperator("authentication", "4.16.0", coProgressing(configv1.ConditionFalse, started.Add(10*time.Minute))),
		clusterOperator("etcd", "4.15.3", coProgressing(configv1.ConditionTrue, started.Add(12*time.Minute))),
		clusterOperator("kube-apiserver", "4.15.3"),
	}
}

func TestClusterVersionProgress(t *testing.T) {
	previous := &insightsv1alpha1.Version{Version: "4.15.3"}
	target := insightsv1alpha1.Version{Version: "4.16.0"}
	testCases := []struct {
		name      string
		cv        *configv1.ClusterVersion
		operators []*configv1.ClusterOperator
		current   *insightsv1alpha1.ClusterVersionProgressInsightStatus
		want      insightsv1alpha1.ClusterVersionProgressInsightStatus
	}{
		{
			name:      "update in progress, first sync: last progress from the operators, estimate projected through the curve",
			cv:        updating(),
			operators: oneOfThreeUpdated(),
			want: insightsv1alpha1.ClusterVersionProgressInsightStatus{
				Conditions:        []metav1.Condition{updatingCond("True", "Progressing", progressingMessage, now)},
				Name:              "version",
				Assessment:        "Progressing",
				Versions:          insightsv1alpha1.ControlPlaneUpdateVersions{Target: target, Previous: previous},
				CompletionPercent: 33,
				StartedAt:         mtime(started),
				// toLOP 12m, tw(1/3)=0.39113 -> total 1840.8s; remaining 640.8s x1.2 = 768s -> 13m
				EstimatedCompletedAt: mtime(now.Add(13 * time.Minute)),
				LastObservedProgress: mtime(started.Add(12 * time.Minute)),
			},
		},
		{
			name:      "completed update: completion forced to 100 although an operator lags, no estimate",
			cv:        clusterVersion(desired("4.16.0"), progressingCondition("False", "", "Cluster version is 4.16.0"), historyEntry("4.16.0", configv1.CompletedUpdate, started, 55*time.Minute), historyEntry("4.15.3", configv1.CompletedUpdate, started.Add(-24*time.Hour), time.Hour)),
			operators: oneOfThreeUpdated(),
			current:   &insightsv1alpha1.ClusterVersionProgressInsightStatus{CompletionPercent: 100, LastObservedProgress: mtime(started.Add(50 * time.Minute))},
			want: insightsv1alpha1.ClusterVersionProgressInsightStatus{
				Conditions:           []metav1.Condition{updatingCond("False", "NotProgressing", "ClusterVersion has Progressing=False(Reason=) | Message='Cluster version is 4.16.0'", now)},
				Name:                 "version",
				Assessment:           "Completed",
				Versions:             insightsv1alpha1.ControlPlaneUpdateVersions{Target: target, Previous: previous},
				CompletionPercent:    100,
				StartedAt:            mtime(started),
				CompletedAt:          mtime(started.Add(55 * time.Minute)),
				LastObservedProgress: mtime(started.Add(50 * time.Minute)),
			},
		},
		{
			name:      "installation: single history entry, no previous version",
			cv:        clusterVersion(desired("4.16.0"), progressingCondition("True", "", "Working towards 4.16.0"), historyEntry("4.16.0", configv1.PartialUpdate, started, 0)),
			operators: oneOfThreeUpdated(),
			want: insightsv1alpha1.ClusterVersionProgressInsightStatus{
				Conditions: []metav1.Condition{updatingCond("True", "Progressing", "ClusterVersion has Progressing=True(Reason=) | Message='Working towards 4.16.0'", now)},
				Name:       "version",
				Assessment: "Progressing",
				Versions: insightsv1alpha1.ControlPlaneUpdateVersions{Target: insightsv1alpha1.Version{
					Version: "4.16.0", Metadata: []insightsv1alpha1.VersionMetadata{{Key: "Installation"}},
				}},
				CompletionPercent: 33,
				StartedAt:         mtime(started),
				// projected from progress seen 12m in, so the missing baseline does not matter
				EstimatedCompletedAt: mtime(now.Add(13 * time.Minute)),
				LastObservedProgress: mtime(started.Add(12 * time.Minute)),
			},
		},
		{
			name: "no Progressing condition: Unknown, completion still counted, no estimate",
			cv: clusterVersion(desired("4.16.0"), historyEntry("4.16.0", configv1.PartialUpdate, started, 0),
				historyEntry("4.15.3", configv1.CompletedUpdate, started.Add(-24*time.Hour), time.Hour)),
			operators: oneOfThreeUpdated(),
			want: insightsv1alpha1.ClusterVersionProgressInsightStatus{
				Conditions:           []metav1.Condition{updatingCond("Unknown", "CannotDetermineUpdating", "ClusterVersion has no Progressing condition", now)},
				Name:                 "version",
				Assessment:           "Unknown",
				Versions:             insightsv1alpha1.ControlPlaneUpdateVersions{Target: target, Previous: previous},
				CompletionPercent:    33,
				StartedAt:            mtime(started),
				LastObservedProgress: mtime(started.Add(12 * time.Minute)),
			},
		},
		{
			name:      "no history: Unknown, target from the desired release, no times but the last progress",
			cv:        clusterVersion(desired("4.16.0"), progressingCondition("True", "", "Working towards 4.16.0")),
			operators: oneOfThreeUpdated(),
			want: insightsv1alpha1.ClusterVersionProgressInsightStatus{
				Conditions:           []metav1.Condition{updatingCond("Unknown", "CannotDetermineUpdating", "ClusterVersion has Progressing=True(Reason=) | Message='Working towards 4.16.0' | ClusterVersion has no update history", now)},
				Name:                 "version",
				Assessment:           "Unknown",
				Versions:             insightsv1alpha1.ControlPlaneUpdateVersions{Target: target},
				CompletionPercent:    33,
				LastObservedProgress: mtime(now),
			},
		},
		{
			name:      "no operators at all: completion 0, baseline estimate",
			cv:        updating(),
			operators: nil,
			want: insightsv1alpha1.ClusterVersionProgressInsightStatus{
				Conditions:        []metav1.Condition{updatingCond("True", "Progressing", progressingMessage, now)},
				Name:              "version",
				Assessment:        "Progressing",
				Versions:          insightsv1alpha1.ControlPlaneUpdateVersions{Target: target, Previous: previous},
				CompletionPercent: 0,
				StartedAt:         mtime(started),
				// baseline 50m (the 4.15.3 update) - 20m elapsed = 30m x1.2 = 36m
				EstimatedCompletedAt: mtime(now.Add(36 * time.Minute)),
				LastObservedProgress: mtime(now),
			},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got := ClusterVersionProgress(tc.cv, tc.operators, "", tc.current, now)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("status (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUpdatingConditionIsUnknownWhenClusterVersionIsInconsistent(t *testing.T) {
	testCases := []struct {
		name        string
		progressing configv1.ConditionStatus
		state       configv1.UpdateState
		took        time.Duration
		wantMessage string
	}{
		{name: "Progressing=True but the latest update completed", progressing: "True", state: configv1.CompletedUpdate, took: time.Hour,
			wantMessage: `the latest update history entry has state "Completed" and a completion time`},
		{name: "Progressing=True but a partial entry has a completion time", progressing: "True", state: configv1.PartialUpdate, took: time.Hour,
			wantMessage: `the latest update history entry has state "Partial" and a completion time`},
		{name: "Progressing=False but the latest entry is partial", progressing: "False", state: configv1.PartialUpdate,
			wantMessage: `the latest update history entry has state "Partial" and no completion time`},
		{name: "Progressing=False but a completed entry has no completion time", progressing: "False", state: configv1.CompletedUpdate,
			wantMessage: `the latest update history entry has state "Completed" and no completion time`},
		{name: "Progressing=Unknown", progressing: "Unknown", state: configv1.PartialUpdate,
			wantMessage: `ClusterVersion has Progressing=Unknown(Reason=Weird)`},
		{name: "Progressing with a garbage status", progressing: "Maybe", state: configv1.PartialUpdate,
			wantMessage: `ClusterVersion has Progressing=Maybe(Reason=Weird)`},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			cv := clusterVersion(desired("4.16.0"), progressingCondition(tc.progressing, "Weird", "msg"), historyEntry("4.16.0", tc.state, started, tc.took))
			got := ClusterVersionProgress(cv, oneOfThreeUpdated(), "", nil, now)
			c := got.Conditions[0]
			if c.Status != metav1.ConditionUnknown || c.Reason != "CannotDetermineUpdating" || got.Assessment != "Unknown" {
				t.Errorf("got Updating=%s(%s) assessment %s, want Unknown(CannotDetermineUpdating) and Unknown", c.Status, c.Reason, got.Assessment)
			}
			if !strings.Contains(c.Message, tc.wantMessage) {
				t.Errorf("message %q does not say %q", c.Message, tc.wantMessage)
			}
			if got.EstimatedCompletedAt != nil || got.CompletedAt != nil {
				t.Errorf("an Unknown update has estimatedCompletedAt %v and completedAt %v, want neither", got.EstimatedCompletedAt, got.CompletedAt)
			}
			if got.CompletionPercent != 33 {
				t.Errorf("completion %d, want 33 (counted from operators while Unknown)", got.CompletionPercent)
			}
		})
	}
}

func TestVersions(t *testing.T) {
	longVersion := strings.Repeat("4", 300)
	testCases := []struct {
		name string
		cv   *configv1.ClusterVersion
		want insightsv1alpha1.ControlPlaneUpdateVersions
	}{
		{
			name: "previous update never completed: Partial",
			cv: clusterVersion(historyEntry("4.16.0", configv1.PartialUpdate, started, 0),
				historyEntry("4.15.3", configv1.PartialUpdate, started.Add(-time.Hour), 0), historyEntry("4.15.0", configv1.CompletedUpdate, started.Add(-48*time.Hour), time.Hour)),
			want: insightsv1alpha1.ControlPlaneUpdateVersions{
				Target:   insightsv1alpha1.Version{Version: "4.16.0"},
				Previous: &insightsv1alpha1.Version{Version: "4.15.3", Metadata: []insightsv1alpha1.VersionMetadata{{Key: "Partial"}}},
			},
		},
		{
			name: "same version to the multi-architecture payload",
			cv: clusterVersion(func(cv *configv1.ClusterVersion) {
				cv.Status.Desired.Architecture = configv1.ClusterVersionArchitectureMulti
			},
				historyEntry("4.16.0", configv1.PartialUpdate, started, 0), historyEntry("4.16.0", configv1.CompletedUpdate, started.Add(-time.Hour), time.Hour)),
			want: insightsv1alpha1.ControlPlaneUpdateVersions{
				Target:   insightsv1alpha1.Version{Version: "4.16.0", Metadata: []insightsv1alpha1.VersionMetadata{{Key: "Architecture", Value: "multi"}}},
				Previous: &insightsv1alpha1.Version{Version: "4.16.0"},
			},
		},
		{
			name: "same version with a different image",
			cv: clusterVersion(historyEntry("4.16.0", configv1.PartialUpdate, started, 0), func(cv *configv1.ClusterVersion) {
				cv.Status.History = append(cv.Status.History, configv1.UpdateHistory{Version: "4.16.0", State: configv1.CompletedUpdate, Image: "quay.io/release@sha256:amd64"})
			}),
			want: insightsv1alpha1.ControlPlaneUpdateVersions{
				Target:   insightsv1alpha1.Version{Version: "4.16.0", Metadata: []insightsv1alpha1.VersionMetadata{{Key: "Architecture", Value: "multi"}}},
				Previous: &insightsv1alpha1.Version{Version: "4.16.0"},
			},
		},
		{
			name: "a garbage version longer than the API accepts is cut to fit",
			cv:   clusterVersion(historyEntry(longVersion, configv1.PartialUpdate, started, 0), historyEntry("4.15.3", configv1.CompletedUpdate, started.Add(-time.Hour), time.Hour)),
			want: insightsv1alpha1.ControlPlaneUpdateVersions{
				Target:   insightsv1alpha1.Version{Version: strings.Repeat("4", 253) + "…"},
				Previous: &insightsv1alpha1.Version{Version: "4.15.3"},
			},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ClusterVersionProgress(tc.cv, nil, "", nil, now).Versions); diff != "" {
				t.Errorf("versions (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCompletionCountsOperatorsAtTheDesiredVersion(t *testing.T) {
	testCases := []struct {
		name      string
		operators []*configv1.ClusterOperator
		want      int32
	}{
		{name: "none", want: 0},
		{name: "rounded as oc prints it: 2 of 3", operators: []*configv1.ClusterOperator{
			clusterOperator("a", "4.16.0"), clusterOperator("b", "4.16.0"), clusterOperator("c", "4.15.3")}, want: 67},
		{name: "rounded as oc prints it: 32 of 33", operators: updatedOf(32, 33), want: 97},
		{name: "half to even: 1 of 8 is 12.5", operators: updatedOf(1, 8), want: 12},
		{name: "half to even: 3 of 8 is 37.5", operators: updatedOf(3, 8), want: 38},
		{name: "199 of 200 rounds to 100, still progressing", operators: updatedOf(199, 200), want: 100},
		{name: "an operator without an operator version is pending", operators: []*configv1.ClusterOperator{
			clusterOperator("a", "4.16.0"), clusterOperator("b", "")}, want: 50},
		{name: "all", operators: []*configv1.ClusterOperator{clusterOperator("a", "4.16.0")}, want: 100},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got := ClusterVersionProgress(updating(), tc.operators, "", nil, now)
			if got.CompletionPercent != tc.want {
				t.Errorf("completion = %d, want %d", got.CompletionPercent, tc.want)
			}
			// The percent never completes an update: the ClusterVersion does.
			if got.Assessment != insightsv1alpha1.ClusterVersionAssessmentProgressing {
				t.Errorf("assessment = %s, want Progressing", got.Assessment)
			}
		})
	}
}

// updatedOf is total operators, the first updated of them at the target.
func updatedOf(updated, total int) []*configv1.ClusterOperator {
	operators := make([]*configv1.ClusterOperator, total)
	for i := range operators {
		version := "4.15.3"
		if i < updated {
			version = "4.16.0"
		}
		operators[i] = clusterOperator(fmt.Sprintf("operator-%d", i), version)
	}
	return operators
}

// machineConfigMigrating is a control plane migrating to the
// multi-architecture payload: every operator reports the target version, and
// machine-config still the image it ran before.
func machineConfigMigrating(progressingSince time.Time) []*configv1.ClusterOperator {
	return []*configv1.ClusterOperator{
		clusterOperator("authentication", "4.16.0", coProgressing("False", started.Add(2*time.Minute))),
		clusterOperator("etcd", "4.16.0", coProgressing("False", started.Add(4*time.Minute))),
		clusterOperator("machine-config", "4.16.0", coVersion("operator-image", "quay.io/mco@sha256:amd64"),
			coProgressing("True", progressingSince)),
	}
}

func TestCompletionCountsMachineConfigByTheImageItReports(t *testing.T) {
	testCases := []struct {
		name      string
		operators []*configv1.ClusterOperator
		mcoImage  string
		want      int32
	}{
		{name: "machine-config reports an image other than its Deployment's: updating",
			operators: machineConfigMigrating(started.Add(time.Minute)), mcoImage: "quay.io/mco@sha256:multi", want: 67},
		{name: "machine-config reports its Deployment's image: updated",
			operators: machineConfigMigrating(started.Add(time.Minute)), mcoImage: "quay.io/mco@sha256:amd64", want: 100},
		{name: "the Deployment unknown: the version decides",
			operators: machineConfigMigrating(started.Add(time.Minute)), want: 100},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			cv := updating()
			if got := ClusterVersionProgress(cv, tc.operators, tc.mcoImage, nil, now).CompletionPercent; got != tc.want {
				t.Errorf("completion = %d, want %d", got, tc.want)
			}
			// The operator insights must tell the same story.
			updated := 0
			for _, co := range tc.operators {
				if ClusterOperatorProgress(co, cv.Status.Desired.Version, tc.mcoImage, nil, now).Conditions[0].Reason == "Updated" {
					updated++
				}
			}
			if agreed := completionPercent(updated, len(tc.operators)); agreed != tc.want {
				t.Errorf("the operator insights say %d%% updated, the ClusterVersion insight %d%%", agreed, tc.want)
			}
		})
	}
}

func TestNoEstimateDuringAnArchitectureMigration(t *testing.T) {
	testCases := []struct {
		name         string
		cv           *configv1.ClusterVersion
		wantEstimate bool
	}{
		// The curve would project from operators that all kept their
		// version: an estimate already past.
		{name: "migrating to the multi-architecture payload: none", cv: migrating()},
		{name: "an update with the same operators: one", cv: updating(), wantEstimate: true},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got := ClusterVersionProgress(tc.cv, machineConfigMigrating(started.Add(time.Minute)), "quay.io/mco@sha256:multi", nil, now)
			if got.Assessment != "Progressing" {
				t.Fatalf("assessment %s, want Progressing", got.Assessment)
			}
			if (got.EstimatedCompletedAt != nil) != tc.wantEstimate {
				t.Errorf("estimatedCompletedAt %v, want an estimate: %t", got.EstimatedCompletedAt, tc.wantEstimate)
			}
		})
	}
}

func TestAnArchitectureMigrationIsNeverOverdue(t *testing.T) {
	// Hours into a migration whose operators all kept their version: an
	// estimate would be long past, and the update assessed Stalled.
	got, _, _ := Assess(migrating(), machineConfigMigrating(started.Add(time.Minute)), hosted.Standalone, "quay.io/mco@sha256:multi", nil, nil, now.Add(5*time.Hour))
	if got.Assessment != insightsv1alpha1.ClusterVersionAssessmentProgressing || got.EstimatedCompletedAt != nil {
		t.Errorf("assessment %s, estimate %v during a migration, want Progressing without an estimate", got.Assessment, got.EstimatedCompletedAt)
	}
}

func TestLastObservedProgressFollowsMachineConfigMigrating(t *testing.T) {
	// machine-config, the only operator left (by its image), has been
	// progressing since 3 minutes in; the others settled later.
	got := ClusterVersionProgress(updating(), machineConfigMigrating(started.Add(3*time.Minute)), "quay.io/mco@sha256:multi", nil, now).LastObservedProgress
	if want := started.Add(3 * time.Minute); got == nil || !got.Time.Equal(want) {
		t.Errorf("lastObservedProgress = %v, want %v, when machine-config began", got, want)
	}
}

func TestLastObservedProgress(t *testing.T) {
	machineConfigLast := []*configv1.ClusterOperator{
		clusterOperator("authentication", "4.16.0", coProgressing("False", started.Add(15*time.Minute))),
		clusterOperator("machine-config", "4.15.3", coProgressing("True", started.Add(3*time.Minute))),
	}
	testCases := []struct {
		name      string
		operators []*configv1.ClusterOperator
		current   *insightsv1alpha1.ClusterVersionProgressInsightStatus
		want      time.Time
	}{
		{
			name:      "kept while completion does not change",
			operators: oneOfThreeUpdated(),
			current:   &insightsv1alpha1.ClusterVersionProgressInsightStatus{CompletionPercent: 33, LastObservedProgress: mtime(started.Add(7 * time.Minute))},
			want:      started.Add(7 * time.Minute),
		},
		{
			name:      "moved to now when completion changes",
			operators: oneOfThreeUpdated(),
			current:   &insightsv1alpha1.ClusterVersionProgressInsightStatus{CompletionPercent: 0, LastObservedProgress: mtime(started.Add(7 * time.Minute))},
			want:      now,
		},
		{
			name:      "never set: the latest Progressing transition among operators",
			operators: oneOfThreeUpdated(),
			want:      started.Add(12 * time.Minute),
		},
		{
			name:      "never set, machine-config the only operator left and progressing: its transition",
			operators: machineConfigLast,
			want:      started.Add(3 * time.Minute),
		},
		{
			name:      "never set, and no transition after the start: now",
			operators: []*configv1.ClusterOperator{clusterOperator("a", "4.15.3", coProgressing("True", started.Add(-time.Hour)))},
			want:      now,
		},
		{
			name:      "left over from an earlier update (before this start): taken afresh from evidence",
			operators: oneOfThreeUpdated(),
			current:   &insightsv1alpha1.ClusterVersionProgressInsightStatus{CompletionPercent: 33, LastObservedProgress: mtime(started.Add(-time.Hour))},
			want:      started.Add(12 * time.Minute),
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got := ClusterVersionProgress(updating(), tc.operators, "", tc.current, now).LastObservedProgress
			if got == nil || !got.Time.Equal(tc.want) {
				t.Errorf("lastObservedProgress = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestUpdatingConditionTransitionTime(t *testing.T) {
	earlier := started.Add(time.Minute)
	testCases := []struct {
		name    string
		current []metav1.Condition
		want    time.Time
	}{
		{name: "new condition: now", want: now},
		{name: "same status: kept", current: []metav1.Condition{updatingCond("True", "Progressing", "old message", earlier)}, want: earlier},
		{name: "same status among other conditions: found by type", current: []metav1.Condition{
			{Type: "Healthy", Status: "True", LastTransitionTime: metav1.NewTime(started)},
			updatingCond("True", "Progressing", "old message", earlier)}, want: earlier},
		{name: "status changed: now", current: []metav1.Condition{updatingCond("Unknown", "CannotDetermineUpdating", "", earlier)}, want: now},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got := ClusterVersionProgress(updating(), oneOfThreeUpdated(), "", &insightsv1alpha1.ClusterVersionProgressInsightStatus{Conditions: tc.current}, now)
			if lt := got.Conditions[0].LastTransitionTime.Time; !lt.Equal(tc.want) {
				t.Errorf("lastTransitionTime = %v, want %v", lt, tc.want)
			}
		})
	}
}

func TestOversizedProgressingMessageIsCutWithinTheConditionLimit(t *testing.T) {
	huge := strings.Repeat("é", 40000)
	cv := updating()
	cv.Status.Conditions[0].Message = huge
	msg := ClusterVersionProgress(cv, nil, "", nil, now).Conditions[0].Message
	if len(msg) > maxQuotedMessageLength+200 {
		t.Errorf("message is %d bytes, want it cut near %d", len(msg), maxQuotedMessageLength)
	}
	if !utf8.ValidString(msg) || !strings.Contains(msg, "…'") {
		t.Errorf("message is not valid UTF-8 ending the quote with an ellipsis: ...%q", msg[len(msg)-20:])
	}
}

func TestIsPayloadOperator(t *testing.T) {
	testCases := []struct {
		annotations map[string]string
		want        bool
	}{
		{annotations: map[string]string{"include.release.openshift.io/self-managed-high-availability": "true"}, want: true},
		{annotations: map[string]string{"exclude.release.openshift.io/internal-openshift-hosted": "true"}, want: true},
		{annotations: map[string]string{"capability.openshift.io/name": "Console"}, want: false},
		{annotations: map[string]string{"include.release.openshift.io": "true"}, want: false},
		{annotations: nil, want: false},
	}
	for _, tc := range testCases {
		if got := IsPayloadOperator(clusterOperator("x", "1", withAnnotations(tc.annotations))); got != tc.want {
			t.Errorf("IsPayloadOperator(%v) = %t, want %t", tc.annotations, got, tc.want)
		}
	}
}

// The API stores times to the second. A status computed at a sub-second
// now and read back must not differ from what the same sync computes from
// it, or every sync after a change writes the status again.
func TestStatusReadBackAsStoredIsUnchanged(t *testing.T) {
	for i := range 2000 {
		at := now.Add(time.Duration(i) * 37 * time.Millisecond)
		current := &insightsv1alpha1.ClusterVersionProgressInsightStatus{LastObservedProgress: mtime(started.Add(7 * time.Minute))}
		written := ClusterVersionProgress(updating(), oneOfThreeUpdated(), "", current, at)
		data, err := json.Marshal(written)
		if err != nil {
			t.Fatal(err)
		}
		var stored insightsv1alpha1.ClusterVersionProgressInsightStatus
		if err := json.Unmarshal(data, &stored); err != nil {
			t.Fatal(err)
		}
		if again := ClusterVersionProgress(updating(), oneOfThreeUpdated(), "", &stored, at); ClusterVersionProgressChanged(&stored, &again) {
			t.Fatalf("at %s: the status read back would be written again: estimate %s, then %s", at.Format(time.RFC3339Nano), stored.EstimatedCompletedAt, again.EstimatedCompletedAt)
		}
	}
}

func TestPaceFollowsTheEstimate(t *testing.T) {
	// One of three updated 12 minutes in, nothing since: the projection
	// runs out 12 minutes over the curve's share of the time at a third.
	due := started.Add(time.Duration(12 * time.Minute.Seconds() / eta.TimewiseCompletion(1.0/3) * float64(time.Second)))
	// Remaining shrinks an overdue time by 1.2: it is -1s 1.2s past due,
	// and -10m1s 12m1.2s past it; the wake is a millisecond later.
	slowAt, stalledAt := due.Add(1201*time.Millisecond), due.Add(12*time.Minute+1201*time.Millisecond)
	testCases := []struct {
		name     string
		at       time.Time
		failing  bool
		want     insightsv1alpha1.ClusterVersionAssessment
		wantNext time.Time
	}{
		{name: "ahead of the estimate: Progressing, woken as it passes", at: started.Add(20 * time.Minute),
			want: "Progressing", wantNext: slowAt},
		{name: "just before it passes: still Progressing", at: slowAt.Add(-2 * time.Millisecond),
			want: "Progressing", wantNext: slowAt},
		{name: "as it passes: ProgressingSlow, as oc's Progressing - Slow", at: slowAt,
			want: "ProgressingSlow", wantNext: stalledAt},
		{name: "10 minutes past it: still ProgressingSlow", at: stalledAt.Add(-2 * time.Millisecond),
			want: "ProgressingSlow", wantNext: stalledAt},
		{name: "over 10 minutes past it: Stalled, for good", at: stalledAt, want: "Stalled"},
		// oc's assessment does not read Failing: its health insight says it.
		{name: "failing with time left: Progressing", at: started.Add(20 * time.Minute), failing: true,
			want: "Progressing", wantNext: slowAt},
		{name: "failing past the estimate: ProgressingSlow, as without", at: slowAt.Add(time.Minute), failing: true,
			want: "ProgressingSlow", wantNext: stalledAt},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			cv := updating()
			if tc.failing {
				cv.Status.Conditions = append(cv.Status.Conditions, configv1.ClusterOperatorStatusCondition{
					Type: "Failing", Status: configv1.ConditionTrue, Reason: "ClusterOperatorDegraded", LastTransitionTime: metav1.NewTime(started)})
			}
			got, next := clusterVersionProgress(cv, oneOfThreeUpdated(), "", nil, nil, tc.at)
			if got.Assessment != tc.want {
				t.Errorf("assessment %s, want %s", got.Assessment, tc.want)
			}
			if !next.Equal(tc.wantNext) {
				t.Errorf("next pace change at %v, want %v", next, tc.wantNext)
			}
			assessed, insights, _ := Assess(cv, oneOfThreeUpdated(), hosted.Standalone, "", nil, nil, tc.at)
			if assessed.Assessment != tc.want {
				t.Errorf("Assess: assessment %s, want %s", assessed.Assessment, tc.want)
			}
			if tc.failing && !hasProblem(insights, health.ClusterVersionFailing) {
				t.Errorf("no %s insight to carry the failure: %v", health.ClusterVersionFailing, insights)
			}
		})
	}
}

func hasProblem(insights []health.Insight, problem string) bool {
	for _, i := range insights {
		if i.Problem == problem {
			return true
		}
	}
	return false
}
