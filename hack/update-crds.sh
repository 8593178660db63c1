#!/usr/bin/env bash
# Regenerates the insight CRDs in manifests/ with the vendored controller-gen,
# named by the CVO's 0000_NN_<component>_NN_<kind> convention.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="${1:-${root}/manifests}"
bin="${root}/_output/tools/bin"
mkdir -p "${bin}"
go build -o "${bin}/controller-gen" sigs.k8s.io/controller-tools/cmd/controller-gen

tmp=$(mktemp -d)
trap 'rm -rf "${tmp}"' EXIT
cd "${root}"
"${bin}/controller-gen" crd paths=./pkg/apis/... output:crd:dir="${tmp}"

rm -f "${out}"/0000_50_update-insights-operator_01_*.crd.yaml
for f in "${tmp}"/openshift.muller.dev_*.yaml; do
	plural=$(basename "${f}" .yaml)
	plural=${plural#openshift.muller.dev_}
	cp "${f}" "${out}/0000_50_update-insights-operator_01_${plural}.crd.yaml"
done
