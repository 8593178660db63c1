package precheck

import "strings"

// alertUIDPrefix starts the uid of a firing alert's finding:
// alert/<alert name>/<hash of its labels>.
const alertUIDPrefix = "alert/"

// OCName is the name an administrator who knows oc accepts the finding of
// uid by, or "" when oc has none for it: the issue names of
// `oc adm upgrade recommend --accept` (pkg/cli/admin/upgrade/recommend/
// recommend.go and alerts.go of openshift/oc: Failing, Progressing,
// CannotRetrieveUpdates, and an alert's name), and a conditional update
// risk's name, which `oc adm upgrade accept` takes
// (pkg/cli/admin/upgrade/accept/accept.go). oc accepts every alert of one
// name by that name; each alert is a finding of its own here, so the name
// is a finding's only while no other alert has it.
func OCName(uid string) string {
	switch {
	case uid == uidFailing:
		return "Failing"
	case uid == uidInProgress:
		return "Progressing"
	case uid == uidStaleOffer:
		return "CannotRetrieveUpdates"
	case strings.HasPrefix(uid, riskUIDPrefix):
		return strings.TrimPrefix(uid, riskUIDPrefix)
	case strings.HasPrefix(uid, alertUIDPrefix):
		name, _, _ := strings.Cut(strings.TrimPrefix(uid, alertUIDPrefix), "/")
		return name
	}
	return ""
}
