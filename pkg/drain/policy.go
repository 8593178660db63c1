package drain

import (
	"time"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// Policy is how a drainer treats pods: the options it gives kubectl's drain
// Helper (k8s.io/kubectl/pkg/drain, drain.go's Helper), and the timing of a
// drainer that retries.
type Policy struct {
	// Force deletes pods no controller owns (bare pods); without it the
	// Helper refuses them (filters.go, unreplicatedFilter).
	Force bool
	// IgnoreAllDaemonSets skips DaemonSet pods; without it the Helper refuses
	// them (filters.go, daemonSetFilter).
	IgnoreAllDaemonSets bool
	// DeleteEmptyDirData deletes pods with emptyDir volumes; without it the
	// Helper refuses them (filters.go, localStorageFilter).
	DeleteEmptyDirData bool
	// DisableEviction deletes pods instead of evicting them, so that no
	// budget is consulted (drain.go, DeleteOrEvictPods).
	DisableEviction bool
	// GracePeriodSeconds as the Helper takes it: negative is the pod's own
	// terminationGracePeriodSeconds (drain.go, makeDeleteOptions).
	GracePeriodSeconds int
	// SkipWaitForDeleteTimeoutSeconds: pods whose deletionTimestamp passed
	// more than this many seconds ago are skipped by the Helper (a NotReady
	// kubelet never confirms their deletion); 0 is never (filters.go,
	// shouldSkipPod).
	SkipWaitForDeleteTimeoutSeconds int
	// UnreachableSkipWaitForDeleteTimeoutSeconds replaces
	// SkipWaitForDeleteTimeoutSeconds on a node whose Ready condition is
	// Unknown, for a drainer that sets it only there; 0 keeps it.
	UnreachableSkipWaitForDeleteTimeoutSeconds int
	// SkipPodNamedAfterNode is a drainer's own filter (the Helper's
	// AdditionalFilters, which run after its own): the pod named this
	// followed by the node's name, in any namespace, is skipped; "" is none.
	SkipPodNamedAfterNode string
	// WarnAfter is how long a block lasts before it is a Warning, and
	// ErrorAfter before it is an Error; an ErrorAfter of 0 is never.
	WarnAfter, ErrorAfter time.Duration
}

// The machine-config operator's drain controller's timing
// (pkg/controller/drain/drain_controller.go, DefaultConfig).
const (
	// mcoDrainHelperTimeout is DrainHelperTimeout: one attempt, the Helper's
	// Timeout, after which RunNodeDrain fails and the controller logs "Drain
	// failed" and retries: the first refused attempt.
	mcoDrainHelperTimeout = 90 * time.Second
	// mcoDrainTimeoutDuration is DrainTimeoutDuration: an attempt that starts
	// when the drain has gone on longer than this sets the mcc_drain_err
	// gauge (drainNode), on which the MCCDrainError alert fires at once
	// (install/0000_90_machine-config_01_prometheus-rules.yaml, no "for"),
	// and records a DrainFailed Event. Attempts are retried every
	// DrainRequeueDelay (1 minute), every DrainRequeueFailingDelay (5
	// minutes) once the drain has failed for DrainRequeueFailingThreshold
	// (10 minutes), so the error comes up to 5 minutes and an attempt after
	// this threshold; never before it.
	mcoDrainTimeoutDuration = time.Hour
)

// MCO is the machine-config operator's drain controller's policy: the Helper
// it builds in syncNode (pkg/controller/drain/drain_controller.go: Force,
// IgnoreAllDaemonSets, DeleteEmptyDirData, GracePeriodSeconds -1, Timeout
// DrainHelperTimeout, EvictErrorRetryDelay 5s, no
// SkipWaitForDeleteTimeoutSeconds), evicting since the API server serves
// pods/eviction, Warning after its first refused attempt and Error once it
// would raise its drain error.
var MCO = Policy{
	Force:               true,
	IgnoreAllDaemonSets: true,
	DeleteEmptyDirData:  true,
	GracePeriodSeconds:  -1,
	WarnAfter:           mcoDrainHelperTimeout,
	ErrorAfter:          mcoDrainTimeoutDuration,
}

// The HyperShift drainer's timing (control-plane-operator/
// hostedclusterconfigoperator/controllers/drainer/drainer.go).
const (
	// hyperShiftDrainTimeout is its Helper's Timeout: RunNodeDrain fails
	// after it, the reconciler logs "failed to drain node" and the drain is
	// retried: the first refused attempt.
	hyperShiftDrainTimeout = 90 * time.Second
	// hyperShiftUnreachableSkipSeconds is its SkipWaitForDeleteTimeoutSeconds
	// on an unreachable node (isNodeUnreachable: Ready Unknown), "copied
	// from cluster-api".
	hyperShiftUnreachableSkipSeconds = 5 * 60
	// hyperShiftUpgradePod starts the name of the in-place upgrade pod of a
	// node (machineConfigDaemonPodNameFormat, "machine-config-daemon-%s"),
	// a bare pod the in-place upgrader runs on the node and the drainer's
	// AdditionalFilters skip.
	hyperShiftUpgradePod = "machine-config-daemon-"
)

// HyperShift is the policy of the HyperShift drainer, which drains the
// nodes of a NodePool updated in place when the machine-config daemon asks
// it on the node's desiredDrain annotation: the Helper it builds in
// handleNodeDrainRequest (drainer.go: Force, IgnoreAllDaemonSets,
// DeleteEmptyDirData, GracePeriodSeconds -1, Timeout 90s, an
// AdditionalFilters entry that skips the node's upgrade pod, and
// SkipWaitForDeleteTimeoutSeconds 300 on an unreachable node only),
// evicting since the API server serves pods/eviction. A refused attempt
// returns an error with RequeueAfter one minute, which controller-runtime
// ignores for the error's rate-limited requeue (exponential, up to 1000s),
// and the node's updates requeue it too. The drainer raises nothing but a
// log line (its "TODO ... error reporting to the nodepool status"), so a
// block is a Warning after the first refused attempt and never an Error.
var HyperShift = Policy{
	Force:               true,
	IgnoreAllDaemonSets: true,
	DeleteEmptyDirData:  true,
	GracePeriodSeconds:  -1,
	UnreachableSkipWaitForDeleteTimeoutSeconds: hyperShiftUnreachableSkipSeconds,
	SkipPodNamedAfterNode:                      hyperShiftUpgradePod,
	WarnAfter:                                  hyperShiftDrainTimeout,
}

// Level is what a block deserves at now under the policy's timing: "" for a
// pod that does not block or has blocked for less than WarnAfter, then
// WarningImpactLevel, then ErrorImpactLevel from ErrorAfter on. A block
// counts from Since, never before the drain's start, so it is never an Error
// before the drainer would raise its own. A block whose start is not known
// counts as just begun.
func (p Pod) Level(policy Policy, now time.Time) insightsv1alpha1.InsightImpactLevel {
	if p.Verdict != Blocking {
		return ""
	}
	var lasted time.Duration
	if !p.Since.IsZero() && now.After(p.Since) {
		lasted = now.Sub(p.Since)
	}
	switch {
	case policy.ErrorAfter > 0 && lasted >= policy.ErrorAfter:
		return insightsv1alpha1.ErrorImpactLevel
	case lasted >= policy.WarnAfter:
		return insightsv1alpha1.WarningImpactLevel
	}
	return ""
}
