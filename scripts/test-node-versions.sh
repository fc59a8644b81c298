#!/usr/bin/env bash
# CI: the e2e tier (the packed tarball installed in a scratch app, real commits through the hook, every built-in
# gate's self-test through the tarball's bundle) and `selftest` on the example app through the bundle the hook runs
# (dist/loopgates.cjs), under each Node.js version scripts/setup-node.sh installs (22 and 24; the floor, 20, is the
# machine's node and runs the whole suite in scripts/test.sh). Each version is put first on PATH, so npm, the hook
# and the CLI all run on it.
# Usage: bash scripts/test-node-versions.sh    Exit: 0 all passed; non-zero the first failure (named on stderr).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$LOOPGATES_ROOT"
mapfile -t nodes < <(bash scripts/setup-node.sh)
for bin in "${nodes[@]}"; do
  dir=$(dirname "$bin")
  echo "==> node $("$bin" --version): e2e tier and selftest" >&2
  scratch=$(mktemp -d)
  cp -R examples/notes-app/. "$scratch"
  git -C "$scratch" init -q
  (cd "$scratch" && PATH="$dir:$PATH" node "$LOOPGATES_ROOT/dist/loopgates.cjs" selftest) ||
    { echo "loopgates: selftest failed under node $("$bin" --version)" >&2; rm -rf "$scratch"; exit 1; }
  rm -rf "$scratch"
  PATH="$dir:$PATH" node node_modules/vitest/vitest.mjs run test/e2e ||
    { echo "loopgates: the e2e tier failed under node $("$bin" --version)" >&2; exit 1; }
done
