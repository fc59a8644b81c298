// The secrets gate's node-free pass (hooks/pre-commit loopgates_try_secrets, gates/secrets/fast.ts), proven
// equivalent to node: every staged-mode secrets and skip scenario is committed twice, once with the fast paths off
// (LOOPGATES_NO_FAST_PATH=1: node judges) and once with them on, and must give the same exit code, the same landing
// and the same ledger verdicts and counts. The plain cases must pass without node; every other case (one per
// precondition of the fast path) must start node.
import { chmodSync, copyFileSync, mkdirSync, existsSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, fakeAwsKeyId, head, withSandbox, gitThroughHooks, type Sandbox } from './install-support.js';
import { localGitleaksDir } from '../helpers/setup-env.js';

const APP = { 'README.md': '# notes\n', 'notes.txt': 'first\n', 'docs/guide.md': 'guide\n', 'vendor/readme.txt': 'vendored\n' };
// Every built-in gate on (the defaults); maestro-flows and dump-audit have nothing here and skip.
const CONFIG = 'version: 1\n';

let s: Sandbox;
let release: () => void = () => undefined;
let finished: Promise<void> = Promise.resolve();
let marker = '';
let gitleaks = '';
let cache = '';
let ignoreN = 1;

const hookEnv = (): Record<string, string> => ({ LOOPGATES_NODE: join(s.base, 'node-wrapper'), LOOPGATES_GITLEAKS: gitleaks });
const nodeStarts = () => (existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean).length : 0);
const ledgerLines = () => readFileSync(join(s.repo.dir, '.loopgates', 'ledger.jsonl'), 'utf8').split('\n').filter(Boolean);

const gitAsync = (args: string[], extraEnv: Record<string, string | undefined>) => gitThroughHooks(s, args, extraEnv);

/** One scenario: how to stage it (and undo what is not in the index), how to commit, what env. */
interface Scenario {
  name: string;
  stage: () => void;
  undo?: () => void;
  args?: string[];
  env?: Record<string, string | undefined>;
}

/** Commit the scenario; what happened (the ledger lines it wrote, without time, duration and who judged). */
async function commitOnce(sc: Scenario, extraEnv: Record<string, string | undefined>) {
  sc.stage();
  const before = head(s);
  const starts = nodeStarts();
  const ledger = ledgerLines().length;
  const r = await gitAsync(['commit', '-q', '-m', sc.name, ...(sc.args ?? [])], { ...hookEnv(), ...(sc.env ?? {}), ...extraEnv });
  const landed = head(s) !== before;
  const lines = ledgerLines()
    .slice(ledger)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const verdicts = lines.map((l) => ({ gate: l.gate, verdict: l.verdict, kind: l.kind, mode: l.mode, counts: l.counts, findings: (l.findings as unknown[] | undefined)?.length ?? 0 }));
  if (landed) s.repo.git('reset', '-q', '--hard', 'HEAD~1');
  else s.repo.git('reset', '-q', '--hard', 'HEAD');
  sc.undo?.();
  return { ...r, landed, node: nodeStarts() > starts, verdicts, via: lines.map((l) => l.via) };
}

/** Node's verdict first (it also teaches the path probe a new path), then the fast path's: the same. */
async function differential(sc: Scenario) {
  const node = await commitOnce(sc, { LOOPGATES_NO_FAST_PATH: '1' });
  expect(node.node).toBe(true);
  const fast = await commitOnce(sc, {});
  expect(fast.status, `${fast.output}\n--- node:\n${node.output}`).toBe(node.status);
  expect(fast.landed).toBe(node.landed);
  expect(fast.verdicts).toStrictEqual(node.verdicts);
  return { node, fast };
}

const stageFile = (p: string, c: string | Buffer) => () => {
  s.repo.write(p, c);
  s.repo.git('add', '--', p);
};

beforeAll(async () => {
  assertBuilt();
  await new Promise<void>((ready, fail) => {
    finished = withSandbox(APP, async (sb) => {
      s = sb;
      marker = join(s.base, 'node-starts');
      writeFileSync(join(s.base, 'node-wrapper'), `#!/bin/sh\necho start >>'${marker}'\n'${process.execPath}' "$@"\n`);
      chmodSync(join(s.base, 'node-wrapper'), 0o755);
      // A copy of gitleaks of this sandbox's own, so a case can touch it.
      gitleaks = join(s.base, 'bin', 'gitleaks');
      mkdirSync(join(s.base, 'bin'));
      copyFileSync(join(localGitleaksDir, 'gitleaks'), gitleaks);
      chmodSync(gitleaks, 0o755);
      expect((await s.cli(['install', '--no-proof'], { LOOPGATES_GITLEAKS: gitleaks })).code).toBe(0);
      s.repo.write('loopgates.yaml', CONFIG);
      s.repo.git('add', '-A');
      const first = await gitAsync(['commit', '-q', '-m', 'loopgates'], hookEnv());
      expect(first.status, first.output).toBe(0);
      cache = join(s.repo.dir, '.git', 'loopgates', 'cache');
      ready();
      await new Promise<void>((r) => (release = r));
    }).catch(fail);
  });
});
afterAll(async () => {
  release();
  await finished;
});
beforeEach(() => {
  s.repo.git('reset', '-q', '--hard', 'HEAD');
  s.repo.git('clean', '-q', '-fd', '--', '.');
});

