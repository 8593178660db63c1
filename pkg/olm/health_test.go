package olm

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

func TestHealthFixture(t *testing.T) {
	etcd := insightsv1alpha1.UpdateInsight{
		UID:             "unhealthy/etcd/etcdoperator.v0.9.4",
		AcquisitionTime: mtime(time.Date(2026, 11, 22, 9, 30, 2, 0, time.UTC)),
		Scope: insightsv1alpha1.UpdateInsightScope{
			Type:      insightsv1alpha1.ScopeTypeControlPlane,
			Resources: []insightsv1alpha1.InsightResource{csvRes("etcd", "etcdoperator.v0.9.4"), subRes("etcd", "etcd")},
		},
		Impact: insightsv1alpha1.UpdateInsightImpact{
			Level:   insightsv1alpha1.ErrorInsightLevel,
			Type:    insightsv1alpha1.UpdateInsightImpactType(insightsv1alpha1.UnknownImpactType),
			Summary: "Operator etcd 0.9.4 (etcd/etcdoperator.v0.9.4) is Failed (ComponentUnhealthy) since 2026-11-22T09:30:02Z, during the update",
			Description: `Phase Failed (ComponentUnhealthy): installing: waiting for deployment etcd-operator to become ready: deployment "etcd-operator" not available: Deployment does not have minimum availability.` + "\n" +
				"Available=False (ComponentUnhealthy), Progressing=False (ComponentUnhealthy).\n" +
				"Recent phases, newest first: 2026-11-22T09:40:02Z Failed (ComponentUnhealthy); 2026-11-22T09:30:06Z Installing (InstallSucceeded); " +
				"2026-11-22T09:30:05Z InstallReady (AllRequirementsMet); 2026-11-22T09:30:04Z Pending (NeedsReinstall); 2026-11-22T09:30:02Z Failed (ComponentUnhealthy).",
		},
	}
	foo := insightsv1alpha1.UpdateInsight{
		UID:             "unhealthy/foo/foo-operator.v1.2.0",
		AcquisitionTime: mtime(time.Date(2026, 11, 21, 9, 0, 1, 0, time.UTC)),
		Scope: insightsv1alpha1.UpdateInsightScope{
			Type:      insightsv1alpha1.ScopeTypeControlPlane,
			Resources: []insightsv1alpha1.InsightResource{csvRes("foo", "foo-operator.v1.2.0")},
		},
		Impact: insightsv1alpha1.UpdateInsightImpact{
			Level:   insightsv1alpha1.WarningInsightLevel,
			Type:    insightsv1alpha1.UpdateInsightImpactType(insightsv1alpha1.UnknownImpactType),
			Summary: "Operator Foo Operator 1.2.0 (foo/foo-operator.v1.2.0) is Pending (RequirementsNotMet) since 2026-11-21T09:00:01Z, from before the update started: not caused by it",
			Description: "Phase Pending (RequirementsNotMet): one or more requirements couldn't be found.\n" +
				"Requirement not met: CustomResourceDefinition foos.example.com is NotPresent: CRD is not present\n" +
				"Requirement not met: ServiceAccount foo-operator is NotPresent: Service account does not exist\n" +
				"Available=False (RequirementsNotMet), Progressing=True (RequirementsNotMet).\n" +
				"Recent phases, newest first: 2026-11-21T09:00:01Z Pending (RequirementsNotMet); 2026-11-21T09:00:01Z Pending (RequirementsUnknown).",
		},
	}
	testCases := []struct {
		name        string
		now         time.Time
		want        []insightsv1alpha1.UpdateInsight
		wantRecheck time.Duration
	}{
		{
			name: "etcd failed during the update, foo before it",
			now:  time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC),
			want: []insightsv1alpha1.UpdateInsight{etcd, foo},
		},
		{
			name: "etcd failed 5 minutes ago: due in 4m58s",
			now:  time.Date(2026, 11, 22, 9, 35, 4, 0, time.UTC),
			want: []insightsv1alpha1.UpdateInsight{foo}, wantRecheck: 4*time.Minute + 58*time.Second,
		},
		{
			name: "etcd due exactly",
			now:  time.Date(2026, 11, 22, 9, 40, 2, 0, time.UTC),
			want: []insightsv1alpha1.UpdateInsight{etcd, foo},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got, recheck := Health(HealthInput{Cluster: load(t, operatorsFixture), UpdateStarted: updateStarted, Now: tc.now})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
			if recheck != tc.wantRecheck {
				t.Errorf("recheck %v, want %v", recheck, tc.wantRecheck)
			}
			checkBounds(t, got)
		})
	}
}

