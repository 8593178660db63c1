package updatestatus

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// RefusedReason is the reason an informer whose insights the API server
// refused is reported offline with: its answer was heard, and failed.
const RefusedReason = "Failure"

// maxRefusalMessage bounds the API server's words kept about a refusal.
const maxRefusalMessage = 1024

// informerField is the path of an informer's entry in UpdateStatus' and
// UpdatePlans' status, as the API server names the fields it refuses:
// status.controlPlane.informers[i]... or status.workerPools[p].informers[i]...
var informerField = regexp.MustCompile(`^status\.(?:controlPlane|workerPools\[(\d+)\])\.informers\[(\d+)\]`)

// InformerField says which informer's entry a field the API server refused
// is in: the index of the worker pool (-1 for the control plane) and of
// the informer in it. ok is false for a field outside every informer's
// entry.
func InformerField(field string) (pool, informer int, ok bool) {
	m := informerField.FindStringSubmatch(field)
	if m == nil {
		return 0, 0, false
	}
	pool = -1
	if m[1] != "" {
		p, err := strconv.Atoi(m[1])
		if err != nil {
			return 0, 0, false
		}
		pool = p
	}
	i, err := strconv.Atoi(m[2])
	if err != nil {
		return 0, 0, false
	}
	return pool, i, true
}

// RefusedInformers names the informers whose entries hold the fields the
// API server refused, sorted, each once: name says which informer is at an
// index of the control plane (pool -1) or of a worker pool, if any.
func RefusedInformers(fields []string, name func(pool, informer int) (string, bool)) []string {
	var names []string
	for _, f := range fields {
		pool, i, ok := InformerField(f)
		if !ok {
			continue
		}
		if n, ok := name(pool, i); ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// InformerAt names the informer at an index of status' control plane
// (pool -1) or of a worker pool, for RefusedInformers.
func InformerAt(status *insightsv1alpha1.UpdateStatusStatus) func(pool, informer int) (string, bool) {
	return IndexedInformers(status.ControlPlane.Informers, status.WorkerPools,
		func(p insightsv1alpha1.WorkerPoolUpdateStatus) []insightsv1alpha1.InformerInsights {
			return p.Informers
		},
		func(i insightsv1alpha1.InformerInsights) string { return i.Name })
}

// IndexedInformers names the informer at an index of a status' control
// plane's informers (pool -1) or of a worker pool's, as the API server
// indexes the fields it refuses: UpdateStatus and UpdatePlans hold their
// informers alike, in types of their own.
func IndexedInformers[I, P any](controlPlane []I, pools []P, informers func(P) []I, name func(I) string) func(pool, informer int) (string, bool) {
	return func(pool, informer int) (string, bool) {
		list := controlPlane
		if pool >= 0 {
			if pool >= len(pools) {
				return "", false
			}
			list = informers(pools[pool])
		}
		if informer >= len(list) {
			return "", false
		}
		return name(list[informer]), true
	}
}

// sizeRefusals are what the API server says when etcd or its own client
// refuses an object for its size: etcd's "request is too large" (over
// --max-request-bytes) and gRPC's ResourceExhausted (a message over the
// client's limit), which reach the writer as an internal error.
var sizeRefusals = []string{"request is too large", "ResourceExhausted", "larger than max"}

// ObjectRefused says whether the API server refused a write for what the
// object holds: invalid, malformed or too large, which writing it again
// never mends. A conflict, a timeout or an API server that cannot be
// reached is no refusal: the same object is written once they pass.
func ObjectRefused(err error) bool {
	var status apierrors.APIStatus
	if err == nil || !errors.As(err, &status) {
		return false
	}
	switch {
	case apierrors.IsInvalid(err), apierrors.IsBadRequest(err), apierrors.IsRequestEntityTooLargeError(err):
		return true
	}
	message := status.Status().Message
	return slices.ContainsFunc(sizeRefusals, func(s string) bool { return strings.Contains(message, s) })
}

// Refusals remembers the answers whose insights the API server refused,
// by informer, so that they are left out of every status written until the
// informer answers something else: one informer's insights never keep the
// others' from being written. Not safe for concurrent use.
type Refusals map[string]refusal

type refusal struct {
	insights []insightsv1alpha1.UpdateInsight
	message  string
}

// Refuse records that the API server refused the insights of the answers
// of the informers named, saying message, and returns those informers not
// left out already: none means that leaving out more mends nothing. (The
// operator's own informer keeps warnings of the others' refusals when its
// own insights are left out, so it may be named again.)
func (r Refusals) Refuse(answers []Answer, names []string, message string) []string {
	var refused []string
	for _, a := range answers {
		if previous, ok := r[a.Informer]; ok && equality.Semantic.DeepEqual(previous.insights, a.Insights) {
			continue
		}
		if slices.Contains(names, a.Informer) {
			r[a.Informer] = refusal{insights: a.Insights, message: message}
			refused = append(refused, a.Informer)
		}
	}
	return refused
}

// Notes says, by informer, that its insights are left out of the status
// for a refusal, for the informer's own status.
func (r Refusals) Notes() map[string]string {
	notes := map[string]string{}
	for name, refused := range r {
		notes[name] = text.Truncate("its insights are left out until it answers differently: the API server refused a status holding them: "+refused.message, maxRefusalMessage)
	}
	return notes
}

// Err says, for the operator's own status, which informers are left out for
// a refusal and why; nil when none is.
func (r Refusals) Err(object string) error {
	if len(r) == 0 {
		return nil
	}
	informers := slices.Sorted(maps.Keys(r))
	return fmt.Errorf("%s is written without the insights of %s: the API server refused them: %s",
		object, strings.Join(informers, ", "), text.Truncate(r[informers[0]].message, maxRefusalMessage))
}

// Apply returns answers with each refused one replaced by an offline
// informer without insights, which Compute reports as a warning of the
// built-in informer; a refusal whose informer now answers differently, or
// is gone, is forgotten, and its new answer tried.
func (r Refusals) Apply(answers []Answer) []Answer {
	out := make([]Answer, 0, len(answers))
	present := map[string]bool{}
	for _, a := range answers {
		present[a.Informer] = true
		refused, ok := r[a.Informer]
		if !ok || !equality.Semantic.DeepEqual(refused.insights, a.Insights) {
			delete(r, a.Informer)
			out = append(out, a)
			continue
		}
		out = append(out, Answer{
			Informer: a.Informer,
			Refused:  true,
			Offline:  RefusedReason,
			Problem:  text.Truncate(fmt.Sprintf("the API server refused a status holding its insights, which are left out until it answers differently: %s", refused.message), maxRefusalMessage),
		})
	}
	for name := range r {
		if !present[name] {
			delete(r, name)
		}
	}
	return out
}
