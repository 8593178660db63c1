package precheck

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/blang/semver/v4"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// The administrator acknowledgements follow the cluster-version operator's
// own check, pkg/risk/adminack/adminack.go of
// github.com/openshift/cluster-version-operator at 6e719331 (until
// ea13ba61, in pkg/cvo/upgradeable.go):
//
//   - every key of the admin-gates ConfigMap's data is a gate, and must
//     match adminAckGateFmt, ack-<major.minor>-<name>; a key that does not,
//     or whose version does not parse, is an invalid gate;
//   - a gate applies when its major.minor is that of the release the
//     cluster-version operator runs (status.desired), and then to every
//     update to a newer minor or major version (a version that does not
//     parse counts as one), never to a patch update;
//   - a gate that applies must have a non-empty value, its text;
//   - it is acknowledged when the admin-acks ConfigMap's data has the same
//     key with the value "true", exactly;
//   - a missing admin-gates or admin-acks ConfigMap is the risk
//     AdminAckUnknown, which blocks minor updates like an unacknowledged
//     gate. The cluster-version operator creates both from its manifests
//     (admin-acks only when missing), so that state does not last.
//
// Every risk of that source, an invalid gate among them, is reported in
// Upgradeable=False; the notUpgradeable check reports that condition.
var adminAckGate = regexp.MustCompile(`^ack-([4-5][.][0-9]{1,})-[^-]`)

// gateURL is how the cluster-version operator finds a gate's reference in
// its text: the first https URL.
var gateURL = regexp.MustCompile(`https://[^[:space:]]*`)

const (
	uidAdminGatesMissing = "admin-gates-missing"
	uidAdminAcksMissing  = "admin-acks-missing"
	adminGateUIDPrefix   = "admin-gate/"
)

// adminGates: a minor update waits for the administrator to acknowledge
// every gate that applies to it.
func adminGates(in *Input) []insightsv1alpha1.UpdateInsight {
	cv := in.ClusterVersion
	if cv == nil {
		return nil
	}
	current, err := semver.Parse(CurrentRelease(cv))
	if err != nil {
		// The cluster-version operator then reports the risk
		// AdminAckUnknown in Upgradeable=False, which notUpgradeable
		// reports.
		return nil
	}
	if target, err := semver.Parse(in.Target); err == nil && !newerMinor(current, target) {
		return nil
	}
	if in.AdminGates == nil {
		return []insightsv1alpha1.UpdateInsight{finding{
			uid: uidAdminGatesMissing, level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UpdateStalledImpactType,
			scope:   controlPlane(adminGatesResource()),
			summary: fmt.Sprintf("ConfigMap %s/%s does not exist: which administrator acknowledgements the update to %s needs cannot be told", names.ConfigManagedNamespace, names.AdminGates, in.Target),
			description: "The cluster-version operator creates it from its release manifests. While it is missing, the cluster-version operator " +
				"reports the risk AdminAckUnknown, which blocks minor updates (Upgradeable=False), and checks no gate.",
		}.insight(in.Now)}
	}
	var out []insightsv1alpha1.UpdateInsight
	if in.AdminAcks == nil {
		out = append(out, finding{
			uid: uidAdminAcksMissing, level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UpdateStalledImpactType,
			scope:   controlPlane(adminAcksResource()),
			summary: fmt.Sprintf("ConfigMap %s/%s does not exist, so no administrator acknowledgement is recorded", names.ConfigNamespace, names.AdminAcks),
			description: "The cluster-version operator creates it, empty, from its release manifests. While it is missing, the cluster-version operator " +
				"reports the risk AdminAckUnknown, which blocks minor updates (Upgradeable=False). To create it yourself:\n" +
				fmt.Sprintf("oc -n %s create configmap %s", names.ConfigNamespace, names.AdminAcks),
		}.insight(in.Now))
	}
	for _, key := range slices.Sorted(maps.Keys(in.AdminGates.Data)) {
		text := in.AdminGates.Data[key]
		applies, why := gateApplies(key, current)
		switch {
		case why != "":
			out = append(out, malformedGate(in, key, why))
		case !applies:
		case text == "":
			out = append(out, malformedGate(in, key, "it applies to this cluster's version, and has no text"))
		case acknowledged(in, key):
		default:
			f := finding{
				uid: gateUID(key), level: insightsv1alpha1.ErrorInsightLevel, impact: insightsv1alpha1.UpdateStalledImpactType,
				scope:   controlPlane(adminGatesResource()),
				summary: fmt.Sprintf("The update to %s waits for the administrator to acknowledge %s: %s", in.Target, key, firstSentence(text)),
				description: text + "\nThe cluster-version operator starts no minor update until it is acknowledged. " +
					"Once you have done what it asks, acknowledge it:\n" + ackCommand(key),
				reference: gateURL.FindString(text),
			}
			out = append(out, f.insight(in.Now))
		}
	}
	return out
}

// gateApplies says whether the gate named key applies to updates from
// current, or why the cluster-version operator rejects it.
func gateApplies(key string, current semver.Version) (bool, string) {
	m := adminAckGate.FindStringSubmatch(key)
	if m == nil {
		return false, fmt.Sprintf("its name does not match %s", adminAckGate)
	}
	version, err := semver.Parse(m[1] + ".0")
	if err != nil {
		return false, fmt.Sprintf("its version %s is not one: %v", m[1], err)
	}
	return version.Major == current.Major && version.Minor == current.Minor, ""
}

// firstSentence is the first sentence of a gate's text, or its first line.
func firstSentence(s string) string {
	line := firstLine(s)
	if sentence, _, ok := strings.Cut(line, ". "); ok {
		return sentence + "."
	}
	return line
}

func malformedGate(in *Input, key, why string) insightsv1alpha1.UpdateInsight {
	return finding{
		uid: gateUID(key), level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UpdateStalledImpactType,
		scope:   controlPlane(adminGatesResource()),
		summary: fmt.Sprintf("Admin gate %s of ConfigMap %s/%s is malformed: %s", key, names.ConfigManagedNamespace, names.AdminGates, why),
		description: "The cluster-version operator reports a malformed gate as a risk of every minor update (Upgradeable=False), " +
			"which no acknowledgement clears: the gate has to be corrected or removed.",
	}.insight(in.Now)
}

func acknowledged(in *Input, key string) bool {
	return in.AdminAcks != nil && in.AdminAcks.Data[key] == "true"
}

// ackCommand acknowledges the gate named key, as OpenShift's documentation
// does.
func ackCommand(key string) string {
	return fmt.Sprintf(`oc -n %s patch configmap %s --patch '{"data":{"%s":"true"}}' --type=merge`, names.ConfigNamespace, names.AdminAcks, key)
}

// gateUID names a gate's finding: a ConfigMap key may be longer than a uid.
func gateUID(key string) string {
	if len(adminGateUIDPrefix+key) > 128 {
		return adminGateUIDPrefix + shortHash(key)
	}
	return adminGateUIDPrefix + key
}

func adminGatesResource() insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Kind: "ConfigMap", Namespace: names.ConfigManagedNamespace, Name: names.AdminGates}
}

func adminAcksResource() insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Kind: "ConfigMap", Namespace: names.ConfigNamespace, Name: names.AdminAcks}
}
