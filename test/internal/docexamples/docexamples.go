// Package docexamples reads the documentation's code blocks and the
// commands they show, so that the examples of the commands' output can be
// checked against what the commands print: test/docs runs those that need
// no cluster, run-local those that need its cluster.
//
// A block says how it is checked in an HTML comment on the line just
// before its opening fence:
//
//	<!-- checked: ARGS -->                  run in-process, with ARGS appended to each command
//	<!-- checked by run-local: SCENARIO --> run by run-local against its cluster
package docexamples

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Program is the binary whose output the examples show.
const Program = "update-insights-operator"

// The scenarios run-local checks blocks in.
const (
	// Walkthrough is the pre-checks walkthrough, which make test-run-local
	// runs once the update completed.
	Walkthrough = "walkthrough"
	// Managed is run-local's managed mode, whose status command make
	// test-run-local-managed runs while the update awaits its window.
	Managed = "managed"
	// Hosted is run-local's hosted mode, whose status command make
	// test-run-local-hosted runs while a Replace NodePool rolls out.
	Hosted = "hosted"
)

// Checked are the commands whose output examples must say how they are
// checked.
var Checked = []string{"status", "pre-checks", "analyze", "history"}

// Elision is a line of an example that stands for any lines left out.
const Elision = "..."

// Block is a fenced code block of a Markdown file.
type Block struct {
	File string
	// Line is the line of the opening fence, from 1.
	Line int
	// Info is what follows the opening fence, such as console.
	Info string
	// Tag is the text of the HTML comment on the line before the fence,
	// without its delimiters; empty without one.
	Tag   string
	Lines []string
}

func (b Block) String() string { return fmt.Sprintf("%s:%d", b.File, b.Line) }

// Files are the documentation's Markdown files under root: the README and
// the pages of docs/.
func Files(root string) ([]string, error) {
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	return append([]string{filepath.Join(root, "README.md")}, pages...), nil
}

var (
	fence = regexp.MustCompile("^(```+|~~~+)(.*)$")
	tag   = regexp.MustCompile(`^<!--\s*(.*?)\s*-->$`)
)

// Blocks returns the fenced code blocks of a Markdown file.
func Blocks(file string) ([]Block, error) {
	content, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var blocks []Block
	var open *Block
	var marker, previous string
	scanner := bufio.NewScanner(bytes.NewReader(content))
	scanner.Buffer(nil, 1<<20)
	for n := 1; scanner.Scan(); n++ {
		line := scanner.Text()
		switch m := fence.FindStringSubmatch(line); {
		case open != nil && m != nil && strings.HasPrefix(m[1], marker) && strings.TrimSpace(m[2]) == "":
			blocks = append(blocks, *open)
			open = nil
		case open != nil:
			open.Lines = append(open.Lines, line)
		case m != nil:
			open = &Block{File: file, Line: n, Info: strings.TrimSpace(m[2])}
			marker = m[1]
			if t := tag.FindStringSubmatch(previous); t != nil {
				open.Tag = t[1]
			}
		}
		previous = line
	}
	if err := scanner.Err(); err != nil {
		return nil, err
	}
	if open != nil {
		return nil, fmt.Errorf("%s: the block opened here is never closed", open)
	}
	return blocks, nil
}

// Check is how a block says it is checked.
type Check struct {
	// Args are appended to each command of a block checked in-process.
	Args []string
	// RunLocal is the scenario of run-local that checks the block; empty
	// for a block checked in-process.
	RunLocal string
}

// Check returns how the block says it is checked, and whether it says.
func (b Block) Check() (Check, bool, error) {
	switch {
	case strings.HasPrefix(b.Tag, "checked by run-local:"):
		scenario := strings.TrimSpace(strings.TrimPrefix(b.Tag, "checked by run-local:"))
		if scenario != Walkthrough && scenario != Managed && scenario != Hosted {
			return Check{}, false, fmt.Errorf("%s: run-local checks the scenarios %s, %s and %s, not %q", b, Walkthrough, Managed, Hosted, scenario)
		}
		return Check{RunLocal: scenario}, true, nil
	case b.Tag == "checked":
		return Check{}, true, nil
	case strings.HasPrefix(b.Tag, "checked:"):
		args, err := split(strings.TrimPrefix(b.Tag, "checked:"))
		if err != nil {
			return Check{}, false, fmt.Errorf("%s: %w", b, err)
		}
		return Check{Args: args}, true, nil
	}
	return Check{}, false, nil
}

