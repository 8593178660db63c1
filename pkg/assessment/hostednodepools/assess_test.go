package hostednodepools

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
)

// summary is what a test checks of a status.
type summary struct {
	Assessment   insightsv1alpha1.PoolAssessment
	Target       string
	Updated      int32
	Desired      int32
	Source       insightsv1alpha1.MachinesSource
	Percent      int32
	Holding      string
	HoldReason   string
	HoldSince    time.Time
	MinorsBehind *int32
	Problems     []string
	ETA          time.Time
	Updating     metav1.ConditionStatus
	Healthy      metav1.ConditionStatus
}

func summarize(st insightsv1alpha1.NodePoolProgressInsightStatus) summary {
	s := summary{
		Assessment: st.Assessment, Target: st.Versions.Target,
		Updated: st.Machines.Updated, Desired: st.Machines.Desired, Source: st.Machines.Source,
		Percent: st.CompletionPercent, MinorsBehind: st.MinorsBehind,
	}
	if h := st.HoldingMachine; h != nil {
		s.Holding, s.HoldReason = h.Name, h.Reason
		if h.Since != nil {
			s.HoldSince = h.Since.Time
		}
	}
	for _, p := range st.Problems {
		s.Problems = append(s.Problems, string(p.Level)+"/"+p.Reason)
	}
	if st.EstimatedCompletedAt != nil {
		s.ETA = st.EstimatedCompletedAt.Time
	}
	for _, c := range st.Conditions {
		switch c.Type {
		case insightsv1alpha1.HostedProgressInsightUpdating:
			s.Updating = c.Status
		case insightsv1alpha1.HostedProgressInsightHealthy:
			s.Healthy = c.Status
		}
	}
	return s
}

