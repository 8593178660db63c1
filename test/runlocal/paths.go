package main

import (
	"os"
	"path/filepath"
	"strings"
)

// shown is how run-local prints a path: relative to the working directory,
// which is the repository's root when make runs it, so that what it prints
// can be pasted there and names no directory of the machine it ran on.
func shown(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	return relativeTo(wd, path)
}

// relativeTo is path relative to dir when it lies beneath dir, and
// absolute otherwise: a path such as ../../tmp/x depends on where one
// stands as much as an absolute one does, and is harder to read.
func relativeTo(dir, path string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.Clean(path)
	}
	return rel
}
