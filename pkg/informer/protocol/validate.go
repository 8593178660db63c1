package protocol

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// maxReportedErrors bounds how many problems a validation error lists: an
// answer with a thousand bad insights is rejected as surely with five, and
// the message ends up in a condition people read.
const maxReportedErrors = 5

var (
	levels = []Level{LevelStatus, LevelInfo, LevelWarning, LevelError, LevelCritical}

	impactTypes = []ImpactType{ImpactNone, ImpactUnknown, ImpactAPIAvailability, ImpactClusterCapacity,
		ImpactApplicationAvailability, ImpactApplicationOutage, ImpactDataLoss, ImpactUpdateSpeed,
		ImpactUpdateStalled, ImpactAwaitingWindow}

	scopeTypes = []ScopeType{ScopeControlPlane, ScopeWorkerPool}

	responses = []Response{ResponseSuccess, ResponseFailure, ResponseWait}

	handlerNames = []HandlerName{HandlerStatus, HandlerPlan}
)

// Validate says what, if anything, breaks the contract in a discovery
// answer, naming the fields.
func (d *DiscoveryResponse) Validate() error {
	errs := validateTypeMeta(d.TypeMeta, KindDiscoveryResponse)
	if d.APILevel != APILevel {
		errs = append(errs, field.NotSupported(field.NewPath("apiLevel"), d.APILevel, []string{APILevel}))
	}
	seen := map[HandlerName]bool{}
	for i, h := range d.Handlers {
		path := field.NewPath("handlers").Index(i)
		switch {
		case !slices.Contains(handlerNames, h.Name):
			errs = append(errs, field.NotSupported(path.Child("name"), h.Name, handlerNames))
		case seen[h.Name]:
			errs = append(errs, field.Duplicate(path.Child("name"), h.Name))
		}
		seen[h.Name] = true
		if h.TimeoutSeconds != 0 && (h.TimeoutSeconds < MinTimeoutSeconds || h.TimeoutSeconds > MaxTimeoutSeconds) {
			errs = append(errs, field.Invalid(path.Child("timeoutSeconds"), h.TimeoutSeconds,
				fmt.Sprintf("must be from %d to %d", MinTimeoutSeconds, MaxTimeoutSeconds)))
		}
	}
	return aggregate(errs)
}

// Validate says what, if anything, breaks the contract in the request.
func (r *UpdateInsightsRequest) Validate() error {
	return aggregate(validateTypeMeta(r.TypeMeta, KindUpdateInsightsRequest))
}

// Validate says what, if anything, breaks the contract in the request: a
// plan is about a target release, which it must name.
func (r *UpdatePlanInsightsRequest) Validate() error {
	errs := validateTypeMeta(r.TypeMeta, KindUpdatePlanInsightsRequest)
	if r.Spec.TargetControlPlaneVersion == "" {
		errs = append(errs, field.Required(field.NewPath("spec", "targetControlPlaneVersion"), "a plan is about a target release"))
	}
	return aggregate(errs)
}

// Validate says what, if anything, breaks the contract in the answer,
// naming the fields.
func (r *UpdateInsightsResponse) Validate() error {
	return validateResponse(r.TypeMeta, KindUpdateInsightsResponse, r.Spec, r.Status)
}

// Validate says what, if anything, breaks the contract in the answer,
// naming the fields.
func (r *UpdatePlanInsightsResponse) Validate() error {
	return validateResponse(r.TypeMeta, KindUpdatePlanInsightsResponse, r.Spec, r.Status)
}

func validateResponse(meta TypeMeta, kind string, spec ResponseSpec, status ResponseStatus) error {
	errs := validateTypeMeta(meta, kind)
	// Two insights of one informer with one identity would be one insight
	// to the aggregator, and a risk accepted for one would be for both.
	identities := map[string]bool{}
	for i, insight := range spec.Insights {
		path := field.NewPath("spec", "insights").Index(i)
		errs = append(errs, validateInsight(path, insight)...)
		if id := Identity("", insight); insight.UID != "" && identities[id] {
			errs = append(errs, field.Duplicate(path.Child("uid"), insight.UID))
		} else {
			identities[id] = true
		}
	}
	responsePath := field.NewPath("status", "response")
	switch {
	case status.Response == "":
		errs = append(errs, field.Required(responsePath, ""))
	case !slices.Contains(responses, status.Response):
		errs = append(errs, field.NotSupported(responsePath, status.Response, responses))
	}
	return aggregate(errs)
}