// healthText is what a health insight says, for comparing.
type healthText struct {
	UID      string
	Level    insightsv1alpha1.UpdateInsightLevel
	Acquired time.Time
	Summary  string
}

func TestHealth(t *testing.T) {
	testCases := []struct {
		name          string
		updateStarted time.Time
		csvs          []*operatorsv1alpha1.ClusterServiceVersion
		want          []healthText
		wantRecheck   time.Duration
	}{
		{
			name:          "no update in progress",
			updateStarted: time.Time{},
			csvs:          []*operatorsv1alpha1.ClusterServiceVersion{newCSV("ns", "op.v1", failedSince(updateStarted.Add(time.Minute)))},
		},
		{
			name:          "Succeeded again: resolved",
			updateStarted: updateStarted,
			csvs: []*operatorsv1alpha1.ClusterServiceVersion{newCSV("ns", "op.v1", withHistory(
				entry{operatorsv1alpha1.CSVPhaseSucceeded, "InstallSucceeded", updateStarted.Add(-time.Hour)},
				entry{operatorsv1alpha1.CSVPhaseFailed, "ComponentUnhealthy", updateStarted.Add(time.Minute)},
				entry{operatorsv1alpha1.CSVPhaseSucceeded, "InstallSucceeded", updateStarted.Add(30 * time.Minute)},
			))},
		},
		{
			name:          "out of Succeeded for under Settle: not yet, recheck when due",
			updateStarted: updateStarted,
			csvs:          []*operatorsv1alpha1.ClusterServiceVersion{newCSV("ns", "op.v1", failedSince(now.Add(-4*time.Minute)))},
			wantRecheck:   6 * time.Minute,
		},
		{
			name:          "two not yet due: the sooner",
			updateStarted: updateStarted,
			csvs: []*operatorsv1alpha1.ClusterServiceVersion{
				newCSV("ns", "a.v1", failedSince(now.Add(-2*time.Minute))),
				newCSV("ns", "b.v1", failedSince(now.Add(-7*time.Minute))),
				newCSV("ns", "c.v1", failedSince(now.Add(-5*time.Minute))),
			},
			wantRecheck: 3 * time.Minute,
		},
		{
			name:          "one due, one not",
			updateStarted: updateStarted,
			csvs: []*operatorsv1alpha1.ClusterServiceVersion{
				newCSV("ns", "a.v1", failedSince(now.Add(-2*time.Minute))),
				newCSV("ns", "b.v1", failedSince(now.Add(-20*time.Minute))),
			},
			want: []healthText{{
				UID: "unhealthy/ns/b.v1", Level: insightsv1alpha1.ErrorInsightLevel, Acquired: now.Add(-20 * time.Minute),
				Summary: "Operator ns/b.v1 is Failed (ComponentUnhealthy) since 2026-11-22T09:40:00Z, during the update",
			}},
			wantRecheck: 8 * time.Minute,
		},
		{
			name:          "left Succeeded as the update started: during it",
			updateStarted: updateStarted,
			csvs:          []*operatorsv1alpha1.ClusterServiceVersion{newCSV("ns", "op.v1", failedSince(updateStarted))},
			want: []healthText{{
				UID: "unhealthy/ns/op.v1", Level: insightsv1alpha1.ErrorInsightLevel, Acquired: updateStarted,
				Summary: "Operator ns/op.v1 is Failed (ComponentUnhealthy) since 2026-11-22T09:00:00Z, during the update",
			}},
		},
		{
			name:          "left Succeeded a second before the update started: before it",
			updateStarted: updateStarted,
			csvs:          []*operatorsv1alpha1.ClusterServiceVersion{newCSV("ns", "op.v1", failedSince(updateStarted.Add(-time.Second)))},
			want: []healthText{{
				UID: "unhealthy/ns/op.v1", Level: insightsv1alpha1.WarningInsightLevel, Acquired: updateStarted.Add(-time.Second),
				Summary: "Operator ns/op.v1 is Failed (ComponentUnhealthy) since 2026-11-22T08:59:59Z, from before the update started: not caused by it",
			}},
		},
		{
			// OLM moves the old CSV of an operator update to Replacing,
			// then Deleting, as the new one installs: the new one's health
			// is the operator's.
			name:          "an old CSV OLM replaces, then deletes, during the update",
			updateStarted: updateStarted,
			csvs: []*operatorsv1alpha1.ClusterServiceVersion{
				newCSV("ns", "op.v1", withHistory(
					entry{operatorsv1alpha1.CSVPhaseSucceeded, "InstallSucceeded", updateStarted.Add(-time.Hour)},
					entry{operatorsv1alpha1.CSVPhaseReplacing, "BeingReplaced", updateStarted.Add(time.Minute)},
				)),
				newCSV("ns", "op.v0", withHistory(
					entry{operatorsv1alpha1.CSVPhaseSucceeded, "InstallSucceeded", updateStarted.Add(-time.Hour)},
					entry{operatorsv1alpha1.CSVPhaseDeleting, "Replaced", updateStarted.Add(time.Minute)},
				)),
			},
		},
		{
			name:          "a copy",
			updateStarted: updateStarted,
			csvs:          []*operatorsv1alpha1.ClusterServiceVersion{newCSV("ns", "op.v1", failedSince(updateStarted), copiedBy("annotation"))},
		},
		{
			name:          "never Succeeded, the whole history kept, since before the update",
			updateStarted: updateStarted,
			csvs:          []*operatorsv1alpha1.ClusterServiceVersion{newCSV("ns", "op.v1", neverSucceeded(2, updateStarted.Add(-time.Hour)))},
			want: []healthText{{
				UID: "unhealthy/ns/op.v1", Level: insightsv1alpha1.WarningInsightLevel, Acquired: updateStarted.Add(-time.Hour),
				Summary: "Operator ns/op.v1 is Pending (NeedsReinstall) since 2026-11-22T08:00:00Z, from before the update started: not caused by it",
			}},
		},
		{
			name:          "never Succeeded in a full history that starts before the update: or earlier",
			updateStarted: updateStarted,
			csvs:          []*operatorsv1alpha1.ClusterServiceVersion{newCSV("ns", "op.v1", neverSucceeded(20, updateStarted.Add(-time.Hour)))},
			want: []healthText{{
				UID: "unhealthy/ns/op.v1", Level: insightsv1alpha1.WarningInsightLevel, Acquired: updateStarted.Add(-time.Hour),
				Summary: "Operator ns/op.v1 is Installing (InstallSucceeded) since 2026-11-22T08:00:00Z or earlier, from before the update started: not caused by it",
			}},
		},
		{
			// OLM retrying an install fills the 20 entries in minutes:
			// an operator failing since before the update can have a
			// history that starts after it.
			name:          "never Succeeded in a full history that starts after the update: or earlier",
			updateStarted: updateStarted,
			csvs:          []*operatorsv1alpha1.ClusterServiceVersion{newCSV("ns", "op.v1", neverSucceeded(20, updateStarted.Add(30*time.Minute)))},
			want: []healthText{{
				UID: "unhealthy/ns/op.v1", Level: insightsv1alpha1.WarningInsightLevel, Acquired: updateStarted.Add(30 * time.Minute),
				Summary: "Operator ns/op.v1 is Installing (InstallSucceeded) since 2026-11-22T09:30:00Z or earlier: it may have been unhealthy before the update started",
			}},
		},
		{
			name:          "no phase history nor time",
			updateStarted: updateStarted,
			csvs: []*operatorsv1alpha1.ClusterServiceVersion{newCSV("ns", "op.v1", func(csv *operatorsv1alpha1.ClusterServiceVersion) {
				csv.Status = operatorsv1alpha1.ClusterServiceVersionStatus{Phase: operatorsv1alpha1.CSVPhaseFailed}
			})},
			want: []healthText{{
				UID: "unhealthy/ns/op.v1", Level: insightsv1alpha1.WarningInsightLevel,
				Summary: "Operator ns/op.v1 is Failed, since a time its CSV does not tell",
			}},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got, recheck := Health(HealthInput{Cluster: Cluster{CSVs: tc.csvs}, UpdateStarted: tc.updateStarted, Now: now})
			var texts []healthText
			for _, i := range got {
				h := healthText{UID: i.UID, Level: i.Impact.Level, Summary: i.Impact.Summary}
				if i.AcquisitionTime != nil {
					h.Acquired = i.AcquisitionTime.Time
				}
				texts = append(texts, h)
			}
			if diff := cmp.Diff(tc.want, texts); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
			if recheck != tc.wantRecheck {
				t.Errorf("recheck %v, want %v", recheck, tc.wantRecheck)
			}
			checkBounds(t, got)
		})
	}
}

