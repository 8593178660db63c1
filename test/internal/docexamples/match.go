package docexamples

import (
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// Diff compares an example's lines with what the command printed, and
// returns a cmp.Diff of them (-want +got), empty when they match. A line
// `...` (indented or not) of want stands for any lines of got, none
// included. Trailing spaces are ignored: they do not show in the
// documentation, and editors drop them.
func Diff(want, got []string) string {
	want, got = trimRight(want), trimRight(got)
	return cmp.Diff(expand(want, got), got)
}

// Lines splits what a command printed into lines, without the newline
// that ends the last one.
func Lines(output string) []string {
	if output == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(output, "\n"), "\n")
}

// expand returns want with each elision replaced by the lines of got it
// stands for: a diff of the result against got then shows only what want
// says differently. The lines after an elision, up to the next one, are
// those of got where they first all match, from where the lines before it
// ended, or else where their first line does; at the end of want, they are
// the last lines of got. Where nothing matches, the elision stands for
// nothing, and the diff shows the lines after it as missing.
func expand(want, got []string) []string {
	var out []string
	next := 0 // the first line of got the rest of want is compared with
	for i := 0; i < len(want); i++ {
		if !isElision(want[i]) {
			out = append(out, want[i])
			next++
			continue
		}
		segment := want[i+1:]
		last := true
		if end := slices.IndexFunc(segment, isElision); end >= 0 {
			segment, last = segment[:end], false
		}
		at := len(got) - len(segment)
		if !last {
			at = find(got[min(next, len(got)):], segment)
			if at < 0 {
				at = find(got[min(next, len(got)):], segment[:1])
			}
			if at >= 0 {
				at += next
			}
		}
		if at >= next {
			out = append(out, got[next:at]...)
			next = at
		}
	}
	return out
}

// find returns where lines first occur in got, or -1.
func find(got, lines []string) int {
	for start := 0; start+len(lines) <= len(got); start++ {
		if slices.Equal(got[start:start+len(lines)], lines) {
			return start
		}
	}
	return -1
}

func isElision(line string) bool { return strings.TrimSpace(line) == Elision }

func trimRight(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l, " \t")
	}
	return out
}
