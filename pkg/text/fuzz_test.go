package text

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzTruncate cuts and folds arbitrary strings to arbitrary bounds: the
// result fits the bound (none below zero), is a prefix of the input (or of
// its folded form) with at most the ellipsis added, is valid UTF-8 when the
// input is, and is the input itself when it fits. OneLine's result has no
// line break and no run of spaces.
func FuzzTruncate(f *testing.F) {
	for _, s := range []string{"", "abc", "é", "日本語のテキスト", "a\nb\t c\r\n d", strings.Repeat("x", 300), "\xff\xfe", "…"} {
		for _, n := range []int{-1, 0, 1, 2, 3, 4, 10, 256} {
			f.Add(s, n)
		}
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		bound := max(n, 0)
		for name, got := range map[string]string{"Truncate": Truncate(s, n), "OneLine": OneLine(s, n)} {
			source := s
			if name == "OneLine" {
				source = strings.Join(strings.Fields(s), " ")
				if strings.ContainsAny(got, "\n\r") || strings.Contains(got, "  ") {
					t.Errorf("OneLine(%q, %d) = %q is not one line", s, n, got)
				}
			}
			if len(got) > bound {
				t.Errorf("%s(%q, %d) = %q, %d bytes", name, s, n, got, len(got))
			}
			if len(source) <= bound && got != source {
				t.Errorf("%s(%q, %d) = %q, though %q fits", name, s, n, got, source)
			}
			if !strings.HasPrefix(source, strings.TrimSuffix(got, "…")) {
				t.Errorf("%s(%q, %d) = %q is no prefix", name, s, n, got)
			}
			if utf8.ValidString(s) && !utf8.ValidString(got) {
				t.Errorf("%s(%q, %d) = %q is not UTF-8", name, s, n, got)
			}
		}
	})
}

// FuzzBounded bounds arbitrary pairs of strings to arbitrary bounds, as
// identities are: the result fits the bound, is the string itself when it
// fits, else starts with a prefix of it; it is UTF-8 out of UTF-8, the same
// for the same string, and distinct for distinct strings.
func FuzzBounded(f *testing.F) {
	for _, s := range []string{"", "mco/WorkerPool/Node/a,Node/b/abc", strings.Repeat("é", 700), strings.Repeat("n", 1025), "\xff" + strings.Repeat("x", 40)} {
		f.Add(s, s+"!", BoundedMin)
		f.Add(s, strings.ToUpper(s), 1024)
	}
	f.Fuzz(func(t *testing.T, s, other string, n int) {
		if n < BoundedMin {
			// Bounded refuses those, by its contract.
			n = BoundedMin + int(uint(n)%2048)
		}
		got := Bounded(s, n)
		switch {
		case len(got) > n:
			t.Errorf("Bounded(%q, %d) = %q, %d bytes", s, n, got, len(got))
		case len(s) <= n && got != s:
			t.Errorf("Bounded(%q, %d) = %q, though it fits", s, n, got)
		case utf8.ValidString(s) && !utf8.ValidString(got):
			t.Errorf("Bounded(%q, %d) = %q is not UTF-8", s, n, got)
		case Bounded(s, n) != got:
			t.Errorf("Bounded(%q, %d) differs the second time", s, n)
		}
		if len(s) > n {
			if prefix, _, ok := strings.Cut(got, "~"); !ok || !strings.HasPrefix(s, prefix) {
				t.Errorf("Bounded(%q, %d) = %q does not start with a prefix of it", s, n, got)
			}
		}
		if s != other && Bounded(other, n) == got {
			t.Errorf("Bounded(%q, %d) = Bounded(%q, %d) = %q", s, n, other, n, got)
		}
	})
}

// FuzzTruncateCharacters cuts and folds arbitrary strings to arbitrary
// bounds in characters: the result, as the API server reads it out of JSON,
// fits the bound (none below zero); it is the input (or its folded form)
// when that fits, else a prefix of it and the ellipsis; it is UTF-8 out of
// UTF-8.
func FuzzTruncateCharacters(f *testing.F) {
	for _, s := range []string{"", "abc", "é", "日本語のテキスト", "a\nb\t c\r\n d", strings.Repeat("é", 300), "\xff\xfe", "…", "𝄞𝄞𝄞"} {
		for _, n := range []int{-1, 0, 1, 2, 3, 10, 256} {
			f.Add(s, n)
		}
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		bound := max(n, 0)
		for name, got := range map[string]string{"TruncateCharacters": TruncateCharacters(s, n), "OneLineCharacters": OneLineCharacters(s, n)} {
			source := s
			if name == "OneLineCharacters" {
				source = strings.Join(strings.Fields(s), " ")
			}
			raw, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			var read string
			if err := json.Unmarshal(raw, &read); err != nil {
				t.Fatal(err)
			}
			if c := utf8.RuneCountInString(read); c > bound {
				t.Errorf("%s(%q, %d) = %q, %d characters once through JSON", name, s, n, got, c)
			}
			fits := utf8.RuneCountInString(source) <= bound
			if fits && got != source {
				t.Errorf("%s(%q, %d) = %q, though %q fits", name, s, n, got, source)
			}
			if !fits && bound > 0 && (!strings.HasSuffix(got, "…") || !strings.HasPrefix(source, strings.TrimSuffix(got, "…"))) {
				t.Errorf("%s(%q, %d) = %q is no prefix and ellipsis", name, s, n, got)
			}
			if utf8.ValidString(s) && !utf8.ValidString(got) {
				t.Errorf("%s(%q, %d) = %q is not UTF-8", name, s, n, got)
			}
		}
	})
}