// TestHealthSameWhateverNow: once due, an unchanged cluster gives the same
// insights however much later it is asked.
func TestHealthSameWhateverNow(t *testing.T) {
	testCases := []struct {
		name string
		csv  *operatorsv1alpha1.ClusterServiceVersion
	}{
		{name: "during the update", csv: newCSV("ns", "op.v1", failedSince(updateStarted.Add(5*time.Minute)), withDisplayName("Op", "1.0"))},
		{name: "before the update", csv: newCSV("ns", "op.v1", failedSince(updateStarted.Add(-5*time.Minute)))},
		{name: "full history", csv: newCSV("ns", "op.v1", neverSucceeded(20, updateStarted.Add(-5*time.Minute)))},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			in := HealthInput{Cluster: Cluster{CSVs: []*operatorsv1alpha1.ClusterServiceVersion{tc.csv}}, UpdateStarted: updateStarted}
			in.Now = updateStarted.Add(40 * time.Minute)
			first, _ := Health(in)
			in.Now = updateStarted.Add(7*time.Hour + 13*time.Second)
			second, _ := Health(in)
			if len(first) != 1 {
				t.Fatalf("got %v, want one insight", uids(first))
			}
			if diff := cmp.Diff(first, second); diff != "" {
				t.Errorf("insights at two readings of the clock (-first +second):\n%s", diff)
			}
		})
	}
}

