#!/usr/bin/env bash
# Installs gitleaks from Debian's trixie suite into .tools/gitleaks/ without touching the system's apt
# configuration: a temporary sources list, lists dir and cache dir are passed to apt-get with -o.
# Usage: bash scripts/setup-gitleaks.sh    (prints the binary's path on its last line)
# Exit: 0 installed or already present; 1 apt could not fetch or unpack it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/.tools/gitleaks"
bin="$dest/usr/bin/gitleaks"
if [[ -x "$bin" ]]; then echo "$bin"; exit 0; fi
if command -v gitleaks >/dev/null 2>&1; then command -v gitleaks; exit 0; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Reuse the mirror the machine's own apt sources name (deb822 or one-line format).
mirror=$(grep -hsoE '^(URIs:[[:space:]]*|deb[[:space:]]+(\[[^]]*\][[:space:]]+)?)https?://[^[:space:]]+' \
  /etc/apt/sources.list.d/*.sources /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
  | grep -v -- '-security' | head -n1 | grep -oE 'https?://[^[:space:]]+' || true)
mirror=${mirror:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/deb"
if [[ -f $keyring ]]; then
  echo "deb [signed-by=$keyring] $mirror trixie main" >"$work/sources.list"
else
  echo "deb $mirror trixie main" >"$work/sources.list"
fi
apt_opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
echo "loopgates: fetching gitleaks from Debian trixie ($mirror)" >&2
apt-get "${apt_opts[@]}" -qq update --error-on=any >&2
(cd "$work/deb" && apt-get "${apt_opts[@]}" -qq download gitleaks >&2)
deb=$(ls "$work"/deb/gitleaks_*.deb)
mkdir -p "$dest"
dpkg -x "$deb" "$dest"
[[ -x "$bin" ]] || { echo "loopgates: gitleaks was not found in $deb" >&2; exit 1; }
echo "$bin"
