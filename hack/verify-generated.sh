#!/usr/bin/env bash
# Fails when the generated code or CRDs differ from what `make update` would
# write. The tree is left as it was found.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${root}"
generated=(pkg/apis pkg/managedupgrade/api pkg/olm/apis pkg/generated pkg/olm/generated manifests)

snapshot=$(mktemp -d)
trap 'rm -rf "${snapshot}"' EXIT
cp -a --parents "${generated[@]}" "${snapshot}/"

hack/update-codegen.sh >/dev/null
hack/update-crds.sh

status=0
for dir in "${generated[@]}"; do
	if ! diff -ruN "${snapshot}/${dir}" "${dir}"; then
		status=1
	fi
done
if [[ ${status} -ne 0 ]]; then
	for dir in "${generated[@]}"; do
		rm -rf "${dir}"
		cp -a "${snapshot}/${dir}" "${dir}"
	done
	echo "generated files are out of date: run 'make update'" >&2
	exit 1
fi
echo "generated files are up to date"
