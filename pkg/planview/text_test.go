package planview

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

func TestWriteText(t *testing.T) {
	stale := plan(riskID)
	stale.Status.WorkerPools[0].Informers[0].Stale = true
	nothing := plan()
	nothing.Status.ControlPlane.Informers[0].Insights = nothing.Status.ControlPlane.Informers[0].Insights[:1]
	nothing.Status.WorkerPools = nil
	nothing.Status.Conditions = nothing.Status.Conditions[:1]
	listed := plan()
	listed.Status.Conditions[1].Message = "2 of 2 findings are not accepted: " + riskID + ", " + rebootID + "."
	withdrawn := clusterVersion(metav1.ConditionFalse)
	withdrawn.Status.ConditionalUpdates = nil
	testCases := []struct {
		name       string
		plan       *insightsv1alpha1.UpdatePlan
		notOffered string
		details    bool
		want       string
	}{
		{
			name: "findings to accept",
			plan: plan(riskID),
			want: `Update to:  4.17.3
Evaluated:  2026-11-22T19:59:00Z (1m0s ago)
Status:     The update to 4.17.3 should take about 1h40m (update-insights-operator)

LEVEL     NAME          INFORMER                   ACCEPTED   SUMMARY
Error     OVNHang       update-insights-operator   Yes        Conditional update risk OVNHang applies to the update to 4.17.3: OVN may hang.
Warning   slow-reboot   mco                        No         Node worker-0 reboots slowly

Answered:   True (AllAnswered) The operator's pre-checks and every informer that handles plans (1) answered.
Accepted:   False (FindingsNotAccepted) Some findings are not accepted.

Run with --details for descriptions, references and identities; accept findings with --accept NAME[,NAME...]
`,
		},
		{
			name: "the findings the condition names, by their short names",
			plan: listed,
			want: `Update to:  4.17.3
Evaluated:  2026-11-22T19:59:00Z (1m0s ago)
Status:     The update to 4.17.3 should take about 1h40m (update-insights-operator)

LEVEL     NAME          INFORMER                   ACCEPTED   SUMMARY
Error     OVNHang       update-insights-operator   No         Conditional update risk OVNHang applies to the update to 4.17.3: OVN may hang.
Warning   slow-reboot   mco                        No         Node worker-0 reboots slowly

Answered:   True (AllAnswered) The operator's pre-checks and every informer that handles plans (1) answered.
Accepted:   False (FindingsNotAccepted) 2 of 2 findings are not accepted: OVNHang, slow-reboot.

Run with --details for descriptions, references and identities; accept findings with --accept NAME[,NAME...]
`,
		},
		{
			name: "a stale informer",
			plan: stale,
			want: `Warning: mco did not answer the last evaluation: its findings are from its last answer.

Update to:  4.17.3
Evaluated:  2026-11-22T19:59:00Z (1m0s ago)
Status:     The update to 4.17.3 should take about 1h40m (update-insights-operator)

LEVEL     NAME          INFORMER                   ACCEPTED   SUMMARY
Error     OVNHang       update-insights-operator   Yes        Conditional update risk OVNHang applies to the update to 4.17.3: OVN may hang.
Warning   slow-reboot   mco                        No         Node worker-0 reboots slowly

Answered:   True (AllAnswered) The operator's pre-checks and every informer that handles plans (1) answered.
Accepted:   False (FindingsNotAccepted) Some findings are not accepted.

Run with --details for descriptions, references and identities; accept findings with --accept NAME[,NAME...]
`,
		},
		{
			name:       "a release not offered, said first",
			plan:       stale,
			notOffered: NotOffered(withdrawn, "4.17.3"),
			want: `Warning: 4.17.3 is not an update offered to this cluster: upgrade refuses it until it is. In channel "stable-4.17", the cluster is offered 4.17.2 (recommended).

Warning: mco did not answer the last evaluation: its findings are from its last answer.

Update to:  4.17.3
Evaluated:  2026-11-22T19:59:00Z (1m0s ago)
Status:     The update to 4.17.3 should take about 1h40m (update-insights-operator)

LEVEL     NAME          INFORMER                   ACCEPTED   SUMMARY
Error     OVNHang       update-insights-operator   Yes        Conditional update risk OVNHang applies to the update to 4.17.3: OVN may hang.
Warning   slow-reboot   mco                        No         Node worker-0 reboots slowly

Answered:   True (AllAnswered) The operator's pre-checks and every informer that handles plans (1) answered.
Accepted:   False (FindingsNotAccepted) Some findings are not accepted.

Run with --details for descriptions, references and identities; accept findings with --accept NAME[,NAME...]
`,
		},
		{
			name: "nothing to accept",
			plan: nothing,
			want: `Update to:  4.17.3
Evaluated:  2026-11-22T19:59:00Z (1m0s ago)
Status:     The update to 4.17.3 should take about 1h40m (update-insights-operator)

No finding needs accepting.

Answered:   True (AllAnswered) The operator's pre-checks and every informer that handles plans (1) answered.
Accepted:   Unknown (not reported yet)
`,
		},
		{
			name:    "details",
			plan:    plan(rebootID),
			details: true,
			want: `Update to:  4.17.3
Evaluated:  2026-11-22T19:59:00Z (1m0s ago)

Finding: Conditional update risk OVNHang applies to the update to 4.17.3: OVN may hang.
  Level:       Error
  Impact:      Unknown
  Informer:    update-insights-operator
  Scope:       ControlPlane (ClusterVersion.config.openshift.io/version)
  Accepted:    No
  Name:        OVNHang
  Identity:    update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/risk/OVNHang
  Reference:   https://example.com/ovn
  Description: OVN may hang
               on nodes with many pods.

Finding: Node worker-0 reboots slowly
  Level:       Warning
  Informer:    mco
  Scope:       WorkerPool worker (Node/worker-0)
  Accepted:    Yes
  Name:        slow-reboot
  Identity:    mco/WorkerPool/Node/worker-0/slow-reboot

Finding: The update to 4.17.3 should take about 1h40m
  Level:       Status
  Informer:    update-insights-operator
  Scope:       ControlPlane
  Accepted:    not needed
  Identity:    update-insights-operator/ControlPlane//duration

Answered:   True (AllAnswered) The operator's pre-checks and every informer that handles plans (1) answered.
Accepted:   False (FindingsNotAccepted) Some findings are not accepted.
`,
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			v := Build(tc.plan)
			v.NotOffered = tc.notOffered
			if err := WriteText(&b, v, now, tc.details); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, b.String()); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWriteQuiet(t *testing.T) {
	testCases := []struct {
		name string
		plan *insightsv1alpha1.UpdatePlan
		want string
	}{
		{name: "the unaccepted, the most serious first", plan: plan(), want: riskID + "\n" + rebootID + "\n"},
		{name: "all accepted", plan: plan(riskID, rebootID), want: ""},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteQuiet(&b, Build(tc.plan)); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, b.String()); diff != "" {
				t.Errorf("quiet (-want +got):\n%s", diff)
			}
		})
	}
}
