#!/usr/bin/env bash
# Refreshes the OpenShift CRDs the integration tests install (ClusterVersion,
# ClusterOperator, Infrastructure, MachineConfigPool, MachineConfig,
# APIRequestCount, CloudCredential, the console operator's Console
# configuration and the ConsolePlugin) from the openshift/api module pinned in
# go.mod. `go mod vendor` copies Go packages only, so the CRD manifests inside openshift/api
# do not reach vendor/ and are kept in test/testdata/crds instead. The
# machine-config operator's image-mode CRDs (MachineOSConfig, MachineOSBuild)
# and MachineConfigNode go to test/testdata/crds/imagemode: the tests and
# run-local install every file of test/testdata/crds but not its
# subdirectories, so a cluster without them stays the default, and only the
# tests that want them install them. Needs the module cache or the module
# proxy; run it after bumping openshift/api.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${root}"
version=$(go list -m -f '{{.Version}}' github.com/openshift/api)
dir=$(GOFLAGS=-mod=mod GONOSUMDB=github.com/openshift go mod download -json "github.com/openshift/api@${version}" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
src="${dir}/config/v1/zz_generated.crd-manifests"
dest="${root}/test/testdata/crds"
mkdir -p "${dest}"
cp "${src}/0000_00_cluster-version-operator_01_clusterversions-Default.crd.yaml" "${dest}/"
cp "${src}/0000_00_cluster-version-operator_01_clusteroperators.crd.yaml" "${dest}/"
cp "${src}/0000_10_config-operator_01_infrastructures-Default.crd.yaml" "${dest}/"
src="${dir}/machineconfiguration/v1/zz_generated.crd-manifests"
cp "${src}/0000_80_machine-config_01_machineconfigpools-Default.crd.yaml" "${dest}/"
cp "${src}/0000_80_machine-config_01_machineconfigs.crd.yaml" "${dest}/"
mkdir -p "${dest}/imagemode"
cp "${src}/0000_80_machine-config_01_machineosconfigs.crd.yaml" "${dest}/imagemode/"
cp "${src}/0000_80_machine-config_01_machineosbuilds.crd.yaml" "${dest}/imagemode/"
cp "${src}/0000_80_machine-config_01_machineconfignodes-Default.crd.yaml" "${dest}/imagemode/"
cp "${dir}/apiserver/v1/zz_generated.crd-manifests/kube-apiserver_apirequestcounts.crd.yaml" "${dest}/"
cp "${dir}/operator/v1/zz_generated.crd-manifests/0000_40_cloud-credential_00_cloudcredentials.crd.yaml" "${dest}/"
cp "${dir}/operator/v1/zz_generated.crd-manifests/0000_50_console_01_consoles.crd.yaml" "${dest}/"
cp "${dir}/console/v1/zz_generated.crd-manifests/90_consoleplugins.crd.yaml" "${dest}/"
chmod 0644 "${dest}"/*.yaml "${dest}"/imagemode/*.yaml
