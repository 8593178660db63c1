// Package flags parses the values of the flags that several commands take,
// one way for all of them, into one-line errors that name the flag.
package flags

import (
	"fmt"
	"time"

	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/output"
)

// Now reads the value of --now, an RFC 3339 time with optional fractional
// seconds; without one, it is the clock's current time.
func Now(value string, clock clock.PassiveClock) (time.Time, error) {
	if value == "" {
		return clock.Now(), nil
	}
	t, err := time.Parse(time.RFC3339Nano, value)
	if err != nil {
		return time.Time{}, fmt.Errorf("--now %q is not an RFC 3339 time such as 2024-08-02T10:13:00.5Z", value)
	}
	return t, nil
}

// Format reads the value of -o.
func Format(value string) (output.Format, error) {
	switch f := output.Format(value); f {
	case output.JSON, output.YAML:
		return f, nil
	default:
		return "", fmt.Errorf("-o %q: want json or yaml", value)
	}
}
