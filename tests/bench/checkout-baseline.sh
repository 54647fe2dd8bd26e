#!/usr/bin/env bash
# npm run bench:checkout:baseline — the checkout code as it was before the speed work (main at a3f9469, the code
# the "13–15 checkouts/s" of docs/benchmarks.md was measured on, under a load average of ~11), driven by TODAY's
# bench:checkout, so the two can be run side by side on one machine: the ratio of their checkouts per second is
# the speed-up, whatever the machine's speed that hour. Same environment variables as bench:checkout
# (BENCH_LEVELS, BENCH_DATABASE_URL, …). The old server runs through tsx, as it did then, on the Node it was written
# for (the machine's Node 20; BASELINE_NODE) and with its own dependencies, installed once in its worktree: today's
# majors changed what it imports (kysely 0.29 has no `Migrator` export, better-sqlite3 13 wants Node 24).
set -euo pipefail
cd "$(dirname "$0")/../.."
ref="${BASELINE_REF:-a3f9469}"
dir=".tmp/checkout-baseline-$ref"
node_bin="${BASELINE_NODE:-/usr/bin/node}"
old_path="$(dirname "$node_bin"):$PATH"
if [ ! -d "$dir" ]; then
  mkdir -p .tmp
  git worktree add --detach "$dir" "$ref" >/dev/null
fi
# A link to today's node_modules (as this script once made) is replaced by the old commit's own.
if [ -L "$dir/node_modules" ] || [ ! -d "$dir/node_modules" ]; then
  rm -f "$dir/node_modules"
  (cd "$dir" && PATH="$old_path" npm ci --no-audit --no-fund)
fi
# Today's load generator and its helpers; the server, its database code and the fixtures are the old ones.
cp tests/bench/checkout.ts "$dir/tests/bench/checkout-today.ts"
cp tests/bench/server-process.ts "$dir/tests/bench/server-process.ts"
cp tests/helpers/ports.ts "$dir/tests/helpers/ports.ts"
cp tests/helpers/pg-admin.ts "$dir/tests/helpers/pg-admin.ts"
cd "$dir"
exec env PATH="$old_path" "$node_bin" node_modules/tsx/dist/cli.mjs tests/bench/checkout-today.ts
