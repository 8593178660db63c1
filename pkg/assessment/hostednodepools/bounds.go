package hostednodepools

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// The CRD's bounds (types_nodepool.go, types_hostedcluster.go HostedProblem,
// types_common.go ResourceRef; metav1.Condition's own).
const (
	maxNameLength      = 253
	maxNamespaceLength = 63
	maxVersionLength   = 256
	maxReasonLength    = 1024
	maxMessageLength   = 4096
	maxProblems        = 16
)

// cutMarker ends a string cut to its bound.
const cutMarker = "…"

// conditionReason is metav1.Condition's reason pattern.
var conditionReason = regexp.MustCompile(`^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`)

// levelRank orders problems most serious first.
var levelRank = map[insightsv1alpha1.InsightImpactLevel]int{
	insightsv1alpha1.CriticalImpactLevel: 0,
	insightsv1alpha1.ErrorImpactLevel:    1,
	insightsv1alpha1.WarningImpactLevel:  2,
	insightsv1alpha1.InfoImpactLevel:     3,
	insightsv1alpha1.UnknownImpactLevel:  4,
}

// bound cuts what Assess built, from objects of any content, to what the
// API server accepts.
func bound(st insightsv1alpha1.NodePoolProgressInsightStatus) insightsv1alpha1.NodePoolProgressInsightStatus {
	st.HostedCluster = cut(st.HostedCluster, maxNameLength)
	if st.HostedCluster == "" {
		st.HostedCluster = "Unknown"
	}
	st.Versions.Current = cut(st.Versions.Current, maxVersionLength)
	st.Versions.Target = cut(st.Versions.Target, maxVersionLength)
	st.CompletionPercent = min(max(st.CompletionPercent, 0), 100)
	if h := st.HoldingMachine; h != nil {
		h.Name = cut(h.Name, maxNameLength)
		h.Node = cut(h.Node, maxNameLength)
		h.Reason = cut(h.Reason, maxReasonLength)
		if h.Reason == "" {
			h.Reason = "Unknown"
		}
		h.Message = cut(h.Message, maxMessageLength)
		if h.Name == "" {
			st.HoldingMachine = nil
		}
	}
	st.Problems = boundProblems(st.Problems)
	for i := range st.Conditions {
		c := &st.Conditions[i]
		if !conditionReason.MatchString(c.Reason) || len(c.Reason) > maxReasonLength {
			c.Reason = "Unknown"
		}
		c.Message = cut(c.Message, maxMessageLength)
	}
	return st
}

// boundProblems sorts problems most serious first, cuts each to its bounds,
// and keeps the first maxProblems-1 and a marker when there are more.
func boundProblems(problems []insightsv1alpha1.HostedProblem) []insightsv1alpha1.HostedProblem {
	if len(problems) == 0 {
		return nil
	}
	sort.SliceStable(problems, func(i, j int) bool { return rank(problems[i].Level) < rank(problems[j].Level) })
	if len(problems) > maxProblems {
		more := len(problems) - (maxProblems - 1)
		problems = append(problems[:maxProblems-1], insightsv1alpha1.HostedProblem{
			Level:   problems[maxProblems-1].Level,
			Reason:  reasonMoreProblems,
			Message: fmt.Sprintf("%d more problems, no more serious than those above", more),
		})
	}
	for i := range problems {
		p := &problems[i]
		if _, ok := levelRank[p.Level]; !ok {
			p.Level = insightsv1alpha1.UnknownImpactLevel
		}
		p.Reason = cut(p.Reason, maxReasonLength)
		if p.Reason == "" {
			p.Reason = "Unknown"
		}
		p.Message = cut(p.Message, maxMessageLength)
		if p.Message == "" {
			p.Message = p.Reason
		}
		if r := p.Resource; r != nil {
			r.Group = cut(r.Group, maxNameLength)
			r.Resource = cut(r.Resource, maxNameLength)
			r.Name = cut(r.Name, maxNameLength)
			r.Namespace = cut(r.Namespace, maxNamespaceLength)
			if r.Name == "" || r.Resource == "" {
				p.Resource = nil
			}
		}
	}
	return problems
}

func rank(l insightsv1alpha1.InsightImpactLevel) int {
	if r, ok := levelRank[l]; ok {
		return r
	}
	return len(levelRank)
}

// cut shortens s to n characters, as the API server counts them, the last
// a marker; invalid UTF-8 is replaced first, as JSON encoding would.
func cut(s string, n int) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + cutMarker
}
