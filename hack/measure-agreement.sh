#!/usr/bin/env bash
# Prints how much of what `oc adm upgrade status` printed for the recorded
# clusters (test/testdata/oc-examples) the status command reproduces: per
# case and output, the reference's lines that a line diff against ours keeps,
# as is (the deliberate differences count against us), and the total share.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "${root}"

go test -count=1 -run '^$' -bench 'BenchmarkReferenceAgreement' -benchtime 1x ./pkg/statusview/ |
	awk '/^BenchmarkReferenceAgreement\// {
		name = $1; sub(/^BenchmarkReferenceAgreement\//, "", name); sub(/-[0-9]+$/, "", name)
		for (i = 3; i < NF; i += 2) m[$(i+1)] = $(i)
		printf "%-72s %4d of %4d oc lines  %6.2f%%\n", name, m["reproduced-lines"], m["oc-lines"], m["oc-lines-%"]
		found = 1; next
	}
	/^(    |--- FAIL|FAIL)/ { lines = lines $0 "\n" }
	END { if (!found) { printf "the benchmark failed:\n%s", lines; exit 1 } }'
