#!/usr/bin/env bash
# The main job, on the bundled example app (examples/notes-app): set up loopgates, copy the app into a scratch git
# repository under the OS temp dir, `loopgates install` there, then show
#   1. a commit that stages a (generated, fake) credential: refused, file:line named, value never printed;
#   2. a commit that hard-codes UI text in a layout: refused;
#   3. a clean commit (a new string in every locale): lands;
#   4. `loopgates run --all` over the whole app and `loopgates mutate`: every gate proves it can fail.
# Exit 0 only when every step had the expected outcome. The scratch copy is kept for a look; its path is printed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$LOOPGATES_ROOT"
cli="$LOOPGATES_ROOT/bin/loopgates.js"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/loopgates-example.XXXXXX")
app="$scratch/notes-app"
cp -R examples/notes-app "$app"
cd "$app"
git init -q -b main
git config user.name "Example Dev"
git config user.email "dev@example.invalid"
git add -A
git commit -q -m "notes-app: baseline"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
failed=0
expect() { # expect <wanted exit> <got exit> <what>
  if [[ $1 == "$2" ]]; then echo "    ok: $3 (exit $2)"; else echo "    UNEXPECTED: $3 (wanted exit $1, got $2)"; failed=1; fi
}

step "loopgates install (in $app)"
set +e; node "$cli" install; rc=$?; set -e
expect 0 "$rc" "install placed the hook and proved it"

step "1. a commit staging a credential is refused"
# A fresh fake AWS access key id each run (the shape gitleaks' aws-access-token rule detects); never a real one.
key=$(node -e 'const a="ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";let s="AKIA";for(const b of require("crypto").randomBytes(16))s+=a[b%32];console.log(s)')
mkdir -p app/src/main/java/org/loopgates/notes/net
cat >app/src/main/java/org/loopgates/notes/net/SyncClient.kt <<KT
package org.loopgates.notes.net

object SyncClient {
    const val REGION = "eu-west-1"
    const val ACCESS_KEY_ID = "$key"
}
KT
git add app/src/main/java/org/loopgates/notes/net/SyncClient.kt
set +e; out=$(git commit -m "sync: add client" 2>&1); rc=$?; set -e
printf '%s\n' "$out" | sed 's/^/    | /'
[[ $rc != 0 ]] && rc=refused || rc=landed
expect refused "$rc" "credential commit"
if printf '%s' "$out" | grep -qF "$key"; then echo "    UNEXPECTED: the secret value was printed"; failed=1; fi
git rm -q --cached app/src/main/java/org/loopgates/notes/net/SyncClient.kt
rm -r app/src/main/java/org/loopgates/notes/net

step "2. a commit hard-coding UI text in a layout is refused"
sed -i.bak 's|android:contentDescription="@string/play_recording"|android:contentDescription="Play"|' app/src/main/res/layout/item_note.xml
rm app/src/main/res/layout/item_note.xml.bak
git add app/src/main/res/layout/item_note.xml
set +e; out=$(git commit -m "note row: label the play button" 2>&1); rc=$?; set -e
printf '%s\n' "$out" | sed 's/^/    | /'
[[ $rc != 0 ]] && rc=refused || rc=landed
expect refused "$rc" "hard-coded contentDescription commit"
git checkout -q HEAD -- app/src/main/res/layout/item_note.xml

step "3. a clean commit lands"
for d in values values-de values-pl values-pt-rBR; do
  case $d in
    values) text="Share note" ;; values-de) text="Notiz teilen" ;; values-pl) text="Udostępnij notatkę" ;; *) text="Compartilhar nota" ;;
  esac
  sed -i.bak "s|    <string name=\"action_delete\">|    <string name=\"action_share\">$text</string>\n    <string name=\"action_delete\">|" "app/src/main/res/$d/strings.xml"
  rm "app/src/main/res/$d/strings.xml.bak"
done
git add app/src/main/res
set +e; out=$(git commit -m "strings: add action_share in every locale" 2>&1); rc=$?; set -e
printf '%s\n' "$out" | sed 's/^/    | /'
[[ $rc == 0 ]] && rc=landed || rc=refused
expect landed "$rc" "clean commit"
git log --oneline | sed 's/^/    /'

step "4. loopgates run --all (every gate over the whole app)"
set +e; node "$cli" run --all; rc=$?; set -e
expect 0 "$rc" "run --all"

step "5. loopgates mutate (each gate's defect injected into the app's real files, in memory; must be killed)"
set +e; node "$cli" mutate; rc=$?; set -e
expect 0 "$rc" "mutate"

echo
echo "scratch repository kept at: $app"
if (( failed )); then echo "example: some step did not have the expected outcome" >&2; exit 1; fi
echo "example: every step had the expected outcome"
