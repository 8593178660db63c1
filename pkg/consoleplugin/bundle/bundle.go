// Package bundle embeds the console plugin's build, when it was copied into
// dist before the binary was built (the Dockerfile and `make
// console-plugin-bundle` copy console-plugin/dist there). A fresh clone has
// only dist/.placeholder, committed so that the embed pattern matches and the
// module builds, vets and tests before any npm build; the server answers 503
// for a bundle without its plugin manifest.
package bundle

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var files embed.FS

// FS is the bundle: the files of console-plugin/dist, at its root.
func FS() fs.FS {
	dist, err := fs.Sub(files, "dist")
	if err != nil {
		// Only a pattern that embeds no dist gets here, which the
		// compiler refuses.
		panic(err)
	}
	return dist
}
