package precheck

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/blang/semver/v4"
	apiserverv1 "github.com/openshift/api/apiserver/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// apiRequestsCommand lists the APIs to be removed that were requested, as
// OpenShift's documentation of preparing for a minor update does.
const apiRequestsCommand = "the APIs to be removed, with the Kubernetes release that removes them and their requests in the last 24 hours:\n" +
	`oc get apirequestcounts -o jsonpath='{range .items[?(@.status.removedInRelease!="")]}{.status.removedInRelease}{"\t"}{.status.requestCount}{"\t"}{.metadata.name}{"\n"}{end}'`

const (
	removedAPIUIDPrefix  = "removed-api/"
	uidRemovedAPIsUnread = "removed-apis-unchecked"
	// removedAPIUsers is how many of an API's users a finding names, the
	// most requests first.
	removedAPIUsers = 5
	// deprecationGuide lists what each Kubernetes release removes, and
	// what replaces it.
	deprecationGuide = "https://kubernetes.io/docs/reference/using-api/deprecation-guide/"
)

// kubernetesMinor is the Kubernetes version that an OpenShift release
// ships, as <major>.<minor>: OpenShift 4.N ships Kubernetes 1.(N+13) since
// 4.3 (4.13 ships 1.26, 4.14 1.27, 4.19 1.32), as each release's notes say
// ("OpenShift Container Platform 4.14 ... based on Kubernetes 1.27"), and
// as the admin gates of API removals are named
// (ack-4.13-kube-1.27-api-removals-in-4.14). Of another major it is not
// known: false.
func kubernetesMinor(v semver.Version) (string, bool) {
	if v.Major != 4 || v.Minor < 3 {
		return "", false
	}
	return fmt.Sprintf("1.%d", v.Minor+13), true
}

// removedAPIs: an API that the target's Kubernetes no longer serves, which
// something requested in the last 24 hours, breaks that client once the
// cluster updates. Each APIRequestCount says in which Kubernetes release
// its resource is removed (status.removedInRelease, set by the API server).
func removedAPIs(in *Input) []insightsv1alpha1.UpdateInsight {
	// A patch update keeps the Kubernetes version.
	target, ok := minorUpdateTarget(in)
	if !ok {
		return nil
	}
	// The kube-apiserver counts the requests, and reports whether a removed
	// API still in use holds back the update.
	unchecked := finding{
		uid: uidRemovedAPIsUnread, level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UnknownImpactType,
		scope: controlPlane(clusterOperatorResource("kube-apiserver")),
	}
	targetKube, ok := kubernetesMinor(target)
	if !ok {
		unchecked.summary = fmt.Sprintf("Which APIs the update to %s removes could not be checked: which Kubernetes version OpenShift %d.%d ships is not known here", in.Target, target.Major, target.Minor)
		unchecked.description = "To check by hand: the release notes of " + fmt.Sprintf("%d.%d", target.Major, target.Minor) +
			" name its Kubernetes version and the APIs it removes; " + apiRequestsCommand
		return []insightsv1alpha1.UpdateInsight{unchecked.insight(in.Now)}
	}
	if in.APIRequestCountsUnreadable != nil {
		unchecked.summary = fmt.Sprintf("Which APIs the update to %s (Kubernetes %s) removes while still in use could not be checked", in.Target, targetKube)
		unchecked.description = fmt.Sprintf("The API requests are counted in APIRequestCounts (%s), which could not be read: %v.\nTo check by hand: %s",
			apiserverv1.GroupName, in.APIRequestCountsUnreadable, apiRequestsCommand)
		return []insightsv1alpha1.UpdateInsight{unchecked.insight(in.Now)}
	}
	var out []insightsv1alpha1.UpdateInsight
	for _, c := range in.APIRequestCounts {
		removed := c.Status.RemovedInRelease
		if removed == "" || compareMinor(removed, targetKube) > 0 {
			continue
		}
		requests, users := requestsByUser(c)
		if requests == 0 {
			continue
		}
		out = append(out, removedAPI(in, c.Name, removed, targetKube, requests, users).insight(in.Now))
	}
	return out
}

