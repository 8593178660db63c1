#!/usr/bin/env bash
# Builds kube-apiserver and etcd for the integration tests from the Go module
# proxy (no binary downloads), into a git-ignored cache folder, and prints that
# folder. A folder that already holds both binaries for this tool module's
# go.sum is reused, so only the first run pays the build (minutes on 2 cores).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
module="${root}/hack/testbin"
key=$(cat "${module}/go.mod" "${module}/go.sum" "${module}/etcd/main.go" | sha256sum | cut -c1-12)
dest="${TESTBIN_DIR:-${root}/.cache/testbin}/${key}"

if [[ -x "${dest}/kube-apiserver" && -x "${dest}/etcd" ]]; then
	echo "${dest}"
	exit 0
fi

mkdir -p "${dest}.tmp"
echo "building kube-apiserver and etcd into ${dest} (first run only; several minutes on a cold module cache)..." >&2
# A line every 30 seconds, so that the wait is not silent.
start=${SECONDS}
( while sleep 30; do echo "  still building ($((SECONDS - start))s)..." >&2; done ) &
ticker=$!
trap 'kill "${ticker}" 2>/dev/null' EXIT
cd "${module}"
# The tool module has no vendor/ and may have to fetch modules; the project's
# GOFLAGS (e.g. -mod=vendor) must not leak into it.
export GOFLAGS=-mod=mod GOWORK=off CGO_ENABLED=0
go build -trimpath -o "${dest}.tmp/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver
echo "kube-apiserver built; building etcd..." >&2
go build -trimpath -o "${dest}.tmp/etcd" ./etcd
rm -rf "${dest}"
mv "${dest}.tmp" "${dest}"
echo "${dest}"
