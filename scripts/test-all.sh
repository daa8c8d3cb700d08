#!/usr/bin/env bash
# `npm test`: every check CI runs, in order, stopping at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*"; }
step typecheck;        npm run -s typecheck
step lint;             npm run -s lint
step lint:openapi;     npm run -s lint:openapi
step codegen:check;    npm run -s codegen:check
step unit;             npm run -s test:unit
step build;            npm run -s build
step size;             npm run -s size
step e2e;              npm run -s test:e2e
step contract;         node scripts/contract-ci.mjs