func TestHealthDescription(t *testing.T) {
	csv := newCSV("ns", "op.v1", withHistory(
		entry{operatorsv1alpha1.CSVPhaseSucceeded, "InstallSucceeded", updateStarted.Add(-time.Hour)},
		entry{operatorsv1alpha1.CSVPhaseFailed, "ComponentUnhealthy", updateStarted.Add(1 * time.Minute)},
		entry{operatorsv1alpha1.CSVPhasePending, "NeedsReinstall", updateStarted.Add(2 * time.Minute)},
		entry{operatorsv1alpha1.CSVPhaseInstallReady, "AllRequirementsMet", updateStarted.Add(3 * time.Minute)},
		entry{operatorsv1alpha1.CSVPhaseInstalling, "InstallSucceeded", updateStarted.Add(4 * time.Minute)},
		entry{operatorsv1alpha1.CSVPhaseInstalling, "InstallWaiting", updateStarted.Add(5 * time.Minute)},
		entry{operatorsv1alpha1.CSVPhaseFailed, "InstallCheckFailed", updateStarted.Add(6 * time.Minute)},
	))
	got, _ := Health(HealthInput{Cluster: Cluster{CSVs: []*operatorsv1alpha1.ClusterServiceVersion{csv}}, UpdateStarted: updateStarted, Now: now})
	if len(got) != 1 {
		t.Fatalf("got %v, want one insight", uids(got))
	}
	want := "Phase Failed (InstallCheckFailed): message of InstallCheckFailed.\n" +
		"Available=False (InstallCheckFailed), Progressing=False (InstallCheckFailed).\n" +
		"Recent phases, newest first: 2026-11-22T09:06:00Z Failed (InstallCheckFailed); 2026-11-22T09:05:00Z Installing (InstallWaiting); " +
		"2026-11-22T09:04:00Z Installing (InstallSucceeded); 2026-11-22T09:03:00Z InstallReady (AllRequirementsMet); 2026-11-22T09:02:00Z Pending (NeedsReinstall)."
	if diff := cmp.Diff(want, got[0].Impact.Description); diff != "" {
		t.Errorf("description (-want +got):\n%s", diff)
	}
	if want := updateStarted.Add(time.Minute); !got[0].AcquisitionTime.Time.Equal(want) {
		t.Errorf("acquired at %v, want %v, when it left Succeeded", got[0].AcquisitionTime, want)
	}
}