func TestAssess(t *testing.T) {
	newCP := hostedCluster(newVersion, newImage)
	for _, tc := range []struct {
		name string
		in   Input
		want summary
	}{
		{
			// A Replace rollout with maxSurge 1, maxUnavailable 0: one new
			// Machine has joined, the old one it replaces drains and a
			// budget refuses the eviction.
			name: "replace, machine by machine, one held by a drain",
			in: Input{
				NodePool:          updating(nodePool(hypershift.UpgradeTypeReplace, newImage, 3), newVersion, time.Hour),
				HostedCluster:     newCP,
				MachineDeployment: machineDeployment(newVersion, 3, 1),
				Machines: []*hypershift.Machine{
					machine("new-1", newVersion), draining(machine("old-1", oldVersion), 45*time.Minute), machine("old-2", oldVersion),
				},
				PerMachine: 20 * time.Minute,
			},
			want: summary{
				Assessment: insightsv1alpha1.PoolProgressing, Target: newVersion, Updated: 1, Desired: 3,
				Source: insightsv1alpha1.MachinesFromMachines, Percent: 33,
				Holding: "old-1", HoldReason: "DrainingNode", HoldSince: now.Add(-45 * time.Minute),
				MinorsBehind: ptr.To(int32(1)), Problems: []string{"Warning/MachineHeld"},
				ETA: now.Add(40 * time.Minute), Updating: metav1.ConditionTrue, Healthy: metav1.ConditionTrue,
			},
		},
		{
			name: "replace, nodesInfo preferred to the Machines",
			in: Input{
				NodePool:          nodesInfo(updating(nodePool(hypershift.UpgradeTypeReplace, newImage, 3), newVersion, time.Hour), map[string]int32{oldVersion: 1, newVersion: 2}),
				HostedCluster:     newCP,
				MachineDeployment: machineDeployment(newVersion, 3, 1),
				Machines:          []*hypershift.Machine{machine("new-1", newVersion), machine("old-1", oldVersion), machine("old-2", oldVersion)},
			},
			want: summary{
				Assessment: insightsv1alpha1.PoolProgressing, Target: newVersion, Updated: 2, Desired: 3,
				Source: insightsv1alpha1.MachinesFromNodesInfo, Percent: 66, MinorsBehind: ptr.To(int32(1)),
				// 2 machines in the hour since UpdatingVersion: 30 minutes
				// for the one left.
				ETA: now.Add(30 * time.Minute), Updating: metav1.ConditionTrue, Healthy: metav1.ConditionTrue,
			},
		},
		{
			// HyperShift older than the release-version annotation and
			// nodesInfo: the MachineDeployment's up-to-date replicas.
			name: "replace, counted from the MachineDeployment",
			in: Input{
				NodePool:          updating(nodePool(hypershift.UpgradeTypeReplace, newImage, 3), newVersion, time.Hour),
				HostedCluster:     newCP,
				MachineDeployment: machineDeployment("", 3, 1),
				Machines:          []*hypershift.Machine{machine("new-1", ""), machine("old-1", ""), machine("old-2", "")},
			},
			want: summary{
				Assessment: insightsv1alpha1.PoolProgressing, Target: newVersion, Updated: 1, Desired: 3,
				Source: insightsv1alpha1.MachinesFromMachineSets, Percent: 33, MinorsBehind: ptr.To(int32(1)),
				ETA: now.Add(2 * time.Hour), Updating: metav1.ConditionTrue, Healthy: metav1.ConditionTrue,
			},
		},
		{
			name: "replace, a new machine long without a node",
			in: Input{
				NodePool:          updating(nodePool(hypershift.UpgradeTypeReplace, newImage, 2), newVersion, time.Hour),
				HostedCluster:     newCP,
				MachineDeployment: machineDeployment(newVersion, 2, 0),
				Machines:          []*hypershift.Machine{provisioning("new-1", newVersion, 50*time.Minute), machine("old-1", oldVersion), machine("old-2", oldVersion)},
			},
			want: summary{
				Assessment: insightsv1alpha1.PoolProgressing, Target: newVersion, Desired: 2,
				Source: insightsv1alpha1.MachinesFromMachines, MinorsBehind: ptr.To(int32(1)),
				Holding: "new-1", HoldReason: "NotReady", HoldSince: now.Add(-50 * time.Minute),
				Problems: []string{"Warning/MachineHeld"}, Updating: metav1.ConditionTrue, Healthy: metav1.ConditionTrue,
			},
		},
		{
			name: "replace, nothing started yet",
			in: Input{
				NodePool:          updating(nodePool(hypershift.UpgradeTypeReplace, newImage, 2), newVersion, time.Minute),
				HostedCluster:     newCP,
				MachineDeployment: machineDeployment(oldVersion, 2, 2),
				Machines:          []*hypershift.Machine{machine("old-1", oldVersion), machine("old-2", oldVersion)},
			},
			want: summary{
				Assessment: insightsv1alpha1.PoolPending, Target: newVersion, Desired: 2,
				Source: insightsv1alpha1.MachinesFromMachines, MinorsBehind: ptr.To(int32(1)),
				Updating: metav1.ConditionFalse, Healthy: metav1.ConditionTrue,
			},
		},
		{
			name: "inplace, the upgrader's progress",
			in: Input{
				NodePool: updatingInPlace(nodePool(hypershift.UpgradeTypeInPlace, newImage, 3), 30*time.Minute,
					"Nodepool update in progress. Target Config version: e5f6a7b8. Total Nodes: 3. Upgraded: 1"),
				HostedCluster: newCP,
				MachineSets: []*hypershift.MachineSet{inPlaceMachineSet(3, map[string]string{
					hypershift.UpgradeInProgressTrueAnnotation: "Nodepool update in progress. Target Config version: e5f6a7b8. Total Nodes: 3. Upgraded: 1",
				})},
				Machines:   []*hypershift.Machine{machine("m-1", newVersion), machine("m-2", oldVersion), machine("m-3", oldVersion)},
				PerMachine: 10 * time.Minute,
			},
			want: summary{
				Assessment: insightsv1alpha1.PoolProgressing, Target: newVersion, Updated: 1, Desired: 3,
				Source: insightsv1alpha1.MachinesFromInPlaceUpgrader, Percent: 33, MinorsBehind: ptr.To(int32(1)),
				ETA: now.Add(20 * time.Minute), Updating: metav1.ConditionTrue, Healthy: metav1.ConditionTrue,
			},
		},
		{
			name: "inplace, a node degraded",
			in: Input{
				NodePool: inPlaceFailed(nodePool(hypershift.UpgradeTypeInPlace, newImage, 3), 20*time.Minute,
					"Node ip-10-0-1-m-2 in nodepool degraded: failed to drain node: ip-10-0-1-m-2 after 1 hour"),
				HostedCluster: newCP,
				MachineSets: []*hypershift.MachineSet{inPlaceMachineSet(3, map[string]string{
					hypershift.UpgradeInProgressTrueAnnotation:  "Nodepool update in progress. Target Config version: e5f6a7b8. Total Nodes: 3. Upgraded: 1",
					hypershift.UpgradeInProgressFalseAnnotation: "Node ip-10-0-1-m-2 in nodepool degraded: failed to drain node: ip-10-0-1-m-2 after 1 hour",
				})},
				Machines: []*hypershift.Machine{machine("m-1", newVersion), machine("m-2", oldVersion), machine("m-3", oldVersion)},
			},
			want: summary{
				Assessment: insightsv1alpha1.PoolDegraded, Target: newVersion, Updated: 1, Desired: 3,
				Source: insightsv1alpha1.MachinesFromInPlaceUpgrader, Percent: 33, MinorsBehind: ptr.To(int32(1)),
				Problems: []string{"Error/InplaceUpgradeFailed"}, Updating: metav1.ConditionTrue, Healthy: metav1.ConditionFalse,
			},
		},
		{
			name: "completed",
			in: Input{
				NodePool:          nodesInfo(atVersion(notUpdating(nodePool(hypershift.UpgradeTypeReplace, newImage, 3)), newVersion), map[string]int32{newVersion: 3}),
				HostedCluster:     newCP,
				MachineDeployment: machineDeployment(newVersion, 3, 3),
				Machines:          []*hypershift.Machine{machine("new-1", newVersion), machine("new-2", newVersion), machine("new-3", newVersion)},
			},
			want: summary{
				Assessment: insightsv1alpha1.PoolCompleted, Target: newVersion, Updated: 3, Desired: 3,
				Source: insightsv1alpha1.MachinesFromNodesInfo, Percent: 100, MinorsBehind: ptr.To(int32(0)),
				Updating: metav1.ConditionFalse, Healthy: metav1.ConditionTrue,
			},
		},
		{
			name: "behind the control plane, none updating",
			in: Input{
				NodePool:          notUpdating(nodePool(hypershift.UpgradeTypeReplace, oldImage, 2)),
				HostedCluster:     newCP,
				MachineDeployment: machineDeployment(oldVersion, 2, 2),
				Machines:          []*hypershift.Machine{machine("old-1", oldVersion), machine("old-2", oldVersion)},
			},
			want: summary{
				Assessment: insightsv1alpha1.PoolBehind, Target: oldVersion, Updated: 2, Desired: 2,
				Source: insightsv1alpha1.MachinesFromMachines, Percent: 100, MinorsBehind: ptr.To(int32(1)),
				Updating: metav1.ConditionFalse, Healthy: metav1.ConditionTrue,
			},
		},
		{
			// conditions.go supportedVersionSkewCondition: the
			// NodePool's release against the control plane's.
			name: "beyond n-3",
			in: Input{
				NodePool:      atVersion(notUpdating(nodePool(hypershift.UpgradeTypeReplace, "quay.io/openshift-release-dev/ocp-release:4.17.5-multi", 2)), "4.17.5"),
				HostedCluster: newCP,
				Machines:      []*hypershift.Machine{machine("old-1", "4.17.5"), machine("old-2", "4.17.5")},
			},
			want: summary{
				Assessment: insightsv1alpha1.PoolDegraded, Target: "4.17.5", Updated: 2, Desired: 2,
				Source: insightsv1alpha1.MachinesFromMachines, Percent: 100, MinorsBehind: ptr.To(int32(4)),
				Problems: []string{"Error/BeyondSupportedSkew"}, Updating: metav1.ConditionFalse, Healthy: metav1.ConditionFalse,
			},
		},
		{
			name: "ahead of the control plane",
			in: Input{
				NodePool:          updating(nodePool(hypershift.UpgradeTypeReplace, newImage, 2), newVersion, time.Minute),
				HostedCluster:     hostedCluster(oldVersion, oldImage),
				MachineDeployment: machineDeployment(oldVersion, 2, 2),
				Machines:          []*hypershift.Machine{machine("old-1", oldVersion), machine("old-2", oldVersion)},
			},
			want: summary{
				Assessment: insightsv1alpha1.PoolDegraded, Target: newVersion, Desired: 2,
				Source: insightsv1alpha1.MachinesFromMachines, MinorsBehind: ptr.To(int32(0)),
				Problems: []string{"Error/AheadOfControlPlane"}, Updating: metav1.ConditionTrue, Healthy: metav1.ConditionFalse,
			},
		},
		{
			name: "paused",
			in: Input{
				NodePool:          pausedUntil(updating(nodePool(hypershift.UpgradeTypeReplace, newImage, 2), newVersion, time.Minute), "true"),
				HostedCluster:     newCP,
				MachineDeployment: machineDeployment(oldVersion, 2, 2),
				Machines:          []*hypershift.Machine{machine("old-1", oldVersion), machine("old-2", oldVersion)},
			},
			want: summary{
				Assessment: insightsv1alpha1.PoolExcluded, Target: newVersion, Desired: 2,
				Source: insightsv1alpha1.MachinesFromMachines, MinorsBehind: ptr.To(int32(1)),
				Updating: metav1.ConditionFalse, Healthy: metav1.ConditionTrue,
			},
		},
		{
			name: "paused until a time past",
			in: Input{
				NodePool:          pausedUntil(updating(nodePool(hypershift.UpgradeTypeReplace, newImage, 2), newVersion, time.Minute), now.Add(-time.Hour).Format(time.RFC3339)),
				HostedCluster:     newCP,
				MachineDeployment: machineDeployment(oldVersion, 2, 2),
				Machines:          []*hypershift.Machine{machine("old-1", oldVersion), machine("old-2", oldVersion)},
			},
			want: summary{
				Assessment: insightsv1alpha1.PoolPending, Target: newVersion, Desired: 2,
				Source: insightsv1alpha1.MachinesFromMachines, MinorsBehind: ptr.To(int32(1)),
				Updating: metav1.ConditionFalse, Healthy: metav1.ConditionTrue,
			},
		},
		{
			name: "target not known",
			in: Input{
				NodePool: updatingInPlace(nodePool(hypershift.UpgradeTypeInPlace, newImage, 2), time.Minute, ""),
			},
			want: summary{
				Assessment: insightsv1alpha1.PoolPending, Desired: 2,
				Updating: metav1.ConditionUnknown, Healthy: metav1.ConditionTrue,
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.Now = now
			if diff := cmp.Diff(tc.want, summarize(Assess(tc.in))); diff != "" {
				t.Errorf("Assess (-want +got):\n%s", diff)
			}
		})
	}
}

