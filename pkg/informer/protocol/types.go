// Package protocol holds the wire types of the UpdateInformer protocol, as
// fixed by pkg/informer/protocol/contract.md, with the rules both sides of
// a call apply to them: validation, an insight's identity and its estimated
// finish. It has no HTTP and no Kubernetes client in it, so that informers,
// the aggregator and tests share one definition of the contract.
package protocol

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// APIVersion is the apiVersion of every request and answer body.
const APIVersion = "config.openshift.io/v1beta1"

// APILevel is the level of the protocol this package speaks, which
// discovery announces and the paths carry.
const APILevel = "v1alpha"

// The paths of the three calls, relative to an informer's base URL.
const (
	DiscoveryPath          = "/hooks.config.openshift.io/v1alpha/discovery"
	UpdateInsightsPath     = "/hooks.config.openshift.io/v1alpha/updateInsights"
	UpdatePlanInsightsPath = "/hooks.config.openshift.io/v1alpha/updatePlanInsights"
)

// The kinds of the bodies.
const (
	KindDiscoveryResponse          = "DiscoveryResponse"
	KindUpdateInsightsRequest      = "UpdateInsightsRequest"
	KindUpdateInsightsResponse     = "UpdateInsightsResponse"
	KindUpdatePlanInsightsRequest  = "UpdatePlanInsightsRequest"
	KindUpdatePlanInsightsResponse = "UpdatePlanInsightsResponse"
)

// ContentType is the media type of every body.
const ContentType = "application/json"

// TypeMeta says what a body is.
type TypeMeta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

// HandlerName names a call an informer may handle.
type HandlerName string

const (
	// HandlerStatus serves updateInsights: insights about the update in
	// progress.
	HandlerStatus HandlerName = "status"
	// HandlerPlan serves updatePlanInsights: what might go wrong if the
	// cluster were updated to a given release.
	HandlerPlan HandlerName = "plan"
)

// The bounds and the default of a handler's timeoutSeconds.
const (
	MinTimeoutSeconds     = 1
	MaxTimeoutSeconds     = 30
	DefaultTimeoutSeconds = 10
)

// DiscoveryResponse says which calls an informer handles, and how long
// each may take.
type DiscoveryResponse struct {
	TypeMeta `json:",inline"`
	APILevel string    `json:"apiLevel"`
	Handlers []Handler `json:"handlers"`
}

// Handler is a call an informer handles.
type Handler struct {
	Name HandlerName `json:"name"`
	// TimeoutSeconds is the budget of one call, 1 to 30; zero (absent)
	// means DefaultTimeoutSeconds.
	TimeoutSeconds int32 `json:"timeoutSeconds,omitempty"`
}

// Timeout is the handler's budget, with the default applied.
func (h Handler) Timeout() time.Duration {
	if h.TimeoutSeconds == 0 {
		return DefaultTimeoutSeconds * time.Second
	}
	return time.Duration(h.TimeoutSeconds) * time.Second
}

// Handler returns the handler of that name, if the informer handles it.
func (d *DiscoveryResponse) Handler(name HandlerName) (Handler, bool) {
	for _, h := range d.Handlers {
		if h.Name == name {
			return h, true
		}
	}
	return Handler{}, false
}

// RequestSpec is what the aggregator tells an informer about the cluster.
type RequestSpec struct {
	// ClusterID identifies the cluster to an informer that asks a remote
	// system.
	ClusterID string `json:"clusterID"`
	// ControlPlaneVersion is the version the control plane runs.
	ControlPlaneVersion string `json:"controlPlaneVersion"`
	// TargetControlPlaneVersion is the version the control plane is
	// updating to, or, in a plan request, the plan's target release.
	TargetControlPlaneVersion string `json:"targetControlPlaneVersion"`
	// InformerUpdate suggests that the informer check for a newer version
	// of itself; an informer may ignore it.
	InformerUpdate bool `json:"informerUpdate"`
}

// UpdateInsightsRequest asks for insights about the update in progress.
type UpdateInsightsRequest struct {
	TypeMeta `json:",inline"`
	Spec     RequestSpec `json:"spec"`
}

// UpdatePlanInsightsRequest asks for insights about an update to
// Spec.TargetControlPlaneVersion, were it started.
type UpdatePlanInsightsRequest struct {
	TypeMeta `json:",inline"`
	Spec     RequestSpec `json:"spec"`
}

// UpdateInsightsResponse answers an UpdateInsightsRequest.
type UpdateInsightsResponse struct {
	TypeMeta `json:",inline"`
	Spec     ResponseSpec   `json:"spec"`
	Status   ResponseStatus `json:"status"`
}

