package text

import (
	"strings"
	"testing"
	"time"
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
