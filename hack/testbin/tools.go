//go:build tools

// Package testbin pins k8s.io/kubernetes so that `go build
// k8s.io/kubernetes/cmd/kube-apiserver` resolves inside this module.
package testbin

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
)
