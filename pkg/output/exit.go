package output

// ExitError ends a command with its own exit code rather than 1, so that
// scripts can tell what it says from a failure: its output was printed,
// and the error says on stderr why the exit is not 0.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }

func (e *ExitError) Unwrap() error { return e.Err }
