#!/usr/bin/env bash
# Records what the binary prints for every recorded cluster in
# test/testdata/oc-examples, so that a change meant to keep behaviour (a
# refactor) can show that the same commands print the same bytes:
#
#   hack/outputs.sh [--binary FILE] [--out DIR] [--compare DIR]
#
# Each cluster gets a folder DIR/<cluster> (DIR is _output/outputs unless
# --out says otherwise) holding, per command, its standard output:
#   analyze.txt          analyze -o yaml, on every file recorded for it
#   status.txt           status --from analyze.txt
#   status-details.txt   status --from analyze.txt --details=all
#   status-json.txt      status --from analyze.txt -o json
# and commands.txt, the command lines, so that a changed command shows too.
# Every command runs at the clock the recording's reference output was
# printed at (the latest condition transition of its ClusterVersion and
# ClusterOperators + 368975ns, as pkg/internal/recordedtest computes it), so
# two runs print the same bytes.
#
# pre-checks has no offline mode: it asks the operator in a cluster. What
# pre-checks --details prints for an update to each recorded cluster's next
# minor release is recorded instead by TestPreChecksOfRecordedClusters in
# pkg/cmd/prechecks, against the golden files in
# test/testdata/golden/prechecks: record them before the change with
# go test ./pkg/cmd/prechecks/ -run TestPreChecksOfRecordedClusters -update,
# and run that test after it.
#
# With --compare DIR it then compares the recording with DIR, a previous
# recording, and fails naming every file that differs, is missing or is new.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${root}"

binary=_output/bin/update-insights-operator
out=_output/outputs
compare=
while [ $# -gt 0 ]; do
	case "$1" in
	--binary) binary=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--compare) compare=$2; shift 2 ;;
	*) echo "usage: $0 [--binary FILE] [--out DIR] [--compare DIR]" >&2; exit 2 ;;
	esac
done
if [ ! -x "${binary}" ]; then
	echo "${binary}: no such binary (make build builds it)" >&2
	exit 1
fi
if [ -n "${compare}" ] && [ ! -d "${compare}" ]; then
	echo "--compare ${compare}: no such folder (record one with --out)" >&2
	exit 1
fi
# The recording replaces the folder it is written to.
if [ -n "${compare}" ] && [ "$(realpath -m "${compare}")" = "$(realpath -m "${out}")" ]; then
	echo "--compare ${compare} is the folder the recording replaces: record into another with --out" >&2
	exit 1
fi

examples=test/testdata/oc-examples
rm -rf "${out}"
mkdir -p "${out}"

# reference_now prints the clock a recording's reference was printed at.
# Every lastTransitionTime in the recordings is "YYYY-MM-DDTHH:MM:SSZ", so
# the latest sorts last.
reference_now() {
	local latest
	latest=$(grep -ho 'lastTransitionTime: "[0-9T:-]*Z"' "$1-cv.yaml" "$1-co.yaml" | sed 's/.*"\(.*\)Z"/\1/' | sort | tail -n 1)
	if [ -z "${latest}" ]; then
		echo "$1: no condition transition in its ClusterVersion or ClusterOperators" >&2
		return 1
	fi
	echo "${latest}.000368975Z"
}

# run records one command's standard output in a file, and its command line
# in commands.txt; a command that fails stops the recording.
run() {
	local dir=$1 file=$2
	shift 2
	echo "${file}: $*" >>"${dir}/commands.txt"
	if ! "${binary}" "$@" >"${dir}/${file}"; then
		echo "${dir}/${file}: ${binary} $* failed" >&2
		return 1
	fi
}

clusters=0
for cv in "${examples}"/*-cv.yaml; do
	prefix=${cv%-cv.yaml}
	name=$(basename "${prefix}")
	dir=${out}/${name}
	mkdir -p "${dir}"
	now=$(reference_now "${prefix}")
	inputs=(--cluster-version "${prefix}-cv.yaml" --cluster-operators "${prefix}-co.yaml"
		--machine-config-pools "${prefix}-mcp.yaml" --machine-configs "${prefix}-mc.yaml" --nodes "${prefix}-node.yaml")
	# Only some recordings hold alerts, or the machine-config-operator
	# Deployment.
	if [ -f "${prefix}-alerts.json" ]; then inputs+=(--alerts "${prefix}-alerts.json"); fi
	if [ -f "${prefix}-mco-deployment.yaml" ]; then inputs+=(--deployments "${prefix}-mco-deployment.yaml"); fi
	run "${dir}" analyze.txt analyze "${inputs[@]}" --now "${now}" -o yaml
	run "${dir}" status.txt status --from "${dir}/analyze.txt" --now "${now}"
	run "${dir}" status-details.txt status --from "${dir}/analyze.txt" --now "${now}" --details=all
	run "${dir}" status-json.txt status --from "${dir}/analyze.txt" --now "${now}" -o json
	# The command lines name the output folder; compare them without it.
	sed -i "s|${out}/|OUT/|g" "${dir}/commands.txt"
	clusters=$((clusters + 1))
done
echo "recorded ${clusters} clusters, $(find "${out}" -type f | wc -l) files, in ${out}"

if [ -z "${compare}" ]; then
	exit 0
fi
differ=$( (diff -rq "${compare}" "${out}" || true) )
if [ -n "${differ}" ]; then
	echo "the recording in ${out} differs from ${compare}:"
	echo "${differ}"
	exit 1
fi
echo "the same bytes as ${compare}"
