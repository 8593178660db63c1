#!/usr/bin/env bash
# Fails when go.mod/go.sum are not tidy or vendor/ does not match them.
# Needs the module proxy (or a warm module cache) to compare against.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${root}"
export GOFLAGS=-mod=mod GONOSUMDB=github.com/openshift

if ! go mod tidy -diff; then
	echo "go.mod/go.sum are not tidy: run 'make update-vendor'" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "${tmp}"' EXIT
go mod vendor -o "${tmp}/vendor"
if ! diff -r vendor "${tmp}/vendor" >/dev/null; then
	diff -r vendor "${tmp}/vendor" | head -20 >&2
	echo "vendor/ does not match go.mod: run 'make update-vendor'" >&2
	exit 1
fi
go mod verify
echo "vendor is up to date"