func removedAPI(in *Input, resource, removed, targetKube string, requests int64, users []userRequests) finding {
	summary := fmt.Sprintf("API %s, which Kubernetes %s removes, was requested %s in the last 24 hours", resource, removed, times(requests))
	if len(users) > 0 {
		summary += ", the most by " + users[0].name
	}
	var d strings.Builder
	fmt.Fprintf(&d, "The update to %s brings Kubernetes %s, which no longer serves %s: the clients still using it fail once the cluster updates, "+
		"unless they move first to a version that is still served (the reference lists the replacements).",
		in.Target, targetKube, resource)
	if len(users) > 0 {
		d.WriteString("\nIts users in the last 24 hours, the most requests first:")
		for _, u := range users[:min(len(users), removedAPIUsers)] {
			fmt.Fprintf(&d, "\n  %s: %s (%s)", u.name, times(u.requests), strings.Join(u.verbs, ", "))
		}
		if len(users) > removedAPIUsers {
			fmt.Fprintf(&d, "\n  and %d more", len(users)-removedAPIUsers)
		}
	}
	gates := gatesCovering(in, removed)
	switch {
	case len(gates) == 0:
		fmt.Fprintf(&d, "\nNo admin gate covers the APIs Kubernetes %s removes: nothing holds the update back while they are in use.", removed)
	default:
		for _, key := range gates {
			if acknowledged(in, key) {
				fmt.Fprintf(&d, "\nAdmin gate %s covers the APIs Kubernetes %s removes, and is acknowledged, although this one is still in use.", key, removed)
			} else {
				fmt.Fprintf(&d, "\nAdmin gate %s covers the APIs Kubernetes %s removes: acknowledge it once no client needs them.", key, removed)
			}
		}
	}
	fmt.Fprintf(&d, "\nWho requested it, and with which client:\n"+
		`oc get apirequestcounts %s -o jsonpath='{range .status.last24h..byUser[*]}{..byVerb[*].verb}{","}{.username}{","}{.userAgent}{"\n"}{end}' | sort -k 2 -t, -u`, resource)
	return finding{
		uid: removedAPIUIDPrefix + resource, level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.APIAvailabilityImpactType,
		scope:       controlPlane(insightsv1alpha1.InsightResource{Group: apiserverv1.GroupName, Kind: "APIRequestCount", Name: resource}),
		summary:     summary,
		description: d.String(),
		reference:   deprecationGuide,
	}
}

// gatesCovering returns the keys of the admin gates whose name says they
// cover the APIs Kubernetes kube removes, as the kube-apiserver operator
// names them: ack-4.13-kube-1.27-api-removals-in-4.14 for those Kubernetes
// 1.27 (OpenShift 4.14) removes.
func gatesCovering(in *Input, kube string) []string {
	if in.AdminGates == nil {
		return nil
	}
	keys := sets.New[string]()
	for key := range in.AdminGates.Data {
		if strings.Contains(key, "-kube-"+kube+"-api-removals-") {
			keys.Insert(key)
		}
	}
	return sets.List(keys)
}

// userRequests is what one user requested of a resource in the last 24
// hours.
type userRequests struct {
	name     string
	requests int64
	verbs    []string
}

// requestsByUser returns the requests of the last 24 hours, and their
// users, the most requests first. The API server reports a resource's
// users per node and hour, the most active ones only
// (spec.numberOfUsersToReport): the users' requests may add up to fewer
// than the total.
func requestsByUser(c *apiserverv1.APIRequestCount) (int64, []userRequests) {
	var total int64
	byName := map[string]*userRequests{}
	for _, hour := range c.Status.Last24h {
		total += hour.RequestCount
		for _, node := range hour.ByNode {
			for _, user := range node.ByUser {
				u := byName[user.UserName]
				if u == nil {
					u = &userRequests{name: user.UserName}
					byName[user.UserName] = u
				}
				u.requests += user.RequestCount
				for _, v := range user.ByVerb {
					if !slices.Contains(u.verbs, v.Verb) {
						u.verbs = append(u.verbs, v.Verb)
					}
				}
			}
		}
	}
	users := make([]userRequests, 0, len(byName))
	for _, u := range byName {
		slices.Sort(u.verbs)
		users = append(users, *u)
	}
	slices.SortFunc(users, func(a, b userRequests) int {
		return cmp.Or(cmp.Compare(b.requests, a.requests), strings.Compare(a.name, b.name))
	})
	return total, users
}

func times(n int64) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

// compareMinor compares two <major>.<minor> versions, as the API server
// writes removedInRelease; one that does not parse as such sorts after
// every other, so that a removal release that cannot be read is not taken
// for a past one.
func compareMinor(a, b string) int {
	pa, okA := parseMinor(a)
	pb, okB := parseMinor(b)
	switch {
	case !okA || !okB:
		return cmp.Compare(boolInt(!okA), boolInt(!okB))
	case pa[0] != pb[0]:
		return cmp.Compare(pa[0], pb[0])
	}
	return cmp.Compare(pa[1], pb[1])
}

func parseMinor(s string) ([2]uint64, bool) {
	major, minor, ok := strings.Cut(s, ".")
	if !ok {
		return [2]uint64{}, false
	}
	ma, errMajor := strconv.ParseUint(major, 10, 64)
	mi, errMinor := strconv.ParseUint(minor, 10, 64)
	return [2]uint64{ma, mi}, errMajor == nil && errMinor == nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
