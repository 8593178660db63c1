package managedupgrade

import (
	"fmt"
	"strings"
	"time"

	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// PlanInsights are what the managed updates mean for an update to target:
// a managed update to another version, which an update by hand would
// conflict with; or one to target, when it starts and the checks it runs
// first. Updates the operator is finished with say nothing about a plan.
func PlanInsights(in Input, target string) []protocol.Insight {
	var out []protocol.Insight
	for _, u := range updates(in.UpgradeConfigs) {
		desired := u.config.Spec.Desired
		if u.done() || (strings.TrimSpace(desired.Version) == "" && desired.Image == "") {
			continue
		}
		// An UpgradeConfig that names an image alone is compared once the
		// operator's validation has filled its version in from the image:
		// until then it conflicts with any plan.
		if desired.Version != target {
			out = append(out, conflicting(u, in.Now, target))
			continue
		}
		if u.phase() == upgradev1alpha1.PhaseUpgrading {
			out = append(out, insight(u.since(in.Now, u.history.StartTime), u.uid("plan-running"), controlPlane(u.resource()), protocol.LevelStatus, "",
				fmt.Sprintf("The Managed Upgrade Operator is updating the cluster to %s", target), ""))
			continue
		}
		out = append(out, scheduled(u, in.Now, target))
		if checks := preChecks(u.config.Spec.Type, u.config.Spec.CapacityReservation); len(checks) > 0 {
			out = append(out, checksFirst(u, in.Now, checks))
		}
	}
	return out
}

// when says when the update starts, as a sentence ends.
func (u update) when(now time.Time) string {
	switch {
	case u.upgradeAtErr != nil:
		return fmt.Sprintf("at an unknown time (its %v)", u.upgradeAtErr)
	case u.upgradeAt.After(now):
		return fmt.Sprintf("at %s, in %s", timestamp(u.upgradeAt), text.Minutes(u.upgradeAt.Sub(now)))
	}
	return fmt.Sprintf("now (it was scheduled for %s)", timestamp(u.upgradeAt))
}

func conflicting(u update, now time.Time, target string) protocol.Insight {
	verb := "is scheduled to start " + u.when(now)
	if u.phase() == upgradev1alpha1.PhaseUpgrading {
		verb = "is under way"
	}
	description := fmt.Sprintf("The Managed Upgrade Operator drives this cluster's updates from the UpgradeConfig %s/%s, which asks for %s. Updating to %s by hand would race with it; schedule %s as a managed update instead.",
		u.config.Namespace, u.config.Name, u.version(), target, target)
	if u.config.Spec.Desired.Version == "" {
		description += " The image's release version is not known until the Managed Upgrade Operator's validation reads it from the image's registry and writes it in spec.desired.version."
	}
	return insight(u.since(now), u.uid("plan-conflict"), controlPlane(u.resource()), protocol.LevelWarning, protocol.ImpactUpdateStalled,
		fmt.Sprintf("A managed update to %s %s; an update to %s would conflict with it", u.version(), verb, target), description)
}

func scheduled(u update, now time.Time, target string) protocol.Insight {
	i := insight(u.since(now), u.uid("plan-scheduled"), controlPlane(u.resource()), protocol.LevelStatus, "",
		fmt.Sprintf("The Managed Upgrade Operator starts the update to %s %s", target, u.when(now)), "")
	if u.upgradeAtErr == nil && u.upgradeAt.After(now) {
		i.Remediation.EstimatedFinish = finishAt(u.upgradeAt)
	}
	return i
}

// upgrader names the upgrader the operator builds for a type.
func upgrader(t upgradev1alpha1.UpgradeType) string {
	if t == upgradev1alpha1.UpgradeTypeARO {
		return "ARO"
	}
	return "OSD"
}

func checksFirst(u update, now time.Time, checks []upgradev1alpha1.UpgradeConditionType) protocol.Insight {
	names := make([]string, 0, len(checks))
	lines := make([]string, 0, len(checks))
	for _, c := range checks {
		names = append(names, string(c))
		lines = append(lines, fmt.Sprintf("- %s: %s", c, checkDescriptions[c]))
	}
	return insight(u.since(now), u.uid("plan-checks"), controlPlane(u.resource()), protocol.LevelStatus, "",
		fmt.Sprintf("Before it commences the update, the Managed Upgrade Operator runs %s", strings.Join(names, ", ")),
		fmt.Sprintf("The %s upgrader runs these steps first, about every minute until they pass:\n%s",
			upgrader(u.config.Spec.Type), strings.Join(lines, "\n")))
}