// updatingInPlace is UpdatingVersion as the NodePool controller sets it on
// an InPlace NodePool, the in-place upgrader's message replacing its own
// (conditions.go updatingVersionCondition).
func updatingInPlace(np *hypershift.NodePool, since time.Duration, message string) *hypershift.NodePool {
	np.Status.Conditions = append(np.Status.Conditions, hypershift.NodePoolCondition{
		Type: hypershift.NodePoolUpdatingVersion, Status: corev1.ConditionTrue, Reason: "AsExpected", Message: message, LastTransitionTime: ago(since),
	})
	return np
}

// inPlaceFailed is UpdatingVersion False, reason InplaceUpgradeFailed
// (nodepool_conditions.go NodePoolInplaceUpgradeFailedReason).
func inPlaceFailed(np *hypershift.NodePool, since time.Duration, message string) *hypershift.NodePool {
	np.Status.Conditions = append(np.Status.Conditions, hypershift.NodePoolCondition{
		Type: hypershift.NodePoolUpdatingVersion, Status: corev1.ConditionFalse, Reason: "InplaceUpgradeFailed", Message: message, LastTransitionTime: ago(since),
	})
	return np
}

func atVersion(np *hypershift.NodePool, v string) *hypershift.NodePool {
	np.Status.Version = v
	return np
}

