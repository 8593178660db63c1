package text

import (
	"strings"
	"testing"
	"unicode/utf8"
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
	}
	for _, tc := range testCases {
		got := Truncate(tc.in, tc.max)
		if got != tc.want || len(got) > tc.max || !utf8.ValidString(got) {
			t.Errorf("Truncate(%q, %d) = %q (%d bytes), want %q", tc.in, tc.max, got, len(got), tc.want)
		}
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
