package output

import (
	"bytes"
	"errors"
	"testing"
)

func TestWrite(t *testing.T) {
	v := map[string]any{"kind": "List", "items": []int{1}}
	testCases := []struct {
		format Format
		want   string
	}{
		{format: JSON, want: "{\n  \"items\": [\n    1\n  ],\n  \"kind\": \"List\"\n}\n"},
		{format: YAML, want: "items:\n- 1\nkind: List\n"},
	}
	for _, tc := range testCases {
		var b bytes.Buffer
		if err := Write(&b, v, tc.format); err != nil || b.String() != tc.want {
			t.Errorf("Write(%s) = %q, %v; want %q", tc.format, b.String(), err, tc.want)
		}
	}
	if err := Write(&bytes.Buffer{}, v, "xml"); err == nil {
		t.Errorf("Write(xml) succeeded")
	}
}

func TestOneLine(t *testing.T) {
	if got := OneLine(errors.New("yaml: line 3:\n\tcould not find expected ':'")).Error(); got != "yaml: line 3: could not find expected ':'" {
		t.Errorf("OneLine = %q", got)
	}
}
