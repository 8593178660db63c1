#!/usr/bin/env bash
# Runs every fuzz target under ./pkg/..., one after the other, each for
# FUZZTIME, and prints each target's executions and time, then a summary.
# A target that fails is reported with the crasher's path and the run goes on
# to the next target, so that a long run finds every failure; the run then
# exits non-zero.
#
#   FUZZTIME          how long each target runs (go's -fuzztime: 30s, 10m, 1000x)
#   FUZZPARALLEL      fuzzing workers per target (default 1)
#   FUZZMINIMIZETIME  how long each new input is minimized (default 0: none).
#                     With few workers, minimizing every new interesting
#                     input (go's default, up to 60s each) stalls fuzzing;
#                     a crasher is written as found.
#   FUZZ              a regular expression: only the targets it matches, by
#                     name (FuzzCompute) or by directory and name
#                     (pkg/updateplan/FuzzCompute)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${root}"

fuzztime=${FUZZTIME:-30s}
parallel=${FUZZPARALLEL:-1}
minimize=${FUZZMINIMIZETIME:-0}
only=${FUZZ:-.}

# seconds turns go's elapsed time (30s, 1m0s, 1h0m5s) into seconds.
seconds() {
	local d=$1 total=0
	[[ ${d} =~ ([0-9]+)h ]] && total=$((total + BASH_REMATCH[1] * 3600))
	[[ ${d} =~ ([0-9]+)m ]] && total=$((total + BASH_REMATCH[1] * 60))
	[[ ${d} =~ ([0-9]+)s ]] && total=$((total + BASH_REMATCH[1]))
	echo "${total}"
}

# row is a line of the summary table.
row() {
	printf '%-28s %-40s %12s %10s %10s\n' "$@"
}

summary=()
failed=0
for pkg in $(go list ./pkg/...); do
	dir=${pkg#"$(go list -m)"/}
	# Only packages with fuzz targets are built for the listing.
	grep -lqs '^func Fuzz' "${dir}"/*_test.go || continue
	for target in $(go test -list '^Fuzz' "./${dir}" | grep '^Fuzz' || true); do
		[[ ${target} =~ ${only} || ${dir}/${target} =~ ${only} ]] || continue
		echo "=== ${target} (./${dir}, ${fuzztime})"
		log=$(mktemp)
		start=$(date +%s)
		if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "${fuzztime}" -fuzzminimizetime "${minimize}" \
			-parallel "${parallel}" "./${dir}" 2>&1 | tee "${log}"; then
			crasher=$(sed -n 's/.*Failing input written to \(.*\)/\1/p' "${log}" | head -1)
			if [[ -n ${crasher} ]]; then
				echo "FAIL ${target}: the crasher is ${dir}/${crasher} (go test -run '${target}/$(basename "${crasher}")' ./${dir})" >&2
			else
				echo "FAIL ${target}: a seed or a kept input of ${dir}/testdata/fuzz/${target} fails (go test -run '${target}' ./${dir})" >&2
			fi
			rm -f "${log}"
			failed=$((failed + 1))
			summary+=("$(row "${target}" "./${dir}" FAIL - -)")
			continue
		fi
		elapsed=$(($(date +%s) - start))
		# go's last progress line: fuzz: elapsed: 30s, execs: 12345 (411/sec), ...
		# or, when the cached corpus' baseline took all the time, no execs.
		last=$(grep -E '^fuzz: elapsed: ' "${log}" | tail -1 || true)
		execs=0
		[[ ${last} =~ execs:\ ([0-9]+) ]] && execs=${BASH_REMATCH[1]}
		fuzzed=$(sed -E 's/^fuzz: elapsed: ([^,]+),.*/\1/' <<<"${last}")
		rm -f "${log}"
		secs=$(seconds "${fuzzed}")
		rate=$((execs / (secs > 0 ? secs : 1)))
		printf -- '--- %s: %s execs in %s fuzzing (%s/sec), %ss with the build\n' "${target}" "${execs}" "${fuzzed}" "${rate}" "${elapsed}"
		summary+=("$(row "${target}" "./${dir}" "${execs}" "${fuzzed}" "${rate}/s")")
	done
done

echo
row target package execs fuzzing rate
printf '%s\n' "${summary[@]}"
if ((failed > 0)); then
	echo "${failed} target(s) failed" >&2
	exit 1
fi
