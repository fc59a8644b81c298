#!/usr/bin/env bash
# Shared set-up for scripts/example.sh, scripts/test.sh and .ci/run: checks Node >= 20, installs the npm
# dependencies when they are missing or stale, fetches gitleaks from Debian when none is on PATH, Node 22 and 24 into
# .tools/ (scripts/setup-node.sh), installs adb (apt-get install -y adb) when none is on PATH, builds dist/.
# Source it (it exports PATH with the project-local gitleaks); exits non-zero naming what failed.
set -euo pipefail
LOOPGATES_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export LOOPGATES_ROOT
cd "$LOOPGATES_ROOT"

node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if (( node_major < 20 )); then
  echo "loopgates: Node.js 20 or newer is required (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 2
fi

if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "==> npm ci" >&2
  # --ignore-scripts: the bench's hook-manager peers (lefthook, simple-git-hooks) would install their hooks into this
  # checkout's .git from their postinstall; nothing here needs an install script (esbuild's binary is its optional dep).
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2
fi

if ! command -v gitleaks >/dev/null 2>&1 && [[ -z ${LOOPGATES_GITLEAKS:-} ]]; then
  gl=$(bash scripts/setup-gitleaks.sh | tail -n1)
  export PATH="$(dirname "$gl"):$PATH"
fi
echo "==> gitleaks: ${LOOPGATES_GITLEAKS:-$(command -v gitleaks)}" >&2

# msgfmt (Debian's gettext) is the oracle of string-parity's gettext format checks (test/unit/string-parity-gettext-msgfmt.test.ts).
if ! command -v msgfmt >/dev/null 2>&1; then
  sudo=""
  if (( $(id -u) != 0 )); then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "loopgates: msgfmt is missing and this user cannot run apt-get; fix: apt-get install -y gettext (as root)" >&2
      exit 2
    fi
  fi
  echo "==> apt-get install gettext (msgfmt)" >&2
  $sudo apt-get update -qq >&2
  $sudo apt-get install -y -qq gettext >&2
fi
echo "==> msgfmt: $(command -v msgfmt)" >&2

# Node 22 and 24 for scripts/test-node-versions.sh (CI runs the e2e tier and selftest under each): linux-x64 only.
if [[ $(uname -sm) == "Linux x86_64" ]]; then
  bash scripts/setup-node.sh >/dev/null
fi

# adb for the device loops (the tests use a scripted fake, test/helpers/fake-adb, never this one).
bash scripts/setup-adb.sh

echo "==> npm run build" >&2
npm run --silent build >&2
