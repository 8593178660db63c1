package planview

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
)

// labelWidth aligns the lines above the table, as status aligns its own.
const labelWidth = len("Evaluated:  ")

// descriptionIndent continues a multi-line description under its first line.
const descriptionIndent = "               "

// WriteText writes the plan as `status` writes the update, in oc's table
// style: first that the cluster is not offered the release, if so; the findings that tell how the update would go (status level,
// such as its duration) as lines, those to accept as a table, or with
// details one block each with its description, reference and identity;
// then the plan's conditions.
func WriteText(w io.Writer, v View, now time.Time, details bool) error {
	var b bytes.Buffer
	if v.NotOffered != "" {
		fmt.Fprintf(&b, "Warning: %s\n\n", v.NotOffered)
	}
	for _, informer := range staleInformers(v.Findings) {
		fmt.Fprintf(&b, "Warning: %s did not answer the last evaluation: its findings are from its last answer.\n\n", informer)
	}
	fmt.Fprintf(&b, "%-*s%s\n", labelWidth, "Update to:", v.TargetRelease)
	evaluated := "not yet"
	if v.EvaluatedAt != nil {
		evaluated = fmt.Sprintf("%s (%s ago)", v.EvaluatedAt.UTC().Format(time.RFC3339), now.Sub(v.EvaluatedAt.Time).Truncate(time.Second))
	}
	fmt.Fprintf(&b, "%-*s%s\n", labelWidth, "Evaluated:", evaluated)
	if details {
		writeDetails(&b, v.Findings)
	} else {
		writeSummary(&b, v.Findings)
	}
	b.WriteString("\n")
	for _, t := range []string{updateplan.ConditionAnswered, updateplan.ConditionAccepted} {
		state := "Unknown (not reported yet)"
		if c := meta.FindStatusCondition(v.Conditions, t); c != nil {
			// The condition names findings by identity, as the API
			// keeps them; the text names them as they are accepted.
			state = fmt.Sprintf("%s (%s) %s", c.Status, c.Reason, shorten(c.Message, v.Findings))
		}
		fmt.Fprintf(&b, "%-*s%s\n", labelWidth, t+":", cell(state))
	}
	if !details && len(Unaccepted(v.Findings)) > 0 {
		b.WriteString("\nRun with --details for descriptions, references and identities; accept findings with --accept NAME[,NAME...]\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}

// WriteQuiet writes the identities of the findings not accepted, one a
// line, for scripts: unlike a short name, an identity stays the same
// while its finding lasts.
func WriteQuiet(w io.Writer, v View) error {
	var b bytes.Buffer
	for _, f := range Unaccepted(v.Findings) {
		b.WriteString(f.Identity + "\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}

func writeSummary(b *bytes.Buffer, findings []Finding) {
	label := "Status:"
	var table []Finding
	for _, f := range findings {
		if f.NeedsAcceptance {
			table = append(table, f)
			continue
		}
		fmt.Fprintf(b, "%-*s%s (%s)\n", labelWidth, label, cell(f.Summary), f.Informer)
		label = ""
	}
	b.WriteString("\n")
	if len(table) == 0 {
		b.WriteString("No finding needs accepting.\n")
		return
	}
	t := tabwriter.NewWriter(b, 0, 0, 3, ' ', 0)
	fmt.Fprint(t, "LEVEL\tNAME\tINFORMER\tACCEPTED\tSUMMARY\n")
	for _, f := range table {
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%s\n", level(f.Level), f.Name, f.Informer, yesNo(f.Accepted), cell(f.Summary))
	}
	_ = t.Flush()
}

func writeDetails(b *bytes.Buffer, findings []Finding) {
	for _, f := range findings {
		b.WriteString("\n")
		fmt.Fprintf(b, "Finding: %s\n", cell(f.Summary))
		fmt.Fprintf(b, "  Level:       %s\n", level(f.Level))
		if f.Impact != "" {
			fmt.Fprintf(b, "  Impact:      %s\n", f.Impact)
		}
		fmt.Fprintf(b, "  Informer:    %s\n", f.Informer)
		fmt.Fprintf(b, "  Scope:       %s\n", scope(f))
		if f.NeedsAcceptance {
			fmt.Fprintf(b, "  Accepted:    %s\n", yesNo(f.Accepted))
			fmt.Fprintf(b, "  Name:        %s\n", f.Name)
		} else {
			b.WriteString("  Accepted:    not needed\n")
		}
		fmt.Fprintf(b, "  Identity:    %s\n", f.Identity)
		if f.Reference != "" {
			fmt.Fprintf(b, "  Reference:   %s\n", f.Reference)
		}
		if f.Description != "" {
			fmt.Fprintf(b, "  Description: %s\n", strings.ReplaceAll(f.Description, "\n", "\n"+descriptionIndent))
		}
	}
}

// scope is where a finding applies: the control plane or a pool, and the
// resources it names.
func scope(f Finding) string {
	s := string(f.Scope.Type)
	if f.Pool != "" {
		s += " " + f.Pool
	}
	var resources []string
	for _, r := range f.Scope.Resources {
		resources = append(resources, protocol.ResourceString(protocol.Resource{Group: r.Group, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}))
	}
	if len(resources) > 0 {
		s += " (" + strings.Join(resources, ", ") + ")"
	}
	return s
}

func staleInformers(findings []Finding) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range findings {
		if f.Stale && !seen[f.Informer] {
			seen[f.Informer] = true
			out = append(out, f.Informer)
		}
	}
	return out
}

// level is a level as status prints health levels: Error, Warning.
func level(l insightsv1alpha1.UpdateInsightLevel) string {
	s := string(l)
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func yesNo(b bool) string {
	if b {
		return "Yes"
	}
	return "No"
}

// cell keeps text on its row.
func cell(s string) string {
	return strings.NewReplacer("\t", " ", "\r\n", " ", "\n", " ").Replace(s)
}
