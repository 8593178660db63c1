package flags

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/update-insights/update-insights-operator/pkg/output"
)

func TestNow(t *testing.T) {
	current := time.Date(2024, 8, 5, 17, 30, 0, 0, time.UTC)
	testCases := []struct {
		value   string
		want    time.Time
		wantErr string
	}{
		{value: "", want: current},
		{value: "2024-08-05T17:23:22Z", want: time.Date(2024, 8, 5, 17, 23, 22, 0, time.UTC)},
		{value: "2024-08-05T17:23:22.000368975Z", want: time.Date(2024, 8, 5, 17, 23, 22, 368975, time.UTC)},
		{value: "2024-08-05T19:23:22+02:00", want: time.Date(2024, 8, 5, 17, 23, 22, 0, time.UTC)},
		{value: "yesterday", wantErr: `--now "yesterday" is not an RFC 3339 time such as 2024-08-02T10:13:00.5Z`},
		{value: "2024-08-05 17:23:22", wantErr: `--now "2024-08-05 17:23:22" is not an RFC 3339 time such as 2024-08-02T10:13:00.5Z`},
	}
	for _, tc := range testCases {
		t.Run(tc.value, func(t *testing.T) {
			got, err := Now(tc.value, clocktesting.NewFakePassiveClock(current))
			if diff := cmp.Diff(tc.wantErr, errorText(err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if !got.Equal(tc.want) {
				t.Errorf("Now(%q) = %v, want %v", tc.value, got, tc.want)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	testCases := []struct {
		value   string
		want    output.Format
		wantErr string
	}{
		{value: "json", want: output.JSON},
		{value: "yaml", want: output.YAML},
		{value: "xml", wantErr: `-o "xml": want json or yaml`},
		{value: "JSON", wantErr: `-o "JSON": want json or yaml`},
		{value: "", wantErr: `-o "": want json or yaml`},
	}
	for _, tc := range testCases {
		t.Run(tc.value, func(t *testing.T) {
			got, err := Format(tc.value)
			if diff := cmp.Diff(tc.wantErr, errorText(err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if got != tc.want {
				t.Errorf("Format(%q) = %q, want %q", tc.value, got, tc.want)
			}
		})
	}
}

func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