describe('plain secrets-only commits: the shell passes them without node, as node does', () => {
  const plain: Scenario[] = [
    { name: 'a changed text file', stage: stageFile('notes.txt', 'first\nsecond\n') },
    { name: 'a new text file in a folder', stage: stageFile('docs/new.txt', 'new\n') },
    { name: 'two files, one executable', stage: () => {
      stageFile('notes.txt', 'first\nthird\n')();
      s.repo.write('run.txt', 'echo\n');
      chmodSync(join(s.repo.dir, 'run.txt'), 0o755);
      s.repo.git('add', '--', 'run.txt');
    } },
    { name: 'git commit -a (GIT_INDEX_FILE)', stage: () => s.repo.write('notes.txt', 'first\nall\n'), args: ['-a'] },
    { name: 'git commit -- path (a temporary index)', stage: () => {
      s.repo.write('notes.txt', 'first\nonly\n');
      s.repo.write('docs/guide.md', 'guide\nnot this\n');
    }, args: ['--', 'notes.txt'] },
  ];
  it.each(plain)('$name', async (sc) => {
    const { fast } = await differential(sc);
    expect(fast.status, fast.output).toBe(0);
    expect(fast.node, fast.output).toBe(false);
    expect(fast.output).toMatch(/secrets pass: gitleaks protect found no credential in \d+ staged file\(s\)/);
    expect(fast.via.every((v) => v === 'hook-plan')).toBe(true);
    expect(fast.verdicts.find((v) => v.gate === 'secrets')?.verdict).toBe('pass');
  });
});

