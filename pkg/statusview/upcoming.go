package statusview

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// UpcomingState says how far an update an UpdateInformer holds has come.
type UpcomingState string

const (
	// UpcomingScheduled: the update waits for a window that has not opened.
	UpcomingScheduled UpcomingState = "Scheduled"
	// UpcomingStarting: its time has come, and what holds it runs before
	// the ClusterVersion gets it, such as the Managed Upgrade Operator's
	// pre-update health checks.
	UpcomingStarting UpcomingState = "Starting"
)

// Upcoming is an update that an UpdateInformer holds while the control
// plane is not updating: one the ClusterVersion does not have yet.
type Upcoming struct {
	State UpcomingState `json:"state"`
	// Informer is the UpdateInformer that reports it.
	Informer string `json:"informer"`
	// Summary is the informer's insight, in its words, which name the
	// release: the protocol has no field of its own for it.
	Summary string `json:"summary"`
	// WindowOpensAt is, while scheduled, when the window opens, if the
	// informer says.
	WindowOpensAt *metav1.Time `json:"windowOpensAt,omitempty"`
	// Stale says the informer's last call failed: this is from its last
	// good answer.
	Stale bool `json:"stale,omitempty"`
}

// upcoming is the update an informer holds, from its insights on the
// control plane: the first status-level Awaiting Window insight, the one
// the aggregator holds the update with (UpdateActive=False, reason
// AwaitingWindow, pkg/updatestatus). The protocol's contract
// (pkg/informer/protocol/contract.md) gives that insight no release: the
// informer's summary names it, as the managed-upgrade informer's do
// ("Managed update to 4.16.5 scheduled for ..."; "Managed update to
// 4.16.5: ClusterHealthyBeforeUpgrade (step 4 of 17), ..."). Its estimated
// finish is when the window opens: scheduled while that is ahead, starting
// once it has passed or when the informer gives none, as the
// managed-upgrade informer does for a step that holds the update
// (pkg/managedupgrade currentStep).
func upcoming(progress []Progress, now time.Time) (*Upcoming, []Progress) {
	for i, p := range progress {
		if !p.AwaitingWindow {
			continue
		}
		u := &Upcoming{State: UpcomingStarting, Informer: p.Informer, Summary: p.Summary, Stale: p.Stale}
		if p.EstimatedFinish != nil && p.EstimatedFinish.After(now) {
			u.State, u.WindowOpensAt = UpcomingScheduled, p.EstimatedFinish
		}
		rest := append(append([]Progress{}, progress[:i]...), progress[i+1:]...)
		return u, rest
	}
	return nil, progress
}
