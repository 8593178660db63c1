package protocol

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Identity is what tells an insight apart from every other insight of every
// informer: <informer name>/<scope type>/<scope resources>/<uid>. Acceptance
// of a risk in an UpdatePlan is by identity, so it must not change while the
// informer reports the same thing: the scope resources are rendered by
// ResourceString, sorted and joined by commas, so their order in the answer
// does not matter.
//
// For example, insight "abc" of informer "mco" about two Nodes of a worker
// pool is "mco/WorkerPool/Node/a,Node/b/abc".
func Identity(informerName string, insight Insight) string {
	resources := make([]string, 0, len(insight.Scope.Resources))
	for _, r := range insight.Scope.Resources {
		resources = append(resources, ResourceString(r))
	}
	slices.Sort(resources)
	return strings.Join([]string{informerName, string(insight.Scope.Type), strings.Join(resources, ","), insight.UID}, "/")
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
	return insight.AcquisitionTime.Add(d), true, nil
}
