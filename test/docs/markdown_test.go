package docs

import (
	"bufio"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// page is what the link checks read of a Markdown page: its links and the
// anchors of its headings, code blocks and inline code left out.
type page struct {
	links, anchors []string
}

var (
	fence      = regexp.MustCompile("^\\s*(```|~~~)")
	heading    = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	inlineCode = regexp.MustCompile("`[^`]*`")
	link       = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
)

func readPage(file string) (page, error) {
	f, err := os.Open(file)
	if err != nil {
		return page{}, err
	}
	defer f.Close()
	var p page
	slugs := map[string]int{}
	inBlock := false
	scanner := bufio.NewScanner(f)
	scanner.Buffer(nil, 1<<20)
	for scanner.Scan() {
		line := scanner.Text()
		if fence.MatchString(line) {
			inBlock = !inBlock
			continue
		}
		if inBlock {
			continue
		}
		if m := heading.FindStringSubmatch(line); m != nil {
			p.anchors = append(p.anchors, anchor(m[1], slugs))
		}
		for _, m := range link.FindAllStringSubmatch(inlineCode.ReplaceAllString(line, ""), -1) {
			p.links = append(p.links, m[1])
		}
	}
	return p, scanner.Err()
}

// punctuation is what GitHub drops from a heading to make its anchor: all
// ASCII punctuation but the hyphen and the underscore.
var punctuation = regexp.MustCompile("[!-,./:-@\\[-^`{-~]")

// anchor is the anchor GitHub gives a heading: its text without the link
// syntax, lower case, without punctuation, spaces as hyphens, and a
// counter after a heading's text seen before.
func anchor(text string, seen map[string]int) string {
	text = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`).ReplaceAllString(text, "$1")
	slug := strings.ReplaceAll(punctuation.ReplaceAllString(strings.ToLower(text), ""), " ", "-")
	n := seen[slug]
	seen[slug]++
	if n > 0 {
		return slug + "-" + strconv.Itoa(n)
	}
	return slug
}

func TestAnchor(t *testing.T) {
	testCases := []struct {
		headings []string
		want     []string
	}{
		{headings: []string{"Pre-checks: `pre-checks` and `upgrade`"}, want: []string{"pre-checks-pre-checks-and-upgrade"}},
		{headings: []string{"The operator's ClusterOperator"}, want: []string{"the-operators-clusteroperator"}},
		{headings: []string{"Make targets, and measuring"}, want: []string{"make-targets-and-measuring"}},
		{headings: []string{"UpdateStatus, UpdateInformers and UpdatePlans"}, want: []string{"updatestatus-updateinformers-and-updateplans"}},
		{headings: []string{"A [linked](other.md) heading"}, want: []string{"a-linked-heading"}},
		{headings: []string{"snake_case stays"}, want: []string{"snake_case-stays"}},
		{headings: []string{"Tests", "Tests", "Tests"}, want: []string{"tests", "tests-1", "tests-2"}},
	}
	for _, tt := range testCases {
		t.Run(strings.Join(tt.headings, ", "), func(t *testing.T) {
			seen := map[string]int{}
			var got []string
			for _, h := range tt.headings {
				got = append(got, anchor(h, seen))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("anchors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadPage(t *testing.T) {
	file := t.TempDir() + "/page.md"
	content := "# Title\n\nSee [the API](insights.md#kinds) and [`status`](#title), not `[code](x.md)`.\n\n" +
		"```sh\n# not a heading\n[not a link](y.md)\n```\n\n## Title\n"
	if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := readPage(file)
	if err != nil {
		t.Fatal(err)
	}
	want := page{links: []string{"insights.md#kinds", "#title"}, anchors: []string{"title", "title-1"}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(page{})); diff != "" {
		t.Errorf("page (-want +got):\n%s", diff)
	}
}
