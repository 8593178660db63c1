#!/usr/bin/env bash
# Regenerates, with the vendored k8s.io/code-generator, the deepcopy
# functions of the insight API and of the mirror of the Managed Upgrade
# Operator's UpgradeConfig, and the insight API's typed clientset, listers
# and informers.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
module=github.com/update-insights/update-insights-operator
codegen="${root}/vendor/k8s.io/code-generator"

# kube_codegen.sh `go install`s the generators; keep them out of GOPATH/bin.
export GOBIN="${root}/_output/tools/bin"
mkdir -p "${GOBIN}"

source "${codegen}/kube_codegen.sh"

kube::codegen::gen_helpers \
	--boilerplate "${root}/hack/boilerplate.go.txt" \
	"${root}/pkg/apis"

# The read-only mirror of the Managed Upgrade Operator's UpgradeConfig gets
# deepcopy (its objects pass through caches) but no client.
kube::codegen::gen_helpers \
	--boilerplate "${root}/hack/boilerplate.go.txt" \
	"${root}/pkg/managedupgrade/api"

kube::codegen::gen_client \
	--with-watch \
	--output-dir "${root}/pkg/generated" \
	--output-pkg "${module}/pkg/generated" \
	--boilerplate "${root}/hack/boilerplate.go.txt" \
	"${root}/pkg/apis"