func validateInsight(path *field.Path, insight Insight) field.ErrorList {
	var errs field.ErrorList
	if insight.UID == "" {
		errs = append(errs, field.Required(path.Child("uid"), ""))
	}

	scope := path.Child("scope")
	switch {
	case insight.Scope.Type == "":
		errs = append(errs, field.Required(scope.Child("type"), ""))
	case !slices.Contains(scopeTypes, insight.Scope.Type):
		errs = append(errs, field.NotSupported(scope.Child("type"), insight.Scope.Type, scopeTypes))
	}
	if len(insight.Scope.WorkerPool) > 0 && insight.Scope.Type != ScopeWorkerPool {
		errs = append(errs, field.Forbidden(scope.Child("workerPool"), "only with type WorkerPool"))
	}
	errs = append(errs, validateResources(scope.Child("workerPool"), insight.Scope.WorkerPool)...)
	errs = append(errs, validateResources(scope.Child("resources"), insight.Scope.Resources)...)

	impact := path.Child("impact")
	switch {
	case insight.Impact.Level == "":
		errs = append(errs, field.Required(impact.Child("level"), ""))
	case !slices.Contains(levels, insight.Impact.Level):
		errs = append(errs, field.NotSupported(impact.Child("level"), insight.Impact.Level, levels))
	}
	switch {
	case insight.Impact.Type != "" && !slices.Contains(impactTypes, insight.Impact.Type):
		errs = append(errs, field.NotSupported(impact.Child("type"), insight.Impact.Type, impactTypes))
	case insight.Impact.Type == ImpactAwaitingWindow && insight.Impact.Level != LevelStatus:
		errs = append(errs, field.Invalid(impact.Child("type"), insight.Impact.Type, "only at level status"))
	}
	if strings.TrimSpace(insight.Impact.Summary) == "" {
		errs = append(errs, field.Required(impact.Child("summary"), ""))
	}

	if t := insight.AcquisitionTime; t != nil && !t.IsZero() {
		if err := CheckTime(t.Time); err != nil {
			errs = append(errs, field.Invalid(path.Child("acquisitionTime"), t.UTC().Format(time.RFC3339), "acquisitionTime "+err.Error()))
		}
	}
	if _, _, err := EstimatedFinish(insight); err != nil {
		errs = append(errs, field.Invalid(path.Child("remediation", "estimatedFinish"), insight.Remediation.EstimatedFinish, err.Error()))
	}
	return errs
}

func validateResources(path *field.Path, resources []Resource) field.ErrorList {
	var errs field.ErrorList
	for i, r := range resources {
		if r.Kind == "" {
			errs = append(errs, field.Required(path.Index(i).Child("kind"), ""))
		}
		if r.Name == "" {
			errs = append(errs, field.Required(path.Index(i).Child("name"), ""))
		}
	}
	return errs
}

func validateTypeMeta(meta TypeMeta, kind string) field.ErrorList {
	var errs field.ErrorList
	if meta.APIVersion != APIVersion {
		errs = append(errs, field.NotSupported(field.NewPath("apiVersion"), meta.APIVersion, []string{APIVersion}))
	}
	if meta.Kind != kind {
		errs = append(errs, field.NotSupported(field.NewPath("kind"), meta.Kind, []string{kind}))
	}
	return errs
}

// aggregate makes one error of the first few problems, saying how many
// more there are.
func aggregate(errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	shown := make([]string, 0, maxReportedErrors)
	for _, err := range errs[:min(len(errs), maxReportedErrors)] {
		shown = append(shown, err.Error())
	}
	msg := strings.Join(shown, "; ")
	if more := len(errs) - len(shown); more > 0 {
		msg += fmt.Sprintf(" (and %d more)", more)
	}
	return errors.New(msg)
}