describe('every other commit is node\'s, with the same verdict (one case per precondition)', () => {
  const aws = fakeAwsKeyId();
  const cases: Scenario[] = [
    { name: 'a credential (gitleaks exits 42)', stage: stageFile('notes.txt', `first\naws_access_key_id = "${aws}"\n`) },
    { name: 'a binary file (NUL bytes)', stage: stageFile('notes.txt', Buffer.from('first\n\0\x01binary\n')) },
    { name: 'a UTF-16 file with a byte-order mark', stage: stageFile('notes.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('first\nutf16\n', 'utf16le')])) },
    { name: 'a Git LFS pointer', stage: stageFile('notes.txt', 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n') },
    { name: 'a symbolic link', stage: () => {
      symlinkSync('notes.txt', join(s.repo.dir, 'link.txt'));
      s.repo.git('add', '--', 'link.txt');
    } },
    { name: 'a path gitleaks\' default config skips (vendor/)', stage: stageFile('vendor/readme.txt', 'vendored\nagain\n') },
    { name: 'a path git must quote', stage: stageFile('caf\u00e9.txt', 'c\n') },
    { name: 'a diff attribute that hides the file from git diff (-diff)', stage: () => {
      writeFileSync(join(s.repo.dir, '.git', 'info', 'attributes'), 'notes.txt -diff\n');
      stageFile('notes.txt', 'first\nhidden\n')();
    }, undo: () => rmSync(join(s.repo.dir, '.git', 'info', 'attributes'), { force: true }) },
    { name: 'a .gitleaks.toml in the work tree (not staged)', stage: () => {
      writeFileSync(join(s.repo.dir, '.gitleaks.toml'), '[extend]\nuseDefault = true\n');
      stageFile('notes.txt', 'first\ntoml\n')();
    }, undo: () => rmSync(join(s.repo.dir, '.gitleaks.toml'), { force: true }) },
    { name: 'a staged .gitleaks.toml', stage: () => {
      stageFile('.gitleaks.toml', '[extend]\nuseDefault = true\n')();
      stageFile('notes.txt', 'first\nstaged toml\n')();
    } },
    // Another content on every call: node's run proves the one it saw, the shell then sees another.
    { name: 'a staged .gitleaksignore the canary proof was not keyed with', stage: () => {
      stageFile('.gitleaksignore', `notes.txt:aws-access-token:${++ignoreN}\n`)();
      stageFile('notes.txt', 'first\nignore\n')();
    } },
    { name: 'a gitleaks:allow comment (the gate scans the file again as a file)', stage: stageFile('notes.txt', 'first\nx = 1 # gitleaks:allow\n') },
    { name: 'a staged deletion of the .gitleaks.toml HEAD holds', stage: () => {
      stageFile('.gitleaks.toml', '[extend]\nuseDefault = true\n')();
      s.repo.git('commit', '-q', '--no-verify', '-m', 'a gitleaks config');
      s.repo.git('rm', '-q', '--', '.gitleaks.toml');
      stageFile('notes.txt', 'first\nno toml\n')();
    }, undo: () => s.repo.git('reset', '-q', '--hard', 'HEAD~1') },
    // In the index but gone from the work tree, unstaged: only git's index says it is there (hooks/pre-commit asks
    // git ls-files when a commit reaches the secrets fast path).
    ...(['.gitleaks.toml', '.gitleaksignore'] as const).map((file): Scenario => ({ name: `a ${file} in the index only (deleted from the work tree, not staged)`, stage: () => {
      stageFile(file, file === '.gitleaks.toml' ? '[extend]\nuseDefault = true\n' : 'nothing.txt:generic-api-key:1\n')();
      s.repo.git('commit', '-q', '--no-verify', '-m', `a ${file}`);
      rmSync(join(s.repo.dir, file));
      stageFile('notes.txt', `first\nindex-only ${file}\n`)();
    }, undo: () => s.repo.git('reset', '-q', '--hard', 'HEAD~1') })),
    { name: 'a deletion only (no input)', stage: () => s.repo.git('rm', '-q', '--', 'docs/guide.md') },
    { name: 'a file another gate reads too (Kotlin: hardcoded-strings)', stage: stageFile('app/Main.kt', 'fun main() {}\n') },
    { name: 'LOOPGATES_SKIP', stage: stageFile('notes.txt', 'first\nskip\n'), env: { LOOPGATES_SKIP: 'string-parity' } },
    { name: 'GIT_CONFIG_PARAMETERS (git -c)', stage: stageFile('notes.txt', 'first\nparams\n'), env: { GIT_CONFIG_PARAMETERS: "'color.ui'='always'" } },
    { name: 'GIT_PAGER, which the gate drops for gitleaks (and so does the shell: still a fast pass)', stage: stageFile('notes.txt', 'first\npager\n'), env: { GIT_PAGER: 'cat' } },
  ];
  it.each(cases)('$name', async (sc) => {
    const { fast } = await differential(sc);
    if (sc.name.startsWith('GIT_PAGER')) expect(fast.node, fast.output).toBe(false);
    else expect(fast.node, fast.output).toBe(true);
  });

  it('a .gitleaks.toml committed past the hook and gone from the work tree, after a fast pass: node judges (only the index says it is there)', async () => {
    // Twice: node's first run may teach the path probe notes.txt; the second is the shell's pass.
    await commitOnce({ name: 'plain', stage: stageFile('notes.txt', 'first\nplain before toml\n') }, {});
    const plain = await commitOnce({ name: 'plain', stage: stageFile('notes.txt', 'first\nplain before toml\n') }, {});
    expect([plain.status, plain.node]).toEqual([0, false]);
    const sc: Scenario = { name: 'index-only toml', stage: () => {
      stageFile('.gitleaks.toml', '[extend]\nuseDefault = true\n')();
      s.repo.git('commit', '-q', '--no-verify', '-m', 'a gitleaks config');
      rmSync(join(s.repo.dir, '.gitleaks.toml'));
      stageFile('notes.txt', 'first\nindex-only toml\n')();
    }, undo: () => s.repo.git('reset', '-q', '--hard', 'HEAD~1') };
    const r = await commitOnce(sc, {});
    expect([r.status, r.node]).toEqual([0, true]);
  });

  it('another gitleaks binary than the one proven (LOOPGATES_GITLEAKS), and the same one touched', async () => {
    const sc = stageFile('notes.txt', 'first\nbinary\n');
    const other = join(s.base, 'bin', 'gitleaks-2');
    copyFileSync(gitleaks, other);
    chmodSync(other, 0o755);
    const r = await commitOnce({ name: 'other binary', stage: sc, env: { LOOPGATES_GITLEAKS: other } }, {});
    expect(r.node).toBe(true);
    expect(r.status, r.output).toBe(0);
    // Node proved the other one, so the proven one is node's once, then the shell's again.
    const back = await commitOnce({ name: 'proven', stage: sc }, {});
    expect(back.node).toBe(true);
    const fast = await commitOnce({ name: 'proven', stage: sc }, {});
    expect(fast.node, fast.output).toBe(false);
    // Its mtime changes: node (the canary proof is keyed by it).
    const later = new Date(Date.now() + 5000);
    utimesSync(gitleaks, later, later);
    const touched = await commitOnce({ name: 'touched', stage: sc }, {});
    expect(touched.node).toBe(true);
    expect(touched.status, touched.output).toBe(0);
    // Node's run proved the touched binary again: fast from then on.
    const again = await commitOnce({ name: 'again', stage: sc }, {});
    expect(again.node, again.output).toBe(false);
  });

  it('a new path the path probe has not proven yet goes to node once, then the shell', async () => {
    const sc = { name: 'new path', stage: stageFile('docs/brand-new.txt', 'new\n') };
    const first = await commitOnce(sc, {});
    expect(first.node).toBe(true);
    const second = await commitOnce(sc, {});
    expect(second.node, second.output).toBe(false);
  });

  it('no fast-path file, or one of another format, version or config', async () => {
    const sc = { name: 'file', stage: stageFile('notes.txt', 'first\nfile\n') };
    const file = join(cache, 'hook-secrets');
    const text = readFileSync(file, 'utf8');
    for (const bad of [null, text.replace(/^loopgates-secrets 1$/m, 'loopgates-secrets 2'), text.replace(/^version .*$/m, 'version 0.0.1'), text.replace(/^config .*$/m, 'config 0000'), text.replace(/^end\n/m, '')]) {
      if (bad === null) rmSync(file);
      else writeFileSync(file, bad);
      const r = await commitOnce(sc, {});
      expect(r.node).toBe(true);
      expect(r.status, r.output).toBe(0);
    }
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});

describe('a .gitleaksignore is applied by node only, never by the gitleaks the shell runs', () => {
  // gitleaks 8.16's protect --staged reads no .gitleaksignore (checked against the binary), but later releases read
  // <source>/.gitleaksignore in every mode (cmd/root.go Detector), and the shell runs gitleaks in the top level:
  // an untracked ignore file, or an entry that outlived its secret (issue 14, item 2), would then wave the commit
  // through. This wrapper is the bundled 8.16 doing what those releases do with it.
  const aws = fakeAwsKeyId();
  let later = '';
  beforeAll(() => {
    later = join(s.base, 'bin-later', 'gitleaks');
    mkdirSync(join(s.base, 'bin-later'), { recursive: true });
    const filter = 'const fs=require("fs");const ig=new Set(fs.readFileSync(".gitleaksignore","utf8").split("\\n").map((l)=>l.trim()).filter(Boolean));const r=JSON.parse(fs.readFileSync(process.argv[1],"utf8")).filter((f)=>!ig.has(f.Fingerprint));fs.writeFileSync(process.argv[1],r.length?JSON.stringify(r):"[]");process.exit(r.length?1:0)';
    writeFileSync(
      later,
      [
        '#!/bin/sh',
        `real='${gitleaks}'`,
        'report= prev=',
        'for a in "$@"; do [ "$prev" = --report-path ] && report=$a; prev=$a; done',
        'log=$(mktemp)',
        '"$real" "$@" 2>"$log"',
        'rc=$?',
        'if [ "$rc" -ne 0 ] && [ -f .gitleaksignore ] && [ -n "$report" ] && [ -f "$report" ]; then',
        `  if '${process.execPath}' -e '${filter}' "$report"; then rc=0; sed 's/WRN\\(.*\\)leaks found: [0-9]*/INF\\1no leaks found/' "$log" >"$log.2"; mv "$log.2" "$log"; fi`,
        'fi',
        'cat "$log" >&2; rm -f "$log"',
        'exit $rc',
        '',
      ].join('\n'),
    );
    chmodSync(later, 0o755);
  });
  const withLater = (sc: Scenario): Scenario => ({ ...sc, env: { ...(sc.env ?? {}), LOOPGATES_GITLEAKS: later } });
  /** Node proves the wrapper (canary, paths) and writes the fast-path file; then the shell passes a plain commit. */
  async function primed(): Promise<void> {
    const sc = withLater({ name: 'prime', stage: stageFile('notes.txt', 'first\nprime\n') });
    await commitOnce(sc, {});
    const fast = await commitOnce(sc, {});
    expect(fast.node, fast.output).toBe(false);
    expect(fast.status).toBe(0);
  }

  it('an untracked .gitleaksignore naming the staged credential: refused (node judges), as with the fast path off', async () => {
    await primed();
    const sc = withLater({
      name: 'untracked ignore',
      stage: () => {
        writeFileSync(join(s.repo.dir, '.gitleaksignore'), 'notes.txt:aws-access-token:2\n');
        stageFile('notes.txt', `first\naws_access_key_id = "${aws}"\n`)();
      },
      undo: () => rmSync(join(s.repo.dir, '.gitleaksignore'), { force: true }),
    });
    const { fast } = await differential(sc);
    expect(fast.landed, fast.output).toBe(false);
    expect(fast.status).toBe(1);
    expect(fast.node).toBe(true);
  });

  // fresh F11: the entry and the credential it names in one commit: the shell hands it to node, which refuses it as a
  // narrowing of secrets (LOOPGATES_ALLOW_DISABLE=secrets lets it through, on the record).
  it('a .gitleaksignore entry staged with the credential it waives, after a fast pass: node refuses it (exit 1)', async () => {
    await commitOnce({ name: 'plain', stage: stageFile('notes.txt', 'first\nplain before waiver\n') }, {});
    const plain = await commitOnce({ name: 'plain', stage: stageFile('notes.txt', 'first\nplain before waiver\n') }, {});
    expect([plain.status, plain.node]).toEqual([0, false]);
    const sc: Scenario = { name: 'own waiver', stage: () => {
      stageFile('.gitleaksignore', 'notes.txt:aws-access-token:2\n')();
      stageFile('notes.txt', `first\naws_access_key_id = "${aws}"\n`)();
    } };
    const { fast } = await differential(sc);
    expect(fast.node).toBe(true);
    expect(fast.output).toContain('this commit keeps secrets enabled but waives 1 finding of its own (notes.txt:2 aws-access-token');
    expect(fast.output).not.toContain(aws);
    expect([fast.status, fast.landed]).toEqual([1, false]);
    const allowed = await commitOnce({ ...sc, env: { LOOPGATES_ALLOW_DISABLE: 'secrets' } }, {});
    expect([allowed.status, allowed.landed, allowed.node]).toEqual([0, true, true]);
    expect(allowed.verdicts.filter((v) => v.kind === 'disable').map((v) => `${String(v.gate)} ${String(v.verdict)}`)).toEqual(['secrets narrowed']);
  });

  // G1: a .gitleaks.toml that narrows secrets, committed alone after a fast pass: the shell hands it to node, which
  // refuses it as a narrowing (exit 1), no credential staged; a .gitleaksignore staged alone is node's too.
  it('a narrowing .gitleaks.toml staged alone, after a fast pass: node refuses it (exit 1) through git commit', async () => {
    await commitOnce({ name: 'plain', stage: stageFile('notes.txt', 'first\nplain before toml\n') }, {});
    const plain = await commitOnce({ name: 'plain', stage: stageFile('notes.txt', 'first\nplain before toml\n') }, {});
    expect([plain.status, plain.node]).toEqual([0, false]);
    const sc: Scenario = { name: 'toml narrowing', stage: stageFile('.gitleaks.toml', "[extend]\nuseDefault = true\n\n[allowlist]\npaths = ['''^deploy/''']\n"), undo: () => rmSync(join(s.repo.dir, '.gitleaks.toml'), { force: true }) };
    const { fast } = await differential(sc);
    expect(fast.node).toBe(true);
    expect(fast.output).toContain("this commit keeps secrets enabled but its .gitleaks.toml adds [allowlist] paths '''^deploy/'''");
    expect([fast.status, fast.landed]).toEqual([1, false]);
    const allowed = await commitOnce({ ...sc, env: { LOOPGATES_ALLOW_DISABLE: 'secrets' } }, {});
    expect([allowed.status, allowed.landed, allowed.node]).toEqual([0, true, true]);
    expect(allowed.verdicts.filter((v) => v.kind === 'disable').map((v) => `${String(v.gate)} ${String(v.verdict)}`)).toEqual(['secrets narrowed']);
    const ignore = await commitOnce({ name: 'ignore alone', stage: stageFile('.gitleaksignore', 'notes.txt:aws-access-token:9\n'), undo: () => rmSync(join(s.repo.dir, '.gitleaksignore'), { force: true }) }, {});
    expect([ignore.status, ignore.node]).toEqual([0, true]);
  });

  it('a committed .gitleaksignore entry whose line now holds another credential: refused, as with the fast path off', async () => {
    // Primed without it (a committed ignore file keeps every commit node's); then the team commits one.
    await primed();
    s.repo.write('.gitleaksignore', 'notes.txt:aws-access-token:2\n');
    s.repo.git('add', '--', '.gitleaksignore');
    s.repo.git('commit', '-q', '--no-verify', '-m', 'an ignore entry');
    try {
      const { fast } = await differential(withLater({ name: 'outlived entry', stage: stageFile('notes.txt', `first\naws_access_key_id = "${aws}"\n`) }));
      expect(fast.landed, fast.output).toBe(false);
      expect(fast.status).toBe(1);
      expect(fast.node).toBe(true);
    } finally {
      s.repo.git('reset', '-q', '--hard', 'HEAD~1');
    }
  });
});

// gates/secrets/handoff.ts: when the shell ran gitleaks and then hands the commit to node (here: a credential), node
// takes that run instead of running gitleaks again, only after checking it; a tampered or foreign hand-off is
// refused and node runs gitleaks itself, with the same verdict. A counting gitleaks wrapper says who ran it.
describe("the shell's gitleaks run, handed to node", () => {
  const aws = fakeAwsKeyId();
  let counting = '';
  let calls = '';
  let offered = '';
  let tmp = '';
  let tamperNode = '';
  let holding = '';
  const credential = (n: string): Scenario => ({ name: n, stage: stageFile('notes.txt', `first\n${n}\naws_access_key_id = "${aws}"\n`) });
  /** `gitleaks protect --staged` runs in the repository itself (not a canary's scratch index). */
  const scans = () => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter((l) => l === `${realpathSync(s.repo.dir)} protect --staged`).length : 0);
  const offers = () => (existsSync(offered) ? readFileSync(offered, 'utf8').split('\n').filter(Boolean).length : 0);
  const env = (extra: Record<string, string> = {}) => ({ LOOPGATES_GITLEAKS: counting, TMPDIR: tmp, ...extra });
  const leftovers = () => readdirSync(tmp).filter((n) => n.startsWith('loopgates-'));

  beforeAll(async () => {
    counting = join(s.base, 'bin', 'gitleaks-counting');
    calls = join(s.base, 'gitleaks-calls');
    offered = join(s.base, 'handoffs');
    writeFileSync(counting, `#!/bin/sh\necho "$(pwd -P) $1 $2" >>'${calls}'\n'${gitleaks}' "$@"\n`);
    chmodSync(counting, 0o755);
    tmp = join(s.base, 'tmp');
    mkdirSync(tmp);
    tamperNode = join(s.base, 'node-tamper');
    holding = join(s.base, 'handoff-holding-secret');
    writeFileSync(
      tamperNode,
      [
        '#!/bin/sh',
        `echo start >>'${marker}'`,
        'd=${LOOPGATES_HOOK_SECRETS:-}',
        'if [ -n "$d" ]; then',
        `  echo "$d" >>'${offered}'`,
        '  case "${TAMPER:-}" in',
        '    mode) chmod 755 "$d" ;;',
        "    argv) printf '%s\\0' --verbose >>\"$d/argv\" ;;",
        // A well-formed digest of another environment (this wrapper's, which holds the handshake variables).
        '    env) env -0 | sha256sum >"$d/env" ;;',
        // Node's environment is not the one gitleaks ran with.
        '    environ) LOOPGATES_TAMPERED=1 && export LOOPGATES_TAMPERED ;;',
        '    link) cp "$d/report.json" "$d/../forged.json" && rm "$d/report.json" && ln -s ../forged.json "$d/report.json" ;;',
        "    report) printf '[]' >\"$d/report.json\" && printf '0\\n' >\"$d/status\" ;;",
        '    extra) : >"$d/more" ;;',
        '    placed) p="${d%/*}/loopgates-secrets-1-AAAAAAAA" && cp -Rp "$d" "$p" && LOOPGATES_HOOK_SECRETS=$p && export LOOPGATES_HOOK_SECRETS ;;',
        '  esac',
        // Every hand-off file holding the value of AWS_SECRET_ACCESS_KEY (none may).
        `  [ -z "\${AWS_SECRET_ACCESS_KEY:-}" ] || grep -rlF -- "$AWS_SECRET_ACCESS_KEY" "$d" >>'${holding}'`,
        'fi',
        `'${process.execPath}' "$@"`,
        '',
      ].join('\n'),
    );
    chmodSync(tamperNode, 0o755);
    // Node proves the counting wrapper once (probe, canary); from then on a plain commit is the shell's.
    const warm = await commitOnce({ name: 'warm', stage: stageFile('notes.txt', 'first\nwarm\n') }, env());
    expect(warm.status, warm.output).toBe(0);
    const fast = await commitOnce({ name: 'warm again', stage: stageFile('notes.txt', 'first\nwarm again\n') }, env());
    expect(fast.node, fast.output).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  it('a credential: node takes the shell\'s run (gitleaks ran once), with the verdict, exit code and ledger of node\'s own run', async () => {
    const sc = credential('handed');
    const scansBefore = scans();
    const node = await commitOnce(sc, env({ LOOPGATES_NO_FAST_PATH: '1' }));
    expect(scans() - scansBefore).toBe(1);
    const offersBefore = offers();
    const handed = await commitOnce(sc, env({ LOOPGATES_NODE: tamperNode }));
    expect(offers() - offersBefore).toBe(1);
    expect(handed.node).toBe(true);
    expect(scans() - scansBefore, handed.output).toBe(2);
    expect(handed.status, `${handed.output}\n--- node:\n${node.output}`).toBe(1);
    expect(node.status).toBe(1);
    expect(handed.landed).toBe(false);
    expect(handed.verdicts).toStrictEqual(node.verdicts);
    expect(handed.verdicts.find((v) => v.gate === 'secrets')).toMatchObject({ verdict: 'fail', findings: 1 });
    expect(handed.output).toContain('notes.txt:3');
    expect(leftovers()).toEqual([]);
  });

  it('a credential in the environment is in no file of the hand-off nor under .git; node still takes the run (commit -a too)', async () => {
    const secret = `wJalrXUtnFEMI/K7MDENG/bPxRfiCY${Date.now()}EXAMPLEKEY`;
    for (const args of [[], ['-a']]) {
      const sc: Scenario = args.length ? { name: 'env secret -a', stage: () => s.repo.write('notes.txt', `first\nall\naws_access_key_id = "${aws}"\n`), args } : credential('env secret');
      const scansBefore = scans();
      const offersBefore = offers();
      const r = await commitOnce(sc, env({ LOOPGATES_NODE: tamperNode, AWS_SECRET_ACCESS_KEY: secret }));
      expect(offers() - offersBefore).toBe(1);
      expect(r.status, r.output).toBe(1);
      expect(r.output).toContain('notes.txt:3');
      // Taken: gitleaks ran once (the shell's), so the digest of node's environment matched.
      expect(scans() - scansBefore, r.output).toBe(1);
    }
    expect(existsSync(holding) ? readFileSync(holding, 'utf8') : '').toBe('');
    const underGit = spawnSync('grep', ['-rlF', '--', secret, join(s.repo.dir, '.git')], { encoding: 'utf8' });
    expect(underGit.stdout).toBe('');
    expect(underGit.status).toBe(1);
    expect(leftovers()).toEqual([]);
  });

  it.each(['mode', 'argv', 'env', 'environ', 'link', 'report', 'extra', 'placed'])('a hand-off tampered with (%s) is refused: node runs gitleaks itself, same verdict', async (tamper) => {
    const sc = credential(`tampered ${tamper}`);
    const node = await commitOnce(sc, env({ LOOPGATES_NO_FAST_PATH: '1' }));
    const scansBefore = scans();
    const offersBefore = offers();
    const r = await commitOnce(sc, env({ LOOPGATES_NODE: tamperNode, TAMPER: tamper }));
    expect(offers() - offersBefore).toBe(1);
    expect(scans() - scansBefore, r.output).toBe(2);
    expect(r.status, r.output).toBe(1);
    expect(r.verdicts).toStrictEqual(node.verdicts);
    expect(r.output).toContain('notes.txt:3');
    rmSync(join(tmp, 'forged.json'), { force: true });
    rmSync(join(tmp, 'loopgates-secrets-1-AAAAAAAA'), { recursive: true, force: true });
    expect(leftovers()).toEqual([]);
  });
});

// A gitleaks that hangs in the shell's run must not hang the commit: the hook bounds it (timeout(1),
// LOOPGATES_HOOK_GITLEAKS_TIMEOUT seconds, as node bounds its own run), kills it and every process it started, and
// node runs the gate itself. Without timeout(1) on PATH the shell does not run gitleaks at all: node does.
describe("a gitleaks that hangs in the shell's run", () => {
  let sleepy = '';
  let flag = '';
  let calls = '';
  let pids = '';
  let tmp = '';
  const env = (extra: Record<string, string> = {}) => ({ LOOPGATES_GITLEAKS: sleepy, TMPDIR: tmp, ...extra });
  const scans = () => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter((l) => l === `${realpathSync(s.repo.dir)} protect --staged`).length : 0);
  const leftovers = () => readdirSync(tmp).filter((n) => n.startsWith('loopgates-'));
  /** The processes of the hung run that are still alive (a zombie waiting for init counts as gone). */
  const alive = () =>
    (existsSync(pids) ? readFileSync(pids, 'utf8').split('\n').filter(Boolean) : []).filter((pid) => {
      const r = spawnSync('ps', ['-o', 'stat=', '-p', pid], { encoding: 'utf8' });
      return r.status === 0 && !r.stdout.trim().startsWith('Z');
    });

  beforeAll(async () => {
    sleepy = join(s.base, 'bin', 'gitleaks-sleepy');
    flag = join(s.base, 'hang-once');
    calls = join(s.base, 'sleepy-calls');
    pids = join(s.base, 'sleepy-pids');
    // Hangs once (the flag is taken), on the staged scan in the repository only: node's own run then finishes.
    writeFileSync(
      sleepy,
      [
        '#!/bin/sh',
        `echo "$(pwd -P) $1 $2" >>'${calls}'`,
        `if [ "$1 $2" = "protect --staged" ] && [ "$(pwd -P)" = '${realpathSync(s.repo.dir)}' ] && rm '${flag}' 2>/dev/null; then`,
        '  sleep 300 &',
        `  echo "$$ $!" | tr ' ' '\\n' >>'${pids}'`,
        '  wait',
        'fi',
        `'${gitleaks}' "$@"`,
        '',
      ].join('\n'),
    );
    chmodSync(sleepy, 0o755);
    tmp = join(s.base, 'tmp-sleepy');
    mkdirSync(tmp);
    // Node proves the wrapper once (probe, canary); from then on a plain commit is the shell's.
    const warm = await commitOnce({ name: 'warm sleepy', stage: stageFile('notes.txt', 'first\nwarm sleepy\n') }, env());
    expect(warm.status, warm.output).toBe(0);
    const fast = await commitOnce({ name: 'warm sleepy again', stage: stageFile('notes.txt', 'first\nwarm sleepy again\n') }, env());
    expect(fast.node, fast.output).toBe(false);
  });

  it('LOOPGATES_HOOK_GITLEAKS_TIMEOUT=1: the hung run is killed (and its child), node runs gitleaks itself and judges', async () => {
    writeFileSync(flag, '');
    const before = scans();
    const t0 = Date.now();
    const r = await commitOnce({ name: 'hangs', stage: stageFile('notes.txt', 'first\nhangs\n') }, env({ LOOPGATES_HOOK_GITLEAKS_TIMEOUT: '1' }));
    expect(existsSync(flag)).toBe(false);
    expect(r.node, r.output).toBe(true);
    expect(r.status, r.output).toBe(0);
    expect(r.landed).toBe(true);
    expect(r.verdicts.find((v) => v.gate === 'secrets')?.verdict).toBe('pass');
    expect(r.via.every((v) => v !== 'hook-plan'), r.output).toBe(true);
    // The shell's run and node's.
    expect(scans() - before).toBe(2);
    expect(Date.now() - t0).toBeLessThan(60_000);
    expect(readFileSync(pids, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
    expect(alive()).toEqual([]);
    expect(leftovers()).toEqual([]);
  }, 90_000);

  it('no timeout(1) on PATH: the shell does not run gitleaks, node does', async () => {
    // PATH: one folder of links to every program on the test's PATH but timeout.
    const bin = join(s.base, 'path-without-timeout');
    const withIt = join(s.base, 'path-with-timeout');
    for (const dir of [bin, withIt]) mkdirSync(dir, { recursive: true });
    for (const d of (s.env.PATH ?? '').split(':').filter(Boolean)) {
      if (!existsSync(d)) continue;
      for (const name of readdirSync(d)) {
        for (const dir of [bin, withIt]) {
          if ((name === 'timeout' && dir === bin) || existsSync(join(dir, name))) continue;
          symlinkSync(join(d, name), join(dir, name));
        }
      }
    }
    expect(existsSync(join(bin, 'timeout'))).toBe(false);
    expect(existsSync(join(withIt, 'timeout'))).toBe(true);
    const sc = { name: 'no timeout', stage: stageFile('notes.txt', 'first\nno timeout\n') };
    const before = scans();
    const without = await commitOnce(sc, env({ PATH: bin }));
    expect(without.node, without.output).toBe(true);
    expect(without.status, without.output).toBe(0);
    expect(without.landed).toBe(true);
    // Node's run only.
    expect(scans() - before).toBe(1);
    // The same PATH with timeout in it: the shell's pass again.
    const withTimeout = await commitOnce(sc, env({ PATH: withIt }));
    expect(withTimeout.node, withTimeout.output).toBe(false);
    expect(withTimeout.status, withTimeout.output).toBe(0);
    expect(leftovers()).toEqual([]);
  });
});