func pausedUntil(np *hypershift.NodePool, until string) *hypershift.NodePool {
	np.Spec.PausedUntil = ptr.To(until)
	return np
}

// TestAssessKeepsWhatWasWritten checks that a rollout keeps its start and
// its conditions' transition times across assessments.
func TestAssessKeepsWhatWasWritten(t *testing.T) {
	in := Input{
		NodePool:          updating(nodePool(hypershift.UpgradeTypeReplace, newImage, 3), newVersion, time.Hour),
		HostedCluster:     hostedCluster(newVersion, newImage),
		MachineDeployment: machineDeployment(newVersion, 3, 1),
		Machines:          []*hypershift.Machine{machine("new-1", newVersion), machine("old-1", oldVersion), machine("old-2", oldVersion)},
		Now:               now.Add(-30 * time.Minute),
	}
	first := Assess(in)
	in.Previous, in.Now = &first, now
	in.NodePool.Status.Conditions[0].LastTransitionTime = ago(time.Minute)
	second := Assess(in)
	if diff := cmp.Diff(first.StartedAt, second.StartedAt); diff != "" {
		t.Errorf("startedAt (-first +second):\n%s", diff)
	}
	if diff := cmp.Diff(first.Conditions, second.Conditions); diff != "" {
		t.Errorf("conditions (-first +second):\n%s", diff)
	}
}

