package hostednodepools

import (
	"strings"

	"github.com/update-insights/update-insights-operator/pkg/hypershift"
)

// TargetVersion is the version of the NodePool's release image,
// spec.release.image; "" when it cannot be known. It is read, in turn, from:
//   - the HostedCluster's status.version, the desired release and history
//     mapping images to versions (a NodePool usually runs one of its
//     control plane's releases);
//   - the NodePool's status.version, while its UpdatingVersion condition
//     says nothing is to be rolled out;
//   - the NodePool's UpdatingVersion condition, whose message names the
//     target version (conditions.go updatingVersionCondition, "Updating
//     version in progress. Target version: %s"), on a Replace NodePool;
//   - the MachineDeployment's template, where the NodePool controller writes
//     the target release's version as it rolls it out
//     (hypershift-operator/controllers/nodepool/capi.go
//     reconcileMachineDeployment).
func TargetVersion(np *hypershift.NodePool, hc *hypershift.HostedCluster, md *hypershift.MachineDeployment) string {
	if np == nil {
		return ""
	}
	image := np.Spec.Release.Image
	if hc != nil && hc.Status.Version != nil && image != "" {
		if hc.Status.Version.Desired.Image == image && hc.Status.Version.Desired.Version != "" {
			return hc.Status.Version.Desired.Version
		}
		for _, h := range hc.Status.Version.History {
			if h.Image == image && h.Version != "" {
				return h.Version
			}
		}
	}
	if np.Status.Version != "" && !updatingVersion(np) && image != "" {
		// The NodePool controller sees no version to roll out: its nodes
		// run spec.release.image's version (nodepool_controller.go sets
		// status.version once every machine runs it).
		return np.Status.Version
	}
	if c := np.Condition(hypershift.NodePoolUpdatingVersion); c != nil && c.Status == "True" {
		if _, v, ok := strings.Cut(c.Message, updatingVersionMessage); ok && v != "" && !strings.ContainsAny(v, " \n") {
			return v
		}
	}
	if md != nil && updatingVersion(np) {
		// The template is the NodePool controller's only once it has
		// rolled the target out to it, which UpdatingVersion cannot say:
		// trust it only when it differs from what the nodes run.
		if v := md.Spec.Template.ObjectMeta.Annotations[hypershift.ReleaseVersionAnnotation]; v != "" && v != np.Status.Version {
			return v
		}
	}
	return ""
}

// updatingVersionMessage prefixes the version in the UpdatingVersion
// condition's message (conditions.go updatingVersionCondition).
const updatingVersionMessage = "Updating version in progress. Target version: "

// updatingVersion says whether the NodePool controller sees the NodePool's
// release differ from what its nodes run (conditions.go isUpdatingVersion).
func updatingVersion(np *hypershift.NodePool) bool {
	c := np.Condition(hypershift.NodePoolUpdatingVersion)
	return c != nil && c.Status == "True"
}

// controlPlaneVersion is the version the NodePool's skew is measured against,
// as the NodePool controller picks it: the most recent Completed release of
// the HostedCluster's history, else its latest, else the desired one while
// installing (conditions.go supportedVersionSkewCondition).
func controlPlaneVersion(hc *hypershift.HostedCluster) string {
	if hc == nil || hc.Status.Version == nil {
		return ""
	}
	history := hc.Status.Version.History
	if len(history) == 0 {
		return hc.Status.Version.Desired.Version
	}
	for _, h := range history {
		if h.State == "Completed" {
			return h.Version
		}
	}
	return history[0].Version
}

// configRollout is the condition by which the NodePool controller says it
// rolls a new configuration out to the NodePool's machines: UpdatingConfig
// True, once the configuration's hash (its release aside) differs from the
// one its machines run (conditions.go updatingConfigCondition, "Updating
// config in progress. Target config: %s"), or, on a Replace NodePool,
// UpdatingPlatformMachineTemplate True, once its machine template changed,
// which a MachineDeployment rolls out and an InPlace NodePool's MachineSet
// only gives new machines (capi.go, "platform machine template update in
// progress"); nil when neither is.
func configRollout(np *hypershift.NodePool) *hypershift.NodePoolCondition {
	types := []string{hypershift.NodePoolUpdatingConfig}
	if np.Spec.Management.UpgradeType != hypershift.UpgradeTypeInPlace {
		types = append(types, hypershift.NodePoolUpdatingPlatformMachineTemplate)
	}
	for _, t := range types {
		if c := np.Condition(t); c != nil && c.Status == "True" {
			return c
		}
	}
	return nil
}
