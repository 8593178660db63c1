// Package version reports the build's version, set at link time by the
// Makefile.
package version

import (
	"fmt"
	"runtime"

	"k8s.io/apimachinery/pkg/version"
)

// These are overridden with -ldflags -X by the Makefile.
var (
	versionFromGit = "v0.0.0-unknown"
	commitFromGit  = ""
	buildDate      = "1970-01-01T00:00:00Z"
)

// Get returns the build's version information.
func Get() version.Info {
	return version.Info{
		GitVersion: versionFromGit,
		GitCommit:  commitFromGit,
		BuildDate:  buildDate,
		GoVersion:  runtime.Version(),
		Compiler:   runtime.Compiler,
		Platform:   fmt.Sprintf("%s/%s", runtime.GOOS, runtime.GOARCH),
	}
}
