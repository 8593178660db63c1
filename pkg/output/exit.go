package output

import "errors"

// ExitError ends a command with its own exit code rather than 1, so that
// scripts can tell what it says from a failure: its output was printed,
// and the error says on stderr why the exit is not 0.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }

func (e *ExitError) Unwrap() error { return e.Err }

// ExitCode is the exit code of a command that ended with err: 0 without
// one, an ExitError's own code, and 1 for any other.
func ExitCode(err error) int {
	var exit *ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.Code
	default:
		return 1
	}
}
