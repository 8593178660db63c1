#!/usr/bin/env bash
# Regenerates, with the vendored k8s.io/code-generator, the deepcopy
# functions of the insight API, of the mirror of the Managed Upgrade
# Operator's UpgradeConfig and of the mirror of OLM's kinds, and the typed
# clientsets, listers and informers of the insight API and of the OLM
# mirror.
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

kube::codegen::gen_helpers \
	--boilerplate "${root}/hack/boilerplate.go.txt" \
	"${root}/pkg/olm/apis"

kube::codegen::gen_client \
	--with-watch \
	--output-dir "${root}/pkg/generated" \
	--output-pkg "${module}/pkg/generated" \
	--boilerplate "${root}/hack/boilerplate.go.txt" \
	"${root}/pkg/apis"

# The OLM mirror's clients only get, list and watch: the mirror drops
# fields, so an object read through it must never be written back.
kube::codegen::gen_client \
	--with-watch \
	--output-dir "${root}/pkg/olm/generated" \
	--output-pkg "${module}/pkg/olm/generated" \
	--boilerplate "${root}/hack/boilerplate.go.txt" \
	"${root}/pkg/olm/apis"