// Command is a command line of a block, after its prompt, with the output
// shown under it.
type Command struct {
	File string
	Line int
	// Program is the program run, as typed, and Args its arguments;
	// variables set before it (KUBECONFIG=...) are left out.
	Program string
	Args    []string
	Output  []string
	// ExitCode is what an `echo $?` right after the command shows, if one
	// does.
	ExitCode *int
}

// Of says whether the command runs this repository's binary.
func (c Command) Of() bool { return filepath.Base(c.Program) == Program }

// Checked says whether the command's output must be checked.
func (c Command) Checked() bool {
	return c.Of() && len(c.Args) > 0 && slices.Contains(Checked, c.Args[0])
}

func (c Command) String() string { return strings.Join(append([]string{c.Program}, c.Args...), " ") }

var (
	// clock starts the lines of run-local's transcripts, which indent what
	// a command prints under it.
	clock         = regexp.MustCompile(`^\d\d:\d\d:\d\d  `)
	transcriptOut = strings.Repeat(" ", 10)
	assignment    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
)

// Commands returns the commands a block shows, each after a `$ ` prompt,
// with a trailing backslash continuing it on the next line. In a
// run-local transcript, whose lines start with the time, a command's output
// is the lines under it indented as run-local indents them; elsewhere, the
// lines up to the next prompt. `echo $?` is the exit code of the command
// before it, not a command.
func (b Block) Commands() ([]Command, error) {
	var commands []Command
	var current *Command
	transcript := false
	for i := 0; i < len(b.Lines); i++ {
		line := b.Lines[i]
		prompt, ok := strings.CutPrefix(clock.ReplaceAllString(line, ""), "$ ")
		if !ok {
			switch {
			case current == nil:
			case !transcript:
				current.Output = append(current.Output, line)
			case strings.HasPrefix(line, transcriptOut):
				current.Output = append(current.Output, strings.TrimPrefix(line, transcriptOut))
			default:
				current = nil
			}
			continue
		}
		transcript = clock.MatchString(line)
		start := b.Line + 1 + i
		for strings.HasSuffix(prompt, `\`) && i+1 < len(b.Lines) {
			i++
			prompt = strings.TrimSuffix(prompt, `\`) + " " + strings.TrimSpace(b.Lines[i])
		}
		words := strings.Fields(prompt)
		for len(words) > 0 && assignment.MatchString(words[0]) {
			words = words[1:]
		}
		if len(words) == 0 {
			return nil, fmt.Errorf("%s:%d: a prompt without a command", b.File, start)
		}
		if filepath.Base(words[0]) == Program {
			if _, err := split(prompt); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", b.File, start, err)
			}
		}
		if slices.Equal(words, []string{"echo", "$?"}) {
			if len(commands) == 0 || i+1 >= len(b.Lines) {
				return nil, fmt.Errorf("%s:%d: echo $? needs a command before it and its code after it", b.File, start)
			}
			i++
			code, err := strconv.Atoi(strings.TrimSpace(b.Lines[i]))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: echo $? shows %q, not an exit code", b.File, start+1, b.Lines[i])
			}
			commands[len(commands)-1].ExitCode = &code
			current = nil
			continue
		}
		commands = append(commands, Command{File: b.File, Line: start, Program: words[0], Args: words[1:]})
		current = &commands[len(commands)-1]
	}
	return commands, nil
}

// markers are lines only the checked commands print: an example that
// shows their output without its command line must say how it is checked
// all the same.
var markers = []string{"= Control Plane =", "= Update Health =", "The cluster is not updating.", "An update is scheduled, as ", "An update is starting, as ", "Informers:", "Update to:  ", "Evaluated:  ", "kind: ClusterVersionProgressInsight"}

// ShowsOutput says whether the block shows what a checked command prints.
func (b Block) ShowsOutput() (bool, error) {
	commands, err := b.Commands()
	if err != nil {
		return false, err
	}
	if slices.ContainsFunc(commands, Command.Checked) {
		return true, nil
	}
	return slices.ContainsFunc(b.Lines, func(line string) bool {
		line = strings.TrimSpace(clock.ReplaceAllString(line, ""))
		return slices.ContainsFunc(markers, func(m string) bool { return strings.HasPrefix(line, strings.TrimSpace(m)) })
	}), nil
}

// split splits a command line into words at spaces. The examples quote
// nothing: a quote would need a shell to read it as the reader's shell
// does.
func split(s string) ([]string, error) {
	if strings.ContainsAny(s, `'"`) {
		return nil, fmt.Errorf("%q: quotes are not supported in checked command lines", s)
	}
	return strings.Fields(s), nil
}