// UpdatePlanInsightsResponse answers an UpdatePlanInsightsRequest.
type UpdatePlanInsightsResponse struct {
	TypeMeta `json:",inline"`
	Spec     ResponseSpec   `json:"spec"`
	Status   ResponseStatus `json:"status"`
}

// ResponseSpec holds the insights of an answer.
type ResponseSpec struct {
	Insights []Insight `json:"insights"`
}

// ResponseStatus says whether the informer answered.
type ResponseStatus struct {
	Response Response `json:"response"`
	Message  string   `json:"message,omitempty"`
}

// Response is an informer's outcome.
type Response string

const (
	// ResponseSuccess: the insights are the informer's current ones.
	ResponseSuccess Response = "Success"
	// ResponseFailure: the informer could not produce its insights; those
	// it sent, if any, explain why.
	ResponseFailure Response = "Failure"
	// ResponseWait: the informer is building fresh data; ask again later.
	ResponseWait Response = "Wait"
)

// Insight is one thing an informer has to say about an update: normal
// progress (level status) or a problem.
type Insight struct {
	// UID identifies the insight among the informer's; an informer keeps it
	// for as long as it reports the same thing.
	UID string `json:"uid"`
	// AcquisitionTime is when the informer learned what the insight says.
	AcquisitionTime *metav1.Time `json:"acquisitionTime,omitempty"`
	Scope           Scope        `json:"scope"`
	Impact          Impact       `json:"impact"`
	Remediation     Remediation  `json:"remediation,omitzero"`
}

// Scope is the part of the cluster an insight is about.
type Scope struct {
	Type ScopeType `json:"type"`
	// WorkerPool names the objects that make up the worker pool (say,
	// MachineSets) when Type is WorkerPool.
	WorkerPool []Resource `json:"workerPool,omitempty"`
	// Resources are the objects involved.
	Resources []Resource `json:"resources,omitempty"`
}

// ScopeType is the part of the cluster an insight is about.
type ScopeType string

const (
	ScopeControlPlane ScopeType = "ControlPlane"
	ScopeWorkerPool   ScopeType = "WorkerPool"
)

// Resource names an object by kind, as people read it.
type Resource struct {
	// Group of the kind, empty for the core group.
	Group string `json:"group,omitempty"`
	Kind  string `json:"kind"`
	// Namespace of the object, empty for cluster-scoped objects.
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// Impact is how an insight affects the update.
type Impact struct {
	Level Level `json:"level"`
	// Type is what the insight affects; it may be left out at level status.
	Type ImpactType `json:"type,omitempty"`
	// Summary is a one-line statement.
	Summary string `json:"summary"`
	// Description explains the insight in enough detail to act on it.
	Description string `json:"description,omitempty"`
}

// Level is how serious an insight is; LevelStatus is normal progress.
type Level string

const (
	LevelStatus   Level = "status"
	LevelInfo     Level = "info"
	LevelWarning  Level = "warning"
	LevelError    Level = "error"
	LevelCritical Level = "critical"
)

// ImpactType is what an insight affects: the insight API's impact types,
// and ImpactAwaitingWindow.
type ImpactType string

const (
	ImpactNone                    ImpactType = "None"
	ImpactUnknown                 ImpactType = "Unknown"
	ImpactAPIAvailability         ImpactType = "API Availability"
	ImpactClusterCapacity         ImpactType = "Cluster Capacity"
	ImpactApplicationAvailability ImpactType = "Application Availability"
	ImpactApplicationOutage       ImpactType = "Application Outage"
	ImpactDataLoss                ImpactType = "Data Loss"
	ImpactUpdateSpeed             ImpactType = "Update Speed"
	ImpactUpdateStalled           ImpactType = "Update Stalled"
	// ImpactAwaitingWindow, at level status only, says that a schedule
	// holds the update of the insight's scope until its estimated finish.
	ImpactAwaitingWindow ImpactType = "Awaiting Window"
)

// Remediation is what to do about an insight, and when it should pass.
type Remediation struct {
	// Reference is a URL to documentation or a runbook.
	Reference string `json:"reference,omitempty"`
	// Resolved false keeps the insight, as last reported, after the
	// informer stops reporting it; absent, an insight no longer reported
	// is resolved.
	Resolved *bool `json:"resolved,omitempty"`
	// EstimatedFinish is when the insight should pass: an RFC 3339 time,
	// or a Go duration ("15m") from AcquisitionTime. EstimatedFinish
	// resolves it.
	EstimatedFinish string `json:"estimatedFinish,omitempty"`
}
