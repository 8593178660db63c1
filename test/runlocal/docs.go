package main

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/update-insights/update-insights-operator/test/internal/docexamples"
)

// documented returns the commands of the binary that the documentation's
// blocks checked by run-local in scenario show, in the order it shows them.
// run-local runs from the repository's root, where make runs it.
func documented(scenario string) ([]docexamples.Command, error) {
	files, err := docexamples.Files(".")
	if err != nil {
		return nil, err
	}
	var commands []docexamples.Command
	for _, file := range files {
		blocks, err := docexamples.Blocks(file)
		if err != nil {
			return nil, err
		}
		for _, b := range blocks {
			if check, _, err := b.Check(); err != nil || check.RunLocal != scenario {
				continue
			}
			cs, err := b.Commands()
			if err != nil {
				return nil, err
			}
			for _, c := range cs {
				if c.Of() {
					commands = append(commands, c)
				}
			}
		}
	}
	if len(commands) == 0 {
		return nil, fmt.Errorf("no block of the documentation is checked by run-local: %s", scenario)
	}
	return commands, nil
}

// documentedAs returns the documented commands of scenario, failing unless
// they are exactly these steps, in this order: the documentation shows
// nothing run-local does not check, and run-local checks nothing it does
// not show.
func documentedAs(scenario string, steps [][]string) ([]docexamples.Command, error) {
	commands, err := documented(scenario)
	if err != nil {
		return nil, err
	}
	shown := make([][]string, len(commands))
	for i, c := range commands {
		shown[i] = c.Args
	}
	if !slices.EqualFunc(shown, steps, slices.Equal) {
		return nil, fmt.Errorf("the documentation's %s shows the commands %q, and run-local runs %q", scenario, shown, steps)
	}
	return commands, nil
}

var (
	timestamp = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`)
	age       = regexp.MustCompile(`\(\S+ ago\)`)
	// countdown is how long until a time, to the minute, which depends on
	// how soon after scheduling the command runs.
	countdown = regexp.MustCompile(`, in (under a minute|\d+h\d*m?|\d+m)\b`)
	// since is how long a health insight or a held drain has lasted, in
	// status' SINCE columns (a duration or "now", before its level), and
	// estimate a node's time left (EST, "+9m"), to the minute: both are
	// counted from when the operator saw what they time, which depends
	// on how soon after it the command runs.
	since = regexp.MustCompile(`\b(?:now|\d+h(?:\d+m)?(?:\d+s)?|\d+m(?:\d+s)?|\d+(?:\.\d+)?s) +(Info|Warning|Error|Critical)\b`)
	// sinceHeader is the SINCE column's header, padded to its widest value.
	sinceHeader = regexp.MustCompile(`\bSINCE +LEVEL\b`)
	estimate    = regexp.MustCompile(`(^|\s)\+(?:\d+h)?\d+m\b`)
	// duration is how long a completed update took, which includes how
	// long run-local took to play it.
	duration = regexp.MustCompile(`\(duration: [^)]*\)`)
	// progress is a line pre-checks prints on stderr while it waits.
	progress = regexp.MustCompile(`^UpdatePlan \S+: waiting for .* \(\S+\)$`)
)

// matches fails unless a command printed what the documentation shows for
// it, and exited as it shows. The times, the countdowns to them, and the
// durations status counts from them differ from run to run and are
// compared as placeholders. pre-checks' progress lines are left out: which
// it prints depends on how fast the operator and the informers answer, so
// the documentation describes them rather than shows them.
func matches(doc docexamples.Command, out string, code int) error {
	got := slices.DeleteFunc(docexamples.Lines(out), progress.MatchString)
	if diff := docexamples.Diff(normalized(doc.Output), normalized(got)); diff != "" {
		return fmt.Errorf("%s:%d is not what the command printed, times and countdowns aside and without its progress lines (-documented +printed):\n%s", doc.File, doc.Line, diff)
	}
	if doc.ExitCode != nil && *doc.ExitCode != code {
		return fmt.Errorf("%s:%d shows the exit code %d, and the command exited with %d", doc.File, doc.Line, *doc.ExitCode, code)
	}
	return nil
}

func normalized(lines []string) []string {
	out := make([]string, len(lines))
	for i, line := range lines {
		line = timestamp.ReplaceAllString(line, "<time>")
		line = countdown.ReplaceAllString(line, ", in <duration>")
		line = since.ReplaceAllString(line, "<since> $1")
		line = sinceHeader.ReplaceAllString(line, "SINCE LEVEL")
		line = estimate.ReplaceAllString(line, "$1+<estimate>")
		line = duration.ReplaceAllString(line, "(duration: <duration>)")
		out[i] = age.ReplaceAllString(line, "(<age> ago)")
	}
	return out
}
