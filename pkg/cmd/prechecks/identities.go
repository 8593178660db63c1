package prechecks

import (
	"regexp"
	"strings"
)

// identityStart matches the start of a finding's identity,
// <informer>/<scope type>/: an informer's name is a lowercase DNS name, and
// the scope type ControlPlane or WorkerPool.
var identityStart = regexp.MustCompile(`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?/(ControlPlane|WorkerPool)/`)

// splitIdentities splits each flag value's comma-separated identities. An
// identity holds commas itself when its finding names several resources
// (the protocol joins them with ","), so a part that does not start an
// identity continues the one before it: a resource starts with its kind,
// which is capitalized, and an informer's name never is.
func splitIdentities(values []string) []string {
	var out []string
	for _, v := range values {
		first := len(out)
		for _, part := range strings.Split(v, ",") {
			switch {
			case part == "":
			case len(out) > first && !identityStart.MatchString(part):
				out[len(out)-1] += "," + part
			default:
				out = append(out, part)
			}
		}
	}
	return out
}
