package text

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestTruncate(t *testing.T) {
	testCases := []struct {
		in   string
		max  int
		want string
	}{
		{in: "short", max: 10, want: "short"},
		{in: "exactly10!", max: 10, want: "exactly10!"},
		{in: "eleven chars", max: 10, want: "eleven …"},
		{in: strings.Repeat("é", 10), max: 10, want: "ééé…"}, // not half an é
		// No room for the ellipsis: the bytes that fit, still no half
		// character.
		{in: "000", max: 2, want: "00"},
		{in: "éé", max: 3, want: "…"},
		{in: "éé", max: 1, want: ""},
		{in: "abc", max: 0, want: ""},
		{in: "abc", max: -1, want: ""},
	}
	for _, tc := range testCases {
		got := Truncate(tc.in, tc.max)
		if got != tc.want || len(got) > max(tc.max, 0) || !utf8.ValidString(got) {
			t.Errorf("Truncate(%q, %d) = %q (%d bytes), want %q", tc.in, tc.max, got, len(got), tc.want)
		}
	}
}

// A cut text says it was cut, by how much, and where the whole is.
func TestCut(t *testing.T) {
	const where = "ClusterOperator/machine-config status.conditions[Available]"
	long := strings.Repeat("x", 200)
	testCases := []struct {
		name string
		in   string
		max  int
		want string
	}{
		{name: "fits", in: "short", max: 10, want: "short"},
		{name: "exactly fits", in: long, max: 200, want: long},
		{name: "cut", in: long, max: 150, want: strings.Repeat("x", 39) + "… (cut at 39 of 200 bytes; the whole text is in " + where + ")"},
		{name: "not half a character", in: strings.Repeat("é", 100), max: 150, want: strings.Repeat("é", 19) + "… (cut at 38 of 200 bytes; the whole text is in " + where + ")"},
		{name: "no room for the note: truncated", in: long, max: 20, want: strings.Repeat("x", 17) + "…"},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got := Cut(tc.in, tc.max, where)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Cut (-want +got):\n%s", diff)
			}
			if len(got) > tc.max || !utf8.ValidString(got) {
				t.Errorf("Cut gave %d bytes, over %d, or not UTF-8", len(got), tc.max)
			}
		})
	}
	if got := OneLineCut("a\n b\tc", 10, where); got != "a b c" {
		t.Errorf("OneLineCut = %q, want the text on one line", got)
	}
}

func TestTruncateCharacters(t *testing.T) {
	testCases := []struct {
		name string
		in   string
		max  int
		want string
	}{
		{name: "fits", in: "short", max: 10, want: "short"},
		{name: "exactly max", in: "exactly10!", max: 10, want: "exactly10!"},
		{name: "one over", in: "eleven chars", max: 10, want: "eleven ch…"},
		// Characters, not bytes: ten two-byte é's fit ten characters.
		{name: "two-byte characters fit", in: strings.Repeat("é", 10), max: 10, want: strings.Repeat("é", 10)},
		{name: "two-byte characters cut", in: strings.Repeat("é", 1000), max: 256, want: strings.Repeat("é", 255) + "…"},
		{name: "four-byte characters", in: strings.Repeat("𝄞", 5), max: 3, want: "𝄞𝄞…"},
		// A byte that is not UTF-8 is one character, as JSON carries it.
		{name: "not UTF-8", in: "\xff\xfe\xfd", max: 2, want: "\xff…"},
		{name: "only the ellipsis", in: "ab", max: 1, want: "…"},
		{name: "zero", in: "abc", max: 0, want: ""},
		{name: "below zero", in: "abc", max: -1, want: ""},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, TruncateCharacters(tc.in, tc.max)); diff != "" {
				t.Errorf("TruncateCharacters(%q, %d) (-want +got):\n%s", tc.in, tc.max, diff)
			}
		})
	}
}

func TestBounded(t *testing.T) {
	long := strings.Repeat("node/ip-10-0-1-1.ec2.internal,", 40)
	testCases := []struct {
		name    string
		in      string
		max     int
		want    string
		wantLen int
	}{
		{name: "fits", in: "pdb/ns/name", max: 256, want: "pdb/ns/name"},
		{name: "exactly max", in: strings.Repeat("a", 64), max: 64, want: strings.Repeat("a", 64)},
		// The hashes are sha256sum's, computed apart.
		{name: "one over", in: strings.Repeat("a", 65), max: 64, want: strings.Repeat("a", 31) + "~" + "635361c48bb9eab14198e76ea8ab7f1a", wantLen: 64},
		{name: "long identity", in: long, max: 1024, wantLen: 1024},
		// The cut moves back to the start of a character: 2-byte é's.
		{name: "no half character", in: strings.Repeat("é", 40), max: 64, want: strings.Repeat("é", 15) + "~" + "84fe2e03d50dd3a18b630669d7d5e361", wantLen: 63},
		{name: "only the hash", in: strings.Repeat("b", 40), max: BoundedMin, wantLen: BoundedMin},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got := Bounded(tc.in, tc.max)
			if tc.want != "" && got != tc.want {
				t.Errorf("Bounded = %q, want %q", got, tc.want)
			}
			if tc.wantLen != 0 && len(got) != tc.wantLen {
				t.Errorf("Bounded is %d bytes, want %d", len(got), tc.wantLen)
			}
			if len(got) > tc.max || !utf8.ValidString(got) {
				t.Errorf("Bounded = %q: %d bytes (max %d), valid UTF-8 %t", got, len(got), tc.max, utf8.ValidString(got))
			}
			if again := Bounded(tc.in, tc.max); again != got {
				t.Errorf("Bounded is not stable: %q, then %q", got, again)
			}
		})
	}
	// Values that share the prefix kept stay distinct.
	a, b := Bounded(long+"a", 1024), Bounded(long+"b", 1024)
	if a == b {
		t.Errorf("two values sharing their first 1,024 bytes are bounded to the same %q", a)
	}
}

func TestOneLine(t *testing.T) {
	if got := OneLine("Cluster Operator etcd is degraded\n(Members\t unhealthy)  ", 256); got != "Cluster Operator etcd is degraded (Members unhealthy)" {
		t.Errorf("OneLine = %q", got)
	}
	if got := OneLine(strings.Repeat("word ", 100), 20); len(got) > 20 || strings.Contains(got, "\n") {
		t.Errorf("OneLine = %q, want at most 20 bytes on one line", got)
	}
}

func TestMinutes(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{29 * time.Second, "under a minute"},
		{90 * time.Second, "2m"},
		{55 * time.Minute, "55m"},
		{2 * time.Hour, "2h"},
		{100*time.Minute + 20*time.Second, "1h40m"},
	} {
		if got := Minutes(tt.d); got != tt.want {
			t.Errorf("Minutes(%s) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestEstimates(t *testing.T) {
	for _, tt := range []struct {
		d             time.Duration
		about, approx string
	}{
		{29 * time.Second, "under a minute", "under a minute"},
		{30 * time.Second, "about 1m", "~1m"},
		{55 * time.Minute, "about 55m", "~55m"},
		{100*time.Minute + 20*time.Second, "about 1h40m", "~1h40m"},
	} {
		t.Run(tt.d.String(), func(t *testing.T) {
			if diff := cmp.Diff([]string{tt.about, tt.approx}, []string{About(tt.d), Approx(tt.d)}); diff != "" {
				t.Errorf("About, Approx (-want +got):\n%s", diff)
			}
		})
	}
}
