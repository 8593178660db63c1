package protocol

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/update-insights/update-insights-operator/pkg/text"
)

// MaxIdentityLength is the most bytes an identity has: the bound of an
// UpdatePlan's identities and accepted insights.
const MaxIdentityLength = 1024

// Identity is what tells an insight apart from every other insight of every
// informer: <informer name>/<scope type>/<scope resources>/<uid>. Acceptance
// of a risk in an UpdatePlan is by identity, so it must not change while the
// informer reports the same thing: the scope resources are rendered by
// ResourceString, sorted and joined by commas, so their order in the answer
// does not matter.
//
// For example, insight "abc" of informer "mco" about two Nodes of a worker
// pool is "mco/WorkerPool/Node/a,Node/b/abc".
//
// An identity longer than MaxIdentityLength (an insight naming thirty
// nodes) is shortened to its first bytes, "~" and a hash of the whole
// (text.Bounded): it stays stable and distinct, and fits the UpdatePlan.
func Identity(informerName string, insight Insight) string {
	resources := make([]string, 0, len(insight.Scope.Resources))
	for _, r := range insight.Scope.Resources {
		resources = append(resources, ResourceString(r))
	}
	slices.Sort(resources)
	return text.Bounded(strings.Join([]string{informerName, string(insight.Scope.Type), strings.Join(resources, ","), insight.UID}, "/"), MaxIdentityLength)
}

// ResourceString renders a resource as kubectl names one,
// <kind>[.<group>]/[<namespace>/]<name>: "Node/worker-1",
// "Pod/openshift-etcd/etcd-master-0",
// "MachineSet.machine.openshift.io/openshift-machine-api/workers-a". It is
// unambiguous for valid Kubernetes names, which have no "/" or ",", and
// kinds, which have no ".".
func ResourceString(r Resource) string {
	var b strings.Builder
	b.WriteString(r.Kind)
	if r.Group != "" {
		b.WriteString(".")
		b.WriteString(r.Group)
	}
	b.WriteString("/")
	if r.Namespace != "" {
		b.WriteString(r.Namespace)
		b.WriteString("/")
	}
	b.WriteString(r.Name)
	return b.String()
}

// EstimatedFinish is when the insight should pass, with false when the
// informer does not say. A duration counts from the insight's
// acquisitionTime, so an insight that does not say when it was acquired
// cannot carry one.
func EstimatedFinish(insight Insight) (time.Time, bool, error) {
	value := insight.Remediation.EstimatedFinish
	if value == "" {
		return time.Time{}, false, nil
	}
	if t, err := time.Parse(time.RFC3339, value); err == nil {
		if err := CheckTime(t); err != nil {
			return time.Time{}, false, fmt.Errorf("estimatedFinish %q %w", value, err)
		}
		return t, true, nil
	}
	d, err := time.ParseDuration(value)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("estimatedFinish %q is neither an RFC 3339 time nor a duration", value)
	}
	if d < 0 {
		return time.Time{}, false, fmt.Errorf("estimatedFinish %q is a negative duration", value)
	}
	if insight.AcquisitionTime == nil || insight.AcquisitionTime.IsZero() {
		return time.Time{}, false, fmt.Errorf("estimatedFinish %q is a duration, which needs an acquisitionTime to count from", value)
	}
	finish := insight.AcquisitionTime.Add(d)
	if err := CheckTime(finish); err != nil {
		return time.Time{}, false, fmt.Errorf("estimatedFinish %q from acquisitionTime %s %w", value, insight.AcquisitionTime.UTC().Format(time.RFC3339), err)
	}
	return finish, true, nil
}

// The times the API stores: a Kubernetes time is written in UTC as RFC
// 3339, whose years have four digits, and the API server refuses the
// others. A time within range in its own zone may not be in UTC
// (9999-12-31T23:00:00-01:30).
var (
	minTime = time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)
	maxTime = time.Date(9999, time.December, 31, 23, 59, 59, 0, time.UTC)
)

// CheckTime says why the API could not store t, or nothing: it must be
// from year 1 to year 9999 in UTC.
func CheckTime(t time.Time) error {
	if t.Before(minTime) || t.After(maxTime) {
		return fmt.Errorf("is %s in UTC, out of the range the API stores (years 1 to 9999 in UTC)", t.UTC().Format(time.RFC3339))
	}
	return nil
}
