/*
Copyright 2019 The Kubernetes Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package genall

import (
	"io"
	"os"
)

// InputRule describes how to load non-code boilerplate artifacts.
// It's not used for loading code.
type InputRule interface {
	// OpenForRead opens the given non-code artifact for reading.
	OpenForRead(path string) (io.ReadCloser, error)
}
type inputFromFileSystem struct{}

func (inputFromFileSystem) OpenForRead(path string) (io.ReadCloser, error) {
	return os.Open(path)
}

// InputFromFileSystem reads from the filesystem as normal.
var InputFromFileSystem = inputFromFileSystem{}