// A start written before the NodePool controller's UpdatingVersion was seen
// (the operator's first look raced the condition, or it restarted) gives
// way to the condition's earlier transition: the rollout's duration and the
// rate its estimate is made from count from when HyperShift started it.
func TestTheRolloutStartsWhenUpdatingVersionSaysSo(t *testing.T) {
	in := Input{
		NodePool:          updating(nodePool(hypershift.UpgradeTypeReplace, newImage, 3), newVersion, 25*time.Minute),
		HostedCluster:     hostedCluster(newVersion, newImage),
		MachineDeployment: machineDeployment(newVersion, 3, 1),
		Machines:          []*hypershift.Machine{machine("new-1", newVersion), machine("old-1", oldVersion), machine("old-2", oldVersion)},
		Previous:          &insightsv1alpha1.NodePoolProgressInsightStatus{StartedAt: ptr.To(metav1.NewTime(now)), Versions: insightsv1alpha1.NodePoolVersions{Target: newVersion}},
		Now:               now,
	}
	got := Assess(in)
	if want := now.Add(-25 * time.Minute); got.StartedAt == nil || !got.StartedAt.Time.Equal(want) {
		t.Errorf("startedAt %v, want UpdatingVersion's transition %v", got.StartedAt, want)
	}
	if want := now.Add(50 * time.Minute); got.EstimatedCompletedAt == nil || !got.EstimatedCompletedAt.Time.Equal(want) {
		t.Errorf("estimate %v, want %v: one Machine in 25 minutes, two left", got.EstimatedCompletedAt, want)
	}
}

// configUpdating is UpdatingConfig as the NodePool controller sets it while
// a new configuration rolls out, the release unchanged (conditions.go
// updatingConfigCondition).
func configUpdating(np *hypershift.NodePool, since time.Duration, message string) *hypershift.NodePool {
	np.Status.Conditions = append(np.Status.Conditions, hypershift.NodePoolCondition{
		Type: hypershift.NodePoolUpdatingConfig, Status: corev1.ConditionTrue, Reason: "AsExpected", Message: message, LastTransitionTime: ago(since),
	})
	return np
}

