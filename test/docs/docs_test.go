// Package docs checks the documentation against the repository: its links
// and anchors resolve, its samples name no directory of the machine they
// were made on, and its examples of what the commands print are what they
// print.
package docs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/update-insights/update-insights-operator/pkg/cmd/analyze"
	"github.com/update-insights/update-insights-operator/pkg/cmd/history"
	"github.com/update-insights/update-insights-operator/pkg/cmd/status"
	"github.com/update-insights/update-insights-operator/pkg/output"
	"github.com/update-insights/update-insights-operator/test/internal/docexamples"
)

// root is the repository's root, from this package's folder.
const root = "../.."

func files(t *testing.T) []string {
	t.Helper()
	files, err := docexamples.Files(root)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func blocks(t *testing.T, file string) []docexamples.Block {
	t.Helper()
	blocks, err := docexamples.Blocks(file)
	if err != nil {
		t.Fatal(err)
	}
	return blocks
}

// name is how a test names a file: relative to the repository's root.
func name(file string) string {
	rel, err := filepath.Rel(root, file)
	if err != nil {
		return file
	}
	return rel
}

func TestLinksResolve(t *testing.T) {
	for _, file := range files(t) {
		t.Run(name(file), func(t *testing.T) {
			page, err := readPage(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, link := range page.links {
				if err := resolve(file, link); err != nil {
					t.Errorf("the link %q: %v", link, err)
				}
			}
		})
	}
}

// resolve fails unless a relative link names an existing file or folder
// and, with an anchor, a heading of that page.
func resolve(from, link string) error {
	if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
		return nil
	}
	target, anchor, _ := strings.Cut(link, "#")
	path := from
	if target != "" {
		path = filepath.Join(filepath.Dir(from), target)
		if _, err := os.Stat(path); err != nil {
			return err
		}
	}
	if anchor == "" {
		return nil
	}
	if filepath.Ext(path) != ".md" {
		return fmt.Errorf("an anchor into %s, which is not a Markdown page", name(path))
	}
	page, err := readPage(path)
	if err != nil {
		return err
	}
	if !slices.Contains(page.anchors, anchor) {
		return fmt.Errorf("%s has no heading #%s; it has %v", name(path), anchor, page.anchors)
	}
	return nil
}

// repositoryURL is a link to this repository's README or to a file of its
// main branch, as code that cannot link relatively writes it (an insight's
// reference, a conditional update risk's URL).
var repositoryURL = regexp.MustCompile(`https://github\.com/update-insights/update-insights-operator(?:/(?:blob|tree)/main/([^\s"'#)]+))?(#[\w-]+)?`)

// The links of the code into the documentation resolve in this checkout,
// as they will once it is merged: a page or heading renamed fails here.
func TestRepositoryURLsResolve(t *testing.T) {
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if slices.Contains([]string{"vendor", "_output", ".cache", ".git", "node_modules"}, d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !slices.Contains([]string{".go", ".md", ".yaml", ".sh"}, filepath.Ext(path)) {
			return nil
		}
		content, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range repositoryURL.FindAllStringSubmatch(string(content), -1) {
			target := m[1]
			if target == "" {
				target = "README.md"
			}
			if err := resolve(filepath.Join(root, "README.md"), target+m[2]); err != nil {
				t.Errorf("%s: %s: %v", name(path), m[0], err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The README is where a reader starts: every page must be reachable from it.
func TestEveryPageIsLinkedFromTheREADME(t *testing.T) {
	readme := filepath.Join(root, "README.md")
	page, err := readPage(readme)
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, link := range page.links {
		target, _, _ := strings.Cut(link, "#")
		linked[filepath.Clean(filepath.Join(root, target))] = true
	}
	for _, file := range files(t) {
		if file != readme && !linked[filepath.Clean(file)] {
			t.Errorf("%s is not linked from the README", name(file))
		}
	}
}

// machinePath is an absolute path under a folder that holds checkouts,
// home directories or temporary files: a sample holding one was pasted from
// one machine, and names nothing on the reader's.
var machinePath = regexp.MustCompile(`(?:^|[\s=:'"(\[,])(/(?:home|root|tmp|work|Users|mnt|srv|var/tmp|var/folders|private)(?:/|\b)\S*)`)

func TestSamplesNameNoPathOfTheMachine(t *testing.T) {
	for _, file := range files(t) {
		t.Run(name(file), func(t *testing.T) {
			for _, b := range blocks(t, file) {
				for i, line := range b.Lines {
					if m := machinePath.FindStringSubmatch(line); m != nil {
						t.Errorf("%s:%d: %s is a path of the machine the sample was made on; show it relative to the repository's root", name(b.File), b.Line+1+i, m[1])
					}
				}
			}
		})
	}
}

func TestMachinePathsAreFound(t *testing.T) {
	testCases := []struct {
		line string
		want bool
	}{
		{line: "04:17:27  the local cluster's kubeconfig: export KUBECONFIG=/work/main/_output/run-local/kubeconfig", want: true},
		{line: "started update-insights-operator (log: /home/me/src/uio/_output/run-local/operator.log)", want: true},
		{line: "$ ls /tmp", want: true},
		{line: "cd /root", want: true},
		{line: `kubeconfig: "/Users/me/.kube/config"`, want: true},
		{line: "04:17:27  the local cluster's kubeconfig: export KUBECONFIG=_output/run-local/kubeconfig", want: false},
		{line: "reference: https://example.com/tmp/runbook", want: false},
		{line: "  image: quay.io/openshift-release-dev/ocp-release@sha256:2429", want: false},
		{line: "resources: [secrets]", want: false},
		{line: "/workspace is not one of them", want: false},
	}
	for _, tt := range testCases {
		t.Run(tt.line, func(t *testing.T) {
			if got := machinePath.MatchString(tt.line); got != tt.want {
				t.Errorf("found a path of the machine: %t, want %t", got, tt.want)
			}
		})
	}
}

// Every example of what status, pre-checks or analyze print says how it is
// checked, so that none drifts from the code unnoticed.
func TestOutputExamplesSayHowTheyAreChecked(t *testing.T) {
	for _, file := range files(t) {
		t.Run(name(file), func(t *testing.T) {
			for _, b := range blocks(t, file) {
				shows, err := b.ShowsOutput()
				if err != nil {
					t.Error(err)
					continue
				}
				if _, checked, err := b.Check(); err != nil {
					t.Error(err)
				} else if shows && !checked {
					t.Errorf("%s:%d shows what %s print: say how it is checked in a comment just before it, <!-- checked: ARGS --> or <!-- checked by run-local: %s|%s|%s --> (docs/development.md#documentation)",
						name(b.File), b.Line, strings.Join(docexamples.Checked, ", "), docexamples.Walkthrough, docexamples.Managed, docexamples.Hosted)
				}
			}
		})
	}
}

// now is the clock of the commands run for the examples: each example
// says its own with --now, and none may depend on this one.
var now = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func TestOutputExamplesAreWhatTheCommandsPrint(t *testing.T) {
	type example struct {
		block   docexamples.Block
		command docexamples.Command
		args    []string
	}
	var examples []example
	for _, file := range files(t) {
		for _, b := range blocks(t, file) {
			check, checked, err := b.Check()
			if err != nil || !checked || check.RunLocal != "" {
				continue
			}
			commands, err := b.Commands()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(commands, docexamples.Command.Of) {
				t.Errorf("%s:%d is checked, but runs no %s command", name(b.File), b.Line, docexamples.Program)
			}
			for _, c := range commands {
				examples = append(examples, example{block: b, command: c, args: append(slices.Clone(c.Args), check.Args...)})
			}
		}
	}
	// The examples name their inputs relative to the repository's root,
	// where a reader runs them.
	t.Chdir(root)
	for _, e := range examples {
		t.Run(fmt.Sprintf("%s:%d %s", name(e.block.File), e.command.Line, e.command), func(t *testing.T) {
			if !e.command.Of() {
				t.Fatalf("a checked block runs %s commands only, not %s", docexamples.Program, e.command.Program)
			}
			if !slices.Contains(e.args, "--now") {
				t.Fatalf("%s runs at the current time: give the example's clock with --now", strings.Join(e.args, " "))
			}
			out, code := run(t, e.args)
			if diff := docexamples.Diff(e.command.Output, docexamples.Lines(out)); diff != "" {
				t.Errorf("the example is not what %s prints (-example +printed):\n%s", strings.Join(e.args, " "), diff)
			}
			if e.command.ExitCode != nil && *e.command.ExitCode != code {
				t.Errorf("the example's exit code is %d, the command's %d", *e.command.ExitCode, code)
			}
		})
	}
}

// run runs the binary's command in-process, with the fixed clock, and
// returns what it printed on stdout and stderr, as a terminal shows them,
// and its exit code.
func run(t *testing.T, args []string) (string, int) {
	t.Helper()
	clock := clocktesting.NewFakeClock(now)
	offline := map[string]*cobra.Command{"status": status.NewCommand(clock), "analyze": analyze.NewCommand(clock), "history": history.NewCommand(clock)}
	cmd, ok := offline[args[0]]
	if !ok {
		t.Fatalf("%s needs a cluster: check its example with run-local (<!-- checked by run-local: SCENARIO -->)", args[0])
	}
	root := &cobra.Command{Use: docexamples.Program, SilenceErrors: true, SilenceUsage: true}
	root.AddCommand(cmd)
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		// As the binary's main prints it.
		fmt.Fprintf(&out, "error: %v\n", err)
		return out.String(), output.ExitCode(err)
	}
	return out.String(), 0
}
