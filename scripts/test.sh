#!/usr/bin/env bash
# The test command README.md gives: set up (deps, gitleaks, build), then `npm test` (vitest: unit, integration, e2e).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$LOOPGATES_ROOT"
npx vitest run "$@"
