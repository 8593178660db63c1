//go:build tools

// Package hack pins the code generators in go.mod so that they are vendored
// and `make update` runs without network access. kube_codegen.sh installs
// every generator of a stage, used or not, so all of them are listed.
package hack

import (
	_ "k8s.io/code-generator"
	_ "k8s.io/code-generator/cmd/applyconfiguration-gen"
	_ "k8s.io/code-generator/cmd/client-gen"
	_ "k8s.io/code-generator/cmd/conversion-gen"
	_ "k8s.io/code-generator/cmd/deepcopy-gen"
	_ "k8s.io/code-generator/cmd/defaulter-gen"
	_ "k8s.io/code-generator/cmd/informer-gen"
	_ "k8s.io/code-generator/cmd/lister-gen"
	_ "k8s.io/code-generator/cmd/validation-gen"
	_ "sigs.k8s.io/controller-tools/cmd/controller-gen"
)
