#!/usr/bin/env bash
# The statistical equivalence check between two builds of syncsim
# (docs/performance.md, "The equivalence check"): a fixed panel of
# parameter points over seeds 1-10 on both builds; for every metric the
# paired shift seed by seed and a Mann-Whitney U test; it fails, naming
# the metrics, where a metric moves beyond its own seed-to-seed spread.
# Every engine change quotes its result. The check itself is the Go
# program scripts/perf/equiv (its flags: -seeds, -parallel, -panel,
# -points, -out, -all, -alpha, -const-tol, -ignore; -h lists them).
#
# usage: scripts/perf/equivalence.sh OLD_BINARY NEW_BINARY [FLAGS]
#   e.g. git worktree add /tmp/old-src HEAD~1 && (cd /tmp/old-src && go build -o /tmp/old ./cmd/syncsim)
#        go build -o /tmp/new ./cmd/syncsim
#        scripts/perf/equivalence.sh /tmp/old /tmp/new -out /tmp/equiv
# Exit status: 0 pass, 1 some metric failed, 2 the check could not run.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/equiv" ./scripts/perf/equiv) || { echo "equivalence.sh: could not build scripts/perf/equiv" >&2; exit 2; }
"$tmp/equiv" "$@"