func TestNotSucceededSince(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	testCases := []struct {
		name      string
		option    csvOption
		wantSince time.Time
		wantExact bool
	}{
		{
			name: "the entry after the last Succeeded",
			option: withHistory(
				entry{operatorsv1alpha1.CSVPhaseSucceeded, "InstallSucceeded", t0},
				entry{operatorsv1alpha1.CSVPhaseFailed, "ComponentUnhealthy", t0.Add(time.Hour)},
				entry{operatorsv1alpha1.CSVPhaseSucceeded, "InstallSucceeded", t0.Add(2 * time.Hour)},
				entry{operatorsv1alpha1.CSVPhaseFailed, "ComponentUnhealthy", t0.Add(3 * time.Hour)},
				entry{operatorsv1alpha1.CSVPhasePending, "NeedsReinstall", t0.Add(4 * time.Hour)},
			),
			wantSince: t0.Add(3 * time.Hour), wantExact: true,
		},
		{
			name: "history ends Succeeded, phase not: the status' transition time",
			option: func(csv *operatorsv1alpha1.ClusterServiceVersion) {
				withHistory(entry{operatorsv1alpha1.CSVPhaseSucceeded, "InstallSucceeded", t0})(csv)
				csv.Status.Phase, csv.Status.Reason, csv.Status.LastTransitionTime = operatorsv1alpha1.CSVPhaseFailed, "ComponentUnhealthy", mtime(t0.Add(time.Hour))
			},
			wantSince: t0.Add(time.Hour), wantExact: true,
		},
		{name: "no Succeeded, 19 entries: the oldest", option: neverSucceeded(19, t0), wantSince: t0, wantExact: true},
		{name: "no Succeeded, 20 entries: the oldest or earlier", option: neverSucceeded(20, t0), wantSince: t0, wantExact: false},
		{
			name: "no history: the status' transition time, or earlier",
			option: func(csv *operatorsv1alpha1.ClusterServiceVersion) {
				csv.Status = operatorsv1alpha1.ClusterServiceVersionStatus{Phase: operatorsv1alpha1.CSVPhaseFailed, LastTransitionTime: mtime(t0)}
			},
			wantSince: t0, wantExact: false,
		},
		{
			name: "nothing tells",
			option: func(csv *operatorsv1alpha1.ClusterServiceVersion) {
				csv.Status = operatorsv1alpha1.ClusterServiceVersionStatus{Phase: operatorsv1alpha1.CSVPhaseFailed}
			},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			since, exact := notSucceededSince(newCSV("ns", "op.v1", tc.option))
			if !since.Equal(tc.wantSince) || exact != tc.wantExact {
				t.Errorf("notSucceededSince = %v, %t; want %v, %t", since, exact, tc.wantSince, tc.wantExact)
			}
		})
	}
}
