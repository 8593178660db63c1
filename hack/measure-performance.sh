#!/usr/bin/env bash
# Prints the performance figures the project commits to:
# - the pure assessment + estimate of a 1,000-operator cluster with 100
#   history entries (time and allocations per sync);
# - the reaction time from a ClusterOperator version change to the insight's
#   new completion seen by a watcher, against a local kube-apiserver.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${root}"

echo "== pure assessment + ETA, 1,000 payload ClusterOperators, 100 history entries"
# Ten runs each: the median is the figure, the spread shows the machine's noise.
go test -run '^$' -bench 'BenchmarkClusterVersionProgress' -benchmem -count 10 ./pkg/assessment/ |
	awk '/^Benchmark/ { name = $1; sub(/-[0-9]+$/, "", name); ns[name] = ns[name] " " $3; allocs[name] = $7 }
	END {
		for (name in ns) {
			n = split(substr(ns[name], 2), v, " ")
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
			printf "%-42s median %.1f µs/op (min %.1f, max %.1f, %d runs), %s allocs/op\n", name, v[int((n + 1) / 2)] / 1000, v[1] / 1000, v[n] / 1000, n, allocs[name]
		}
	}'

echo "== reaction time: ClusterOperator version change -> completionPercent seen by a watcher (200 changes)"
KUBEBUILDER_ASSETS="$(hack/install-testbin.sh)" go test -count=1 -run '^$' -bench 'BenchmarkReactionTime' -benchtime 200x ./test/integration/ 2>/dev/null |
	awk '/p50-ms/ { for (i = 1; i <= NF; i++) { if ($(i) == "p50-ms") p50 = $(i-1); if ($(i) == "max-ms") max = $(i-1) } printf "p50 %s ms, worst %s ms\n", p50, max }'
