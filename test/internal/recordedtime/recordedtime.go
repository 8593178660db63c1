// Package recordedtime moves a recorded cluster in time, so that it reads as
// recorded moments ago rather than years: run-local plays its update on from
// there, and the browser tests read durations of it that the tab and status
// can be held to.
package recordedtime

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
)

// Move moves the recorded times of c by one amount, which it returns: the
// ClusterVersions' conditions and history and the ClusterOperators'
// conditions, the update's timeline, so that its latest time is last, and
// the MachineConfigPools' and Nodes' conditions with them. Durations
// between them stay as recorded, to the second. A pool's or node's time
// that would then come after last was recorded later than the update (some
// recordings take their nodes from another one) and is placed at last, so
// that nothing reads as happening in the future.
func Move(c *analyze.Cluster, last time.Time) time.Duration {
	var latest time.Time
	timeline(c, func(t *metav1.Time) {
		if t.After(latest) {
			latest = t.Time
		}
	})
	if latest.IsZero() {
		return 0
	}
	delta := last.Sub(latest).Truncate(time.Second)
	move := func(t *metav1.Time) {
		if !t.IsZero() {
			t.Time = t.Add(delta)
		}
	}
	timeline(c, move)
	around(c, func(t *metav1.Time) {
		move(t)
		if t.After(last) {
			t.Time = last
		}
	})
	return delta
}

// timeline calls f with each time of the update's timeline.
func timeline(c *analyze.Cluster, f func(*metav1.Time)) {
	for _, cv := range c.ClusterVersions {
		for i := range cv.Status.Conditions {
			f(&cv.Status.Conditions[i].LastTransitionTime)
		}
		for i := range cv.Status.History {
			f(&cv.Status.History[i].StartedTime)
			if cv.Status.History[i].CompletionTime != nil {
				f(cv.Status.History[i].CompletionTime)
			}
		}
	}
	for _, co := range c.ClusterOperators {
		for i := range co.Status.Conditions {
			f(&co.Status.Conditions[i].LastTransitionTime)
		}
	}
}

// around calls f with each time of the pools and nodes.
func around(c *analyze.Cluster, f func(*metav1.Time)) {
	for _, p := range c.MachineConfigPools {
		for i := range p.Status.Conditions {
			f(&p.Status.Conditions[i].LastTransitionTime)
		}
	}
	for _, n := range c.Nodes {
		for i := range n.Status.Conditions {
			f(&n.Status.Conditions[i].LastTransitionTime)
			f(&n.Status.Conditions[i].LastHeartbeatTime)
		}
	}
}
