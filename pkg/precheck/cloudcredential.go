package precheck

import (
	"fmt"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	modsemver "golang.org/x/mod/semver"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

const (
	// upgradeableToAnnotation on the CloudCredential says for which minor
	// version an administrator prepared manually maintained credentials.
	upgradeableToAnnotation = "cloudcredential.openshift.io/upgradeable-to"

	uidManualCredentials          = "cloud-credentials/upgradeable-to"
	uidManualCredentialsUnchecked = "cloud-credentials-unchecked"

	manualCredentialsDoc = "https://github.com/openshift/cloud-credential-operator/blob/master/docs/mode-manual-creds.md"
)

// manualCloudCredentials: in Manual mode, the cloud credentials are the
// administrator's to prepare for the target release's CredentialsRequests,
// and the annotation cloudcredential.openshift.io/upgradeable-to on the
// CloudCredential says for which minor version they were.
//
// The comparison is the cloud-credential operator's UpgradeableCheck
// (pkg/operator/utils/utils.go of github.com/openshift/cloud-credential-operator
// at b187feee):
// golang.org/x/mod/semver's MajorMinor of the annotation, with a "v" put in
// front when it has none, against that of the cluster's last completed
// version. The operator cannot know the target: it reports
// Upgradeable=False (MissingUpgradeableAnnotation), which blocks minor
// updates only, unless the annotation is above the cluster's minor
// version. A plan has a target, so the annotation must reach the target's
// minor version: the credentials were prepared for that release. The
// cloud-credential operator also counts a legacy ConfigMap,
// kube-system/cloud-credential-operator-config with disabled: "true", as
// Manual mode when spec.credentialsMode is empty; this check reads
// spec.credentialsMode only.
func manualCloudCredentials(in *Input) []insightsv1alpha1.UpdateInsight {
	// The cloud-credential operator holds back minor updates only.
	target, ok := minorUpdateTarget(in)
	if !ok {
		return nil
	}
	cv := in.ClusterVersion
	targetMinor := fmt.Sprintf("%d.%d", target.Major, target.Minor)
	unchecked := finding{
		uid: uidManualCredentialsUnchecked, level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UnknownImpactType,
		scope:   controlPlane(cloudCredentialResource()),
		summary: fmt.Sprintf("Whether manually maintained cloud credentials are ready for %s could not be checked", targetMinor),
	}
	byHand := fmt.Sprintf("\nTo check by hand: in Manual mode, the cloud credentials must be prepared for the CredentialsRequests of %s "+
		"(`oc adm release extract --credentials-requests --to=<dir> <release image of %s>`) and the CloudCredential annotated with "+
		"%s=%s; its mode and annotation:\n"+
		`oc get cloudcredential %s -o jsonpath='{.spec.credentialsMode}{"\t"}{.metadata.annotations.cloudcredential\.openshift\.io/upgradeable-to}{"\n"}'`,
		in.Target, in.Target, upgradeableToAnnotation, targetMinor, names.CloudCredential)
	switch {
	case in.CloudCredentialUnreadable != nil:
		unchecked.description = fmt.Sprintf("The CloudCredential could not be read: %v.", in.CloudCredentialUnreadable) + byHand
		return []insightsv1alpha1.UpdateInsight{unchecked.insight(in.Now)}
	case in.CloudCredential == nil:
		unchecked.description = fmt.Sprintf("CloudCredential %s does not exist. Without it, the cloud-credential operator cannot tell its mode either, "+
			"and reports Upgradeable=False (ErrorDeterminingUpgradeable).", names.CloudCredential) + byHand
		return []insightsv1alpha1.UpdateInsight{unchecked.insight(in.Now)}
	case in.CloudCredential.Spec.CredentialsMode != operatorv1.CloudCredentialsModeManual:
		return nil
	}
	value, annotated := in.CloudCredential.Annotations[upgradeableToAnnotation]
	upgradeableTo := modsemver.MajorMinor(vPrefixed(value))
	if modsemver.Compare(upgradeableTo, "v"+targetMinor) >= 0 {
		return nil
	}
	f := finding{
		uid: uidManualCredentials, level: insightsv1alpha1.ErrorInsightLevel, impact: insightsv1alpha1.UpdateStalledImpactType,
		scope:     controlPlane(cloudCredentialResource()),
		reference: manualCredentialsDoc,
	}
	switch {
	case !annotated:
		f.summary = fmt.Sprintf("Cloud credentials are maintained manually, and CloudCredential %s does not say they are ready for %s: it has no %s annotation",
			names.CloudCredential, targetMinor, upgradeableToAnnotation)
	case upgradeableTo == "":
		f.summary = fmt.Sprintf("Cloud credentials are maintained manually, and CloudCredential %s does not say they are ready for %s: its %s annotation, %q, is not a version",
			names.CloudCredential, targetMinor, upgradeableToAnnotation, value)
	default:
		f.summary = fmt.Sprintf("Cloud credentials are maintained manually, and CloudCredential %s says they are ready for %s, not %s (annotation %s)",
			names.CloudCredential, strings.TrimPrefix(upgradeableTo, "v"), targetMinor, upgradeableToAnnotation)
	}
	var d strings.Builder
	fmt.Fprintf(&d, "In Manual mode, the cloud-credential operator leaves the cloud credentials to you. Before the update to %s, "+
		"check what the CredentialsRequests of %s ask for, and create or update the credentials and Secrets they need. List them with:\n"+
		"oc adm release extract --credentials-requests --cloud=<aws|azure|gcp|...> --to=credentials-requests %s\n"+
		"Then say the credentials are ready:\n"+
		"oc annotate cloudcredential %s --overwrite %s=%s\n",
		in.Target, in.Target, releaseImage(cv, in.Target), names.CloudCredential, upgradeableToAnnotation, targetMinor)
	switch blocks, currentMinor := credentialsBlock(cv, upgradeableTo); {
	case blocks:
		fmt.Fprintf(&d, "Until the annotation is above %s, the cluster's version, the cloud-credential operator reports Upgradeable=False (MissingUpgradeableAnnotation), "+
			"which blocks minor updates.", currentMinor)
	case currentMinor == "":
		f.level = insightsv1alpha1.WarningInsightLevel
		d.WriteString("The cloud-credential operator holds no update back before the cluster completed one, but nothing says the credentials are ready.")
	default:
		f.level = insightsv1alpha1.WarningInsightLevel
		fmt.Fprintf(&d, "The cloud-credential operator lets the update start, as the annotation is above the cluster's version %s, "+
			"but it says the credentials were prepared for %s only.", currentMinor, strings.TrimPrefix(upgradeableTo, "v"))
	}
	f.description = d.String()
	return []insightsv1alpha1.UpdateInsight{f.insight(in.Now)}
}

// credentialsBlock says whether the cloud-credential operator reports
// Upgradeable=False for this annotation (as a MajorMinor), by its rule, and
// the cluster's minor version it compares with, empty when the cluster
// completed no update yet, which gets no condition. A version that does not
// parse gets Upgradeable=False.
func credentialsBlock(cv *configv1.ClusterVersion, upgradeableTo string) (bool, string) {
	for _, h := range cv.Status.History {
		if h.State != configv1.CompletedUpdate {
			continue
		}
		v := "v" + h.Version
		if !modsemver.IsValid(v) {
			return true, h.Version
		}
		return modsemver.Compare(upgradeableTo, modsemver.MajorMinor(v)) != 1, strings.TrimPrefix(modsemver.MajorMinor(v), "v")
	}
	return false, ""
}

func vPrefixed(s string) string {
	if strings.HasPrefix(s, "v") {
		return s
	}
	return "v" + s
}

// releaseImage is the image of the release the cluster is offered at
// version, or a placeholder.
func releaseImage(cv *configv1.ClusterVersion, version string) string {
	for _, r := range cv.Status.AvailableUpdates {
		if r.Version == version && r.Image != "" {
			return r.Image
		}
	}
	for _, u := range cv.Status.ConditionalUpdates {
		if u.Release.Version == version && u.Release.Image != "" {
			return u.Release.Image
		}
	}
	return "<the release image of " + version + ">"
}

func cloudCredentialResource() insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Group: operatorv1.GroupName, Kind: "CloudCredential", Name: names.CloudCredential}
}
