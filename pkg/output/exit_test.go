package output

import (
	"errors"
	"fmt"
	"testing"
)

func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{errors.New("failed"), 1},
		{&ExitError{Code: 3, Err: errors.New("stale")}, 3},
		{fmt.Errorf("wrapped: %w", &ExitError{Code: 4, Err: errors.New("unknown")}), 4},
	} {
		if got := ExitCode(tc.err); got != tc.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}
