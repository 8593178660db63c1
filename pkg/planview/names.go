package planview

import (
	"cmp"
	"slices"
	"strings"

	"github.com/update-insights/update-insights-operator/pkg/precheck"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// A finding's identity, <informer>/<scope type>/<resources>/<uid>, is what
// the plan's spec stores when it is accepted and what scripts use: it does
// not change while the finding lasts. An administrator types its short name
// instead, which the command resolves against the plan's findings: unique
// within the plan, and so only while the plan's findings are the same.

// candidateNames are a finding's possible short names, shortest first,
// ending with its identity: the name oc knows it by, for the operator's own
// findings (precheck.OCName); its uid, which its informer made unique
// among its findings; its informer and uid; its identity.
func candidateNames(f Finding) []string {
	var out []string
	if f.Informer == updatestatus.BuiltinInformer {
		out = append(out, precheck.OCName(f.UID))
	}
	out = append(out, f.UID, f.Informer+"/"+f.UID, f.Identity)
	out = slices.DeleteFunc(out, func(s string) bool { return s == "" })
	return slices.Compact(out)
}

// shortNames are the short names of the findings that need accepting, by
// identity: each the first of its candidates that is no other finding's
// candidate (findings of one identity, in several pools, are one finding).
// No string a reader might type for one finding then names another, and
// the names depend on the set of findings alone, not on their order.
func shortNames(findings []Finding) map[string]string {
	candidates := map[string][]string{}
	for _, f := range findings {
		if f.NeedsAcceptance {
			candidates[f.Identity] = candidateNames(f)
		}
	}
	holders := map[string]int{}
	for _, c := range candidates {
		for _, name := range c {
			holders[name]++
		}
	}
	names := map[string]string{}
	for identity, c := range candidates {
		names[identity] = identity
		for _, name := range c {
			if holders[name] == 1 {
				names[identity] = name
				break
			}
		}
	}
	return names
}

// ambiguous are the findings that s, no finding's name nor identity, is a
// candidate name of: it named one of them when the plan had fewer
// findings.
func ambiguous(findings []Finding, s string) []Finding {
	var out []Finding
	for _, f := range findings {
		if f.NeedsAcceptance && slices.Contains(candidateNames(f), s) {
			out = append(out, f)
		}
	}
	return out
}

// splitNames splits each of values at its commas into the names and
// identities it lists. An identity holds commas of its own when its finding
// names several resources, so parts are joined back into the longest run
// that is a name or an identity known to the plan; a part that starts none
// stands alone, as a name the plan does not know.
func splitNames(values []string, known func(string) bool) []string {
	var out []string
	for _, v := range values {
		parts := strings.Split(v, ",")
		for i := 0; i < len(parts); {
			end := i + 1
			for j := len(parts); j > end; j-- {
				if known(strings.Join(parts[i:j], ",")) {
					end = j
					break
				}
			}
			if s := strings.Join(parts[i:end], ","); s != "" {
				out = append(out, s)
			}
			i = end
		}
	}
	return out
}

// shorten writes the findings' short names for their identities in s, a
// condition's message that lists them.
func shorten(s string, findings []Finding) string {
	named := slices.DeleteFunc(slices.Clone(findings), func(f Finding) bool { return f.Name == "" || f.Name == f.Identity })
	// The longest identities first: the replacer tries them in order, and
	// an identity may start another.
	slices.SortFunc(named, func(a, b Finding) int { return cmp.Compare(len(b.Identity), len(a.Identity)) })
	var pairs []string
	for _, f := range named {
		pairs = append(pairs, f.Identity, f.Name)
	}
	return strings.NewReplacer(pairs...).Replace(s)
}