func TestANewConfigurationRollsOutLikeARelease(t *testing.T) {
	newCP := hostedCluster(newVersion, newImage)
	for _, tc := range []struct {
		name        string
		in          Input
		want        summary
		wantMessage string
	}{
		{
			// The MachineDeployment's new template: Cluster API replaces
			// the machines, counted by its up-to-date replicas; each
			// Machine's release annotation is the same before and after.
			name: "replace, a new configuration",
			in: Input{
				NodePool:          configUpdating(notUpdating(atVersion(nodePool(hypershift.UpgradeTypeReplace, newImage, 3), newVersion)), 30*time.Minute, "Updating config in progress. Target config: 6f1c2b3a"),
				HostedCluster:     newCP,
				MachineDeployment: machineDeployment(newVersion, 3, 1),
				Machines:          []*hypershift.Machine{machine("new-1", newVersion), draining(machine("old-1", newVersion), 10*time.Minute), machine("old-2", newVersion)},
			},
			want: summary{
				Assessment: insightsv1alpha1.PoolProgressing, Target: newVersion, Updated: 1, Desired: 3,
				Source: insightsv1alpha1.MachinesFromMachineSets, Percent: 33,
				Holding: "old-1", HoldReason: "DrainingNode", HoldSince: now.Add(-10 * time.Minute),
				MinorsBehind: ptr.To(int32(0)), ETA: now.Add(time.Hour), Updating: metav1.ConditionTrue, Healthy: metav1.ConditionTrue,
			},
			wantMessage: "1 of 3 machines run the NodePool's new configuration, still at 4.21.3 (UpdatingConfig: Updating config in progress. Target config: 6f1c2b3a)",
		},
		{
			// The in-place upgrader's count: its message replaces the
			// NodePool controller's.
			name: "in place, a new configuration",
			in: Input{
				NodePool: configUpdating(notUpdating(atVersion(nodePool(hypershift.UpgradeTypeInPlace, newImage, 2), newVersion)), 20*time.Minute,
					"Nodepool update in progress. Target Config version: e5f6a7b8. Total Nodes: 2. Upgraded: 1"),
				HostedCluster: newCP,
				MachineSets: []*hypershift.MachineSet{inPlaceMachineSet(2, map[string]string{
					hypershift.UpgradeInProgressTrueAnnotation: "Nodepool update in progress. Target Config version: e5f6a7b8. Total Nodes: 2. Upgraded: 1"})},
				Machines: []*hypershift.Machine{machine("a", newVersion), machine("b", newVersion)},
			},
			want: summary{
				Assessment: insightsv1alpha1.PoolProgressing, Target: newVersion, Updated: 1, Desired: 2,
				Source: insightsv1alpha1.MachinesFromInPlaceUpgrader, Percent: 50,
				MinorsBehind: ptr.To(int32(0)), ETA: now.Add(20 * time.Minute), Updating: metav1.ConditionTrue, Healthy: metav1.ConditionTrue,
			},
			wantMessage: "1 of 2 machines run the NodePool's new configuration, still at 4.21.3 (UpdatingConfig: Nodepool update in progress. Target Config version: e5f6a7b8. Total Nodes: 2. Upgraded: 1)",
		},
		{
			name: "the new configuration rolled out",
			in: Input{
				NodePool:          notUpdating(atVersion(nodePool(hypershift.UpgradeTypeReplace, newImage, 3), newVersion)),
				HostedCluster:     newCP,
				MachineDeployment: machineDeployment(newVersion, 3, 3),
				Machines:          []*hypershift.Machine{machine("new-1", newVersion), machine("new-2", newVersion), machine("new-3", newVersion)},
			},
			want: summary{
				Assessment: insightsv1alpha1.PoolCompleted, Target: newVersion, Updated: 3, Desired: 3,
				Source: insightsv1alpha1.MachinesFromMachines, Percent: 100,
				MinorsBehind: ptr.To(int32(0)), Updating: metav1.ConditionFalse, Healthy: metav1.ConditionTrue,
			},
			wantMessage: "3 of 3 machines run 4.21.3",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.Now = now
			st := Assess(tc.in)
			if diff := cmp.Diff(tc.want, summarize(st)); diff != "" {
				t.Errorf("assessment (-want +got):\n%s", diff)
			}
			if c := meta.FindStatusCondition(st.Conditions, insightsv1alpha1.HostedProgressInsightUpdating); c == nil || c.Message != tc.wantMessage {
				t.Errorf("Updating %+v, want the message %q", c, tc.wantMessage)
			}
		})
	}
}
