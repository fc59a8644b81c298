#!/usr/bin/env bash
# Installs adb (Debian/Ubuntu package `adb`), which `loopgates tap`, `dump-audit --device` and `loopgates device` drive
# a phone or an emulator through. The tests never use it: they run a scripted fake adb (test/helpers/fake-adb).
# Idempotent: nothing happens when adb is on PATH. Runs apt-get as root, or through `sudo -n` when not root.
# LOOPGATES_NO_ADB=1 skips it, saying so (a machine that never drives a device).
# Exit: 0 installed, already present or skipped on purpose; 1 apt-get could not install it.
set -euo pipefail
if command -v adb >/dev/null 2>&1; then echo "==> adb: $(command -v adb)" >&2; exit 0; fi
if [[ ${LOOPGATES_NO_ADB:-} == 1 ]]; then
  echo "==> adb: not installed (LOOPGATES_NO_ADB=1): loopgates tap and loopgates device will refuse until it is" >&2
  exit 0
fi
if [[ $(id -u) -eq 0 ]]; then as_root=(); else as_root=(sudo -n); fi
echo "==> apt-get install -y adb" >&2
if ! "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 ||
   ! "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends adb >&2; then
  echo "loopgates: could not install adb with apt-get (needs root or passwordless sudo, and Debian's archive)." >&2
  echo "  fix: sudo apt-get update && sudo apt-get install -y adb   (or LOOPGATES_NO_ADB=1 on a machine that drives no device)" >&2
  exit 1
fi
echo "==> adb: $(command -v adb)" >&2
