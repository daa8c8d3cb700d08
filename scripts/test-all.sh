#!/usr/bin/env bash
# `npm test`: every check CI runs, in order, stopping at the first failure. Each step prints how long
# it took and the run ends with a table of all of them, so a step that grows is seen (and explained in
# its commit) before CI's time limit is.
set -euo pipefail
cd "$(dirname "$0")/.."

timings=()
started=$(date +%s)
# The table prints on failure too, so a red run still shows where the time went.
current=''
summary() {
  local rc=$?
  printf '\n== step times\n'
  if [ ${#timings[@]} -gt 0 ]; then printf '%s\n' "${timings[@]}"; fi
  if [ "$rc" -ne 0 ] && [ -n "$current" ]; then printf '%-16s failed\n' "$current"; fi
  printf '%-16s %4ds\n' total $(($(date +%s) - started))
}
trap summary EXIT
step() {
  local name=$1
  shift
  current=$name
  printf '\n== %s\n' "$name"
  local t0 t1
  t0=$(date +%s)
  "$@"
  t1=$(date +%s)
  timings+=("$(printf '%-16s %4ds' "$name" $((t1 - t0)))")
  printf '== %s: %ds\n' "$name" $((t1 - t0))
  current=''
}

# Runs "name|command" pairs side by side (each its own output file, printed in order when all have
# ended) and fails when any of them did: checks that wait on I/O or leave a core idle share the time.
together() {
  local dir
  dir=$(mktemp -d)
  local pids=() names=() i=0 rc=0
  for pair in "$@"; do
    names+=("${pair%%|*}")
    bash -c "${pair#*|}" >"$dir/$i.log" 2>&1 &
    pids+=($!)
    i=$((i + 1))
  done
  for i in "${!pids[@]}"; do
    if ! wait "${pids[$i]}"; then
      rc=1
      printf -- '-- %s failed\n' "${names[$i]}"
    fi
    printf -- '-- %s\n' "${names[$i]}"
    cat "$dir/$i.log"
  done
  rm -rf "$dir"
  return $rc
}

step typecheck+lint together 'typecheck|npm run -s typecheck' 'lint|npm run -s lint'
step lint:openapi npm run -s lint:openapi
step codegen:check npm run -s codegen:check
step unit npm run -s test:unit
step unit:pg npm run -s test:pg
step build npm run -s build
step size npm run -s size
step e2e npm run -s test:e2e
# The payment path's benchmark in short (5 payments, SQLite, the local chain, then its isolation
# step, and a backlog of 1,000 events drained): it fails when a webhook never comes, or comes twice
# or out of order; its figures are for the full run (docs/performance.md).
step contracts together 'contract|node scripts/contract-ci.mjs' \
  'contract:pg|node scripts/contract-ci.mjs --postgres' \
  'bench:payments|npm run -s bench:payments -- --payments 5 --engine sqlite --chain local --drain 1000'
step two-processes npm run -s test:two-processes

