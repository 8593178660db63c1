package docexamples

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/utils/ptr"
)

func TestDiff(t *testing.T) {
	got := []string{"a", "b", "c", "d", "e"}
	testCases := []struct {
		name  string
		want  []string
		match bool
	}{
		{name: "the same lines", want: got, match: true},
		{name: "trailing spaces aside", want: []string{"a ", "b", "c\t", "d", "e"}, match: true},
		{name: "a line differs", want: []string{"a", "b", "x", "d", "e"}},
		{name: "a line missing", want: []string{"a", "b", "d", "e"}},
		{name: "a line more", want: []string{"a", "b", "c", "d", "e", "f"}},
		{name: "an elision in the middle", want: []string{"a", "...", "e"}, match: true},
		{name: "an elision of nothing", want: []string{"a", "b", "...", "c", "d", "e"}, match: true},
		{name: "an indented elision", want: []string{"a", "  ...", "d", "e"}, match: true},
		{name: "an elision at the start", want: []string{"...", "d", "e"}, match: true},
		{name: "an elision at the end", want: []string{"a", "b", "..."}, match: true},
		{name: "two elisions", want: []string{"...", "c", "...", "e"}, match: true},
		{name: "an elision, then lines out of order", want: []string{"a", "...", "e", "d"}},
		{name: "an elision, then a line printed nowhere", want: []string{"a", "...", "x", "..."}},
		{name: "a line after an elision that differs", want: []string{"a", "...", "d", "x"}},
	}
	for _, tt := range testCases {
		t.Run(tt.name, func(t *testing.T) {
			if diff := Diff(tt.want, got); (diff == "") != tt.match {
				t.Errorf("Diff(%q) = %q, want a match: %t", tt.want, diff, tt.match)
			}
		})
	}
}

// A difference after an elision shows alone: the elision stands for the
// lines it left out.
func TestDiffShowsOnlyTheDifference(t *testing.T) {
	got := []string{"a", "b", "c", "d", "e"}
	diff := Diff([]string{"a", "...", "d", "x"}, got)
	for _, line := range []string{`-`, `"x"`, `+`, `"e"`} {
		if !strings.Contains(diff, line) {
			t.Errorf("the diff lacks %s:\n%s", line, diff)
		}
	}
	if strings.Contains(diff, `"b"`) {
		t.Errorf("the diff shows the elided lines:\n%s", diff)
	}
}

func TestLines(t *testing.T) {
	testCases := []struct {
		output string
		want   []string
	}{
		{output: "", want: nil},
		{output: "a\n", want: []string{"a"}},
		{output: "a\n\nb", want: []string{"a", "", "b"}},
	}
	for _, tt := range testCases {
		t.Run(tt.output, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Lines(tt.output)); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}

const page = "# A page\n\n" +
	"<!-- checked: --from test/testdata/x.yaml --now 2024-01-01T00:00:00Z -->\n" +
	"```console\n" +
	"$ update-insights-operator status\n" +
	"The cluster is not updating.\n" +
	"$ echo $?\n" +
	"0\n" +
	"```\n\n" +
	"<!-- checked by run-local: walkthrough -->\n" +
	"````console\n" +
	"$ export KUBECONFIG=$PWD/_output/run-local/kubeconfig\n" +
	"$ _output/bin/update-insights-operator pre-checks --to 4.15.0-ec.3 \\\n" +
	"    --accept a,b\n" +
	"```\n" +
	"Accepted:   True\n" +
	"````\n\n" +
	"```\n" +
	"23:48:40  informers: managed-upgrade 1 status\n" +
	"23:48:40  $ KUBECONFIG=_output/run-local/kubeconfig _output/bin/update-insights-operator status\n" +
	"          The cluster is not updating.\n" +
	"          Informers:       Managed update\n" +
	"23:48:48  the window opens\n" +
	"```\n"

func TestBlocksAndCommands(t *testing.T) {
	file := filepath.Join(t.TempDir(), "page.md")
	if err := os.WriteFile(file, []byte(page), 0o600); err != nil {
		t.Fatal(err)
	}
	blocks, err := Blocks(file)
	if err != nil {
		t.Fatal(err)
	}
	type seen struct {
		Line     int
		Info     string
		Check    Check
		Checked  bool
		Shows    bool
		Commands []Command
	}
	var got []seen
	for _, b := range blocks {
		check, checked, err := b.Check()
		if err != nil {
			t.Fatal(err)
		}
		commands, err := b.Commands()
		if err != nil {
			t.Fatal(err)
		}
		shows, err := b.ShowsOutput()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, seen{Line: b.Line, Info: b.Info, Check: check, Checked: checked, Shows: shows, Commands: commands})
	}
	want := []seen{
		{
			Line: 4, Info: "console", Check: Check{Args: []string{"--from", "test/testdata/x.yaml", "--now", "2024-01-01T00:00:00Z"}}, Checked: true, Shows: true,
			Commands: []Command{{File: file, Line: 5, Program: "update-insights-operator", Args: []string{"status"}, Output: []string{"The cluster is not updating."}, ExitCode: ptr.To(0)}},
		},
		{
			Line: 12, Info: "console", Check: Check{RunLocal: Walkthrough}, Checked: true, Shows: true,
			Commands: []Command{
				{File: file, Line: 13, Program: "export", Args: []string{"KUBECONFIG=$PWD/_output/run-local/kubeconfig"}},
				{File: file, Line: 14, Program: "_output/bin/update-insights-operator", Args: []string{"pre-checks", "--to", "4.15.0-ec.3", "--accept", "a,b"}, Output: []string{"```", "Accepted:   True"}},
			},
		},
		{
			Line: 20, Shows: true,
			Commands: []Command{{File: file, Line: 22, Program: "_output/bin/update-insights-operator", Args: []string{"status"}, Output: []string{"The cluster is not updating.", "Informers:       Managed update"}}},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("blocks (-want +got):\n%s", diff)
	}
}

func TestCheck(t *testing.T) {
	testCases := []struct {
		tag     string
		want    Check
		checked bool
		wantErr bool
	}{
		{tag: "", checked: false},
		{tag: "a comment", checked: false},
		{tag: "checked", want: Check{}, checked: true},
		{tag: "checked: --now 2024-01-01T00:00:00Z", want: Check{Args: []string{"--now", "2024-01-01T00:00:00Z"}}, checked: true},
		{tag: "checked by run-local: managed", want: Check{RunLocal: Managed}, checked: true},
		{tag: "checked by run-local: elsewhere", wantErr: true},
		{tag: `checked: --from "a file.yaml"`, wantErr: true},
	}
	for _, tt := range testCases {
		t.Run(tt.tag, func(t *testing.T) {
			got, checked, err := Block{Tag: tt.tag}.Check()
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want one: %t", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" || checked != tt.checked {
				t.Errorf("checked %t, want %t; check (-want +got):\n%s", checked, tt.checked, diff)
			}
		})
	}
}

func TestAnUnclosedBlockIsAnError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "page.md")
	if err := os.WriteFile(file, []byte("```sh\nmake test\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Blocks(file); err == nil {
		t.Error("no error for a block never closed")
	}
}
