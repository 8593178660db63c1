package updateinformers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/text"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// HeartbeatWriteInterval is how stale lastHeartbeatTime may be: it moves
// only when a minute older than a successful call, so that an informer
// polled every few seconds is not written at each poll.
const HeartbeatWriteInterval = time.Minute

// The reasons of the conditions when they are True.
const (
	reasonCalled     = "Called"
	reasonDiscovered = "Discovered"
	maxMessageLength = 1024
)

// discoveryResult is what discovery said, in the API's terms.
type discoveryResult struct {
	apiLevel      string
	handlers      []insightsv1alpha1.InformerHandler
	status        bool
	statusTimeout time.Duration
}

func newDiscoveryResult(d *protocol.DiscoveryResponse) *discoveryResult {
	r := &discoveryResult{apiLevel: d.APILevel}
	for _, h := range d.Handlers {
		r.handlers = append(r.handlers, insightsv1alpha1.InformerHandler{
			Name:           insightsv1alpha1.InformerHandlerName(h.Name),
			TimeoutSeconds: int32(h.Timeout() / time.Second),
		})
	}
	if h, ok := d.Handler(protocol.HandlerStatus); ok {
		r.status, r.statusTimeout = true, h.Timeout()
	}
	return r
}

// request tells the informer about the cluster: its ID, the version its
// control plane last completed an update to, and the one it updates to.
func request(cv *configv1.ClusterVersion) *protocol.UpdateInsightsRequest {
	req := &protocol.UpdateInsightsRequest{}
	if cv == nil {
		return req
	}
	req.Spec.ClusterID = string(cv.Spec.ClusterID)
	req.Spec.TargetControlPlaneVersion = cv.Status.Desired.Version
	for _, h := range cv.Status.History {
		if h.State == configv1.CompletedUpdate {
			req.Spec.ControlPlaneVersion = h.Version
			break
		}
	}
	return req
}

// reasonOf is the Online=False reason of a failure.
func reasonOf(err error) string {
	var u *unreachableError
	if errors.As(err, &u) {
		return insightsv1alpha1.InformerUnreachable
	}
	if r := client.ReasonOf(err); r != "" {
		return string(r)
	}
	return insightsv1alpha1.InformerFailure
}

// answerOf is the informer's answer as UpdateStatus shows it:
// after a failure, the last good insights, stale, and why it is offline.
func answerOf(name string, s *state) updatestatus.Answer {
	answer := updatestatus.Answer{Informer: name, Insights: s.good}
	if s.callErr != nil {
		answer.Stale = len(s.good) > 0
		answer.Offline, answer.Problem = reasonOf(s.callErr), text.Truncate(s.callErr.Error(), maxMessageLength)
	} else {
		answer.Problem = s.skipped
	}
	return answer
}

// desiredStatus is the UpdateInformer's status after the informer's
// calls: Online after the last call, Discovered after the last discovery,
// and what discovery said. Online's message counts what UpdateStatus and
// the UpdatePlans left out of its answer or shortened, which note says.
func desiredStatus(informer *insightsv1alpha1.UpdateInformer, s *state, note string, now time.Time) insightsv1alpha1.UpdateInformerStatus {
	status := *informer.Status.DeepCopy()
	if s.discovered != nil {
		status.APILevel, status.Handlers = s.discovered.apiLevel, s.discovered.handlers
	}
	switch {
	case s.discoveryErr != nil:
		setCondition(&status, informer, insightsv1alpha1.InformerDiscovered, metav1.ConditionFalse, insightsv1alpha1.InformerDiscoveryFailed, s.discoveryErr.Error(), now)
	case s.discovered != nil:
		setCondition(&status, informer, insightsv1alpha1.InformerDiscovered, metav1.ConditionTrue, reasonDiscovered, "The informer handles: "+handlerList(s.discovered.handlers)+".", now)
	}
	if note != "" {
		note = " " + note
	}
	if s.callErr != nil {
		setCondition(&status, informer, insightsv1alpha1.InformerOnline, metav1.ConditionFalse, reasonOf(s.callErr), s.callErr.Error()+note, now)
		return status
	}
	if !s.succeeded {
		return status
	}
	message := "The last call succeeded."
	if s.skipped != "" {
		message += " " + s.skipped
	}
	message += note
	setCondition(&status, informer, insightsv1alpha1.InformerOnline, metav1.ConditionTrue, reasonCalled, message, now)
	if last := status.LastHeartbeatTime; last == nil || now.Sub(last.Time) >= HeartbeatWriteInterval {
		t := metav1.NewTime(now)
		status.LastHeartbeatTime = &t
	}
	return status
}

// disabledStatus says that the informer is not called.
func disabledStatus(informer *insightsv1alpha1.UpdateInformer, now time.Time) insightsv1alpha1.UpdateInformerStatus {
	status := *informer.Status.DeepCopy()
	setCondition(&status, informer, insightsv1alpha1.InformerOnline, metav1.ConditionFalse, insightsv1alpha1.InformerDisabled,
		"The informer is disabled: it is not called, and its insights are not in UpdateStatus.", now)
	return status
}

func handlerList(handlers []insightsv1alpha1.InformerHandler) string {
	if len(handlers) == 0 {
		return "nothing"
	}
	var names []string
	for _, h := range handlers {
		names = append(names, fmt.Sprintf("%s (%ds)", h.Name, h.TimeoutSeconds))
	}
	return strings.Join(names, ", ")
}

// setCondition sets a condition, keeping its transition time while its
// status stays.
func setCondition(status *insightsv1alpha1.UpdateInformerStatus, informer *insightsv1alpha1.UpdateInformer, kind string, value metav1.ConditionStatus, reason, message string, now time.Time) {
	meta.SetStatusCondition(&status.Conditions, metav1.Condition{
		Type: kind, Status: value, Reason: reason,
		Message:            text.Truncate(message, maxMessageLength),
		ObservedGeneration: informer.Generation,
		LastTransitionTime: metav1.NewTime(now),
	})
}

// writeStatus writes the informer's status if it changed.
func (c *Controller) writeStatus(ctx context.Context, informer *insightsv1alpha1.UpdateInformer, desired insightsv1alpha1.UpdateInformerStatus) error {
	if equality.Semantic.DeepEqual(informer.Status, desired) {
		return nil
	}
	updated := informer.DeepCopy()
	updated.Status = desired
	if _, err := c.client.UpdateInformers().UpdateStatus(ctx, updated, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("writing the status of UpdateInformer %s: %w", informer.Name, err)
	}
	klog.V(4).InfoS("Updated UpdateInformer status", "name", informer.Name)
	return nil
}
