// `loopgates run` / `explain` in real temp repositories, in-process with toy gates (the verbs take a registry), plus
// the built CLI for --help and argument errors. Every run asserts the working tree and index are untouched.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeExplainVerb, makeRunVerb } from '../../commands/index.js';
import { readLedger } from '../../core/ledger.js';
import type { GateResult } from '../../core/types.js';
import { treeAndIndexDigest, withGitRepo } from '../helpers/git-repo.js';
import { BAD, runVerbIn, toyGate, toys } from './run-toys.js';
import { l10nCorpus, sharedParent } from '../helpers/corpus.js';

const run = makeRunVerb({ gates: toys });
const explain = makeExplainVerb({ gates: toys });
const repoRoot = resolve(import.meta.dirname, '..', '..');
const bin = join(repoRoot, 'bin', 'loopgates.js');

/** Run in `dir` and check the working tree and index are byte-identical afterwards. */
async function runChecked(dir: string, args: string[], env: Record<string, string | undefined> = {}, verb = run) {
  const before = treeAndIndexDigest(dir);
  const r = await runVerbIn(verb, dir, args, env);
  expect(treeAndIndexDigest(dir)).toBe(before);
  return r;
}

const json = (stdout: string) => JSON.parse(stdout) as { exitCode: number; results: GateResult[]; notes: string[]; targets: number };

describe('run --staged (default)', () => {
  it('fails on a defect in the staged content, with file:line:col, counts and a ledger line; passes when only the unstaged part has it', async () => {
    await withGitRepo({ 'notes.txt': 'one\ntwo\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'base');
      // Defect only in the unstaged part of a partially staged file: staged content is clean.
      repo.write('notes.txt', 'one\ntwo\nthree\n');
      repo.git('add', '--', 'notes.txt');
      repo.write('notes.txt', `one\ntwo\nthree\n${BAD} unstaged\n`);
      const clean = await runChecked(repo.dir, []);
      expect(clean.code).toBe(0);
      expect(clean.stdout).toContain('toy     pass    scanned 1 file, 1 line, 0 findings');
      expect(clean.stdout).toContain('toy-kt  skip    scanned 0 files, 0 findings — no files for inspection (1 staged, none read by this gate)');
      // Defect in the staged part, removed from the working tree: still refused.
      repo.write('notes.txt', `one\n  ${BAD} staged\n`);
      repo.git('add', '--', 'notes.txt');
      repo.write('notes.txt', 'one\nclean again\n');
      const dirty = await runChecked(repo.dir, ['--staged']);
      expect(dirty.code).toBe(1);
      expect(dirty.stdout).toContain(`  notes.txt:2:3  bad-word  ${BAD} word`);
      expect(dirty.stdout).toContain('toy     fail    scanned 1 file, 1 line, 1 finding');
      const ledger = readLedger(join(repo.dir, '.git', 'loopgates', 'ledger.jsonl'));
      expect(ledger.map((e) => `${e.kind} ${e.gate} ${e.verdict}`)).toEqual(['run toy pass', 'run toy-kt skip', 'run toy fail', 'run toy-kt skip']);
      expect(ledger[2]!.findings).toEqual([{ file: 'notes.txt', line: 2, rule: 'bad-word', fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    });
  });

  it('says when there is no loopgates.yaml, and exits 2 with no gate enabled', async () => {
    await withGitRepo({ 'a.txt': 'a\n', 'loopgates.yaml': 'version: 1\ngates:\n  toy: {enabled: false}\n  toy-kt: {enabled: false}\n' }, async (repo) => {
      repo.git('add', '--', 'a.txt');
      const r = await runChecked(repo.dir, []);
      expect(r.code).toBe(2);
      expect(r.stdout).toContain('no gate is enabled');
    });
    await withGitRepo({ 'a.txt': 'a\n' }, async (repo) => {
      repo.git('add', '--', 'a.txt');
      const r = await runChecked(repo.dir, []);
      expect(r.stdout).toContain(`note: no ${join(repo.dir, 'loopgates.yaml')}: using the defaults`);
      expect(r.code).toBe(0);
    });
  });

  it('refuses an invalid loopgates.yaml with exit 2, every problem with its line', async () => {
    await withGitRepo({ 'a.txt': 'a\n', 'loopgates.yaml': 'version: 1\ngates:\n  toy:\n    enabled: maybe\n  nope: {}\nextra: 1\n' }, async (repo) => {
      repo.git('add', '--', 'a.txt');
      const r = await runChecked(repo.dir, []);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('(3 problems)');
      expect(r.stderr).toContain('loopgates.yaml:4  gates.toy.enabled: Expected boolean, received string');
      expect(r.stderr).toContain("loopgates.yaml:5  gates.nope: unknown gate 'nope'");
      expect(r.stderr).toContain("loopgates.yaml:6  extra: unknown key 'extra'");
    });
  });

  it('outside a git work tree --staged exits 2 and points at --all', async () => {
    const r = await runVerbIn(run, '/', [], { GIT_CEILING_DIRECTORIES: '/' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('loopgates run --all');
  });
});

describe('run --all and --files', () => {
  it('--all judges the working tree; zero inputs for a gate is vacuous (exit 2) unless allowEmpty', async () => {
    await withGitRepo({ 'a.txt': `${BAD}\n`, '.gitignore': 'ignored.txt\n', 'ignored.txt': `${BAD}\n` }, async (repo) => {
      const r = await runChecked(repo.dir, ['--all', '--format', 'json']);
      const j = json(r.stdout);
      expect(j.targets).toBe(2);
      expect(j.results.map((x) => `${x.gate} ${x.verdict} ${x.counts.files}`)).toEqual(['toy fail 1', 'toy-kt vacuous 0']);
      expect(r.code).toBe(2);
      repo.write('loopgates.yaml', 'version: 1\ngates:\n  toy-kt:\n    allowEmpty: no Kotlin in this repo\n');
      const allowed = await runChecked(repo.dir, ['--all']);
      expect(allowed.code).toBe(1);
      expect(allowed.stdout).toContain('toy-kt  skip    scanned 0 files, 0 findings — no inputs; allowed by allowEmpty: no Kotlin in this repo');
    });
  });

  it('--files judges the named files, including `-x y.kt` after --', async () => {
    await withGitRepo({ '-x y.kt': `fun x() = "${BAD}"\n`, 'other.kt': `${BAD}\n`, 'a.txt': 'fine\n' }, async (repo) => {
      const r = await runChecked(repo.dir, ['--files', '--gate', 'toy-kt', '--', '-x y.kt']);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(`  -x y.kt:1:12  bad-word  ${BAD} word`);
      expect(r.stdout).not.toContain('other.kt');
      expect(r.stdout).toContain('files: 1 named file');
    });
  });

  it('--files: a gate that reads none of the named files skips; when no gate reads any, nothing was checked (exit 2)', async () => {
    await withGitRepo({ 'a.txt': 'fine\n', 'b.kt': 'fun b() = 1\n' }, async (repo) => {
      const one = await runChecked(repo.dir, ['--files', '--format', 'json', '--', 'a.txt']);
      const j = json(one.stdout);
      expect(j.results.map((x) => `${x.gate} ${x.verdict} ${x.counts.files}`)).toEqual(['toy pass 1', 'toy-kt skip 0']);
      expect(one.code).toBe(0);
      const none = await runChecked(repo.dir, ['--files', '--gate', 'toy-kt', '--', 'a.txt']);
      expect(none.code).toBe(2);
      expect(none.stdout).toContain('no gate reads any of the named files: nothing was checked');
    });
  });

  it('--all works on a plain folder outside git (the l10n corpus, read-only)', async () => {
    const corpus = l10nCorpus;
    if (!existsSync(corpus)) return;
    const count = (dir: string): number =>
      readdirSync(dir, { withFileTypes: true }).reduce((n, d) => n + (d.isDirectory() ? (d.name === '.git' || d.name === 'node_modules' ? 0 : count(join(dir, d.name))) : d.isFile() && d.name.endsWith('.xml') ? 1 : 0), 0);
    const xml = toyGate('toy-xml', '.xml');
    const r = await runVerbIn(makeRunVerb({ gates: [xml] }), corpus, ['--all', '--format', 'json'], { GIT_CEILING_DIRECTORIES: sharedParent });
    const j = json(r.stdout);
    expect(j.results[0]!.counts.files).toBe(count(corpus));
    expect(j.results[0]!.counts.files).toBeGreaterThan(100);
    expect(['pass', 'fail']).toContain(j.results[0]!.verdict);
  });
});

describe('run options', () => {
  it('--gate selects gates; an unknown id exits 2 naming the known ones', async () => {
    await withGitRepo({ 'a.txt': `${BAD}\n`, 'b.kt': 'ok\n' }, async (repo) => {
      repo.git('add', '--', '.');
      const only = json((await runChecked(repo.dir, ['--gate', 'toy-kt', '--format', 'json'])).stdout);
      expect(only.results.map((x) => x.gate)).toEqual(['toy-kt']);
      const bad = await runChecked(repo.dir, ['--gate', 'nope']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("unknown gate 'nope' (known: toy, toy-kt)");
      for (const args of [['--format', 'xml'], ['--all', '--staged'], ['stray'], ['--files'], ['--bogus']]) {
        expect((await runChecked(repo.dir, args)).code).toBe(2);
      }
    });
  });

  it('LOOPGATES_SKIP bypasses loudly, warns about unknown ids, and writes bypass lines to the ledger', async () => {
    await withGitRepo({ 'a.txt': `${BAD}\n` }, async (repo) => {
      repo.git('add', '--', '.');
      const r = await runChecked(repo.dir, [], { LOOPGATES_SKIP: 'toy,typo' });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('WARNING: LOOPGATES_SKIP bypasses toy');
      expect(r.stderr).toContain('WARNING: LOOPGATES_SKIP names unknown gate typo (known: toy, toy-kt)');
      expect(r.stdout).toContain('toy     skip    scanned 0 files, 0 findings — bypassed by LOOPGATES_SKIP');
      const all = await runChecked(repo.dir, [], { LOOPGATES_SKIP: 'all' });
      expect(all.code).toBe(0);
      expect(all.stderr).toContain('LOOPGATES_SKIP=all bypasses EVERY gate');
      const ledger = readLedger(join(repo.dir, '.git', 'loopgates', 'ledger.jsonl'));
      expect(ledger.map((e) => `${e.kind} ${e.gate}`)).toEqual(['bypass toy', 'run toy-kt', 'bypass toy', 'bypass toy-kt']);
    });
  });

  it('sarif and github formats carry the finding', async () => {
    await withGitRepo({ 'dir/a b.txt': `x ${BAD}\n` }, async (repo) => {
      repo.git('add', '--', '.');
      const sarif = JSON.parse((await runChecked(repo.dir, ['--format', 'sarif'])).stdout) as any;
      expect(sarif.runs[0].results[0].locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'dir/a%20b.txt', uriBaseId: '%SRCROOT%' }, region: { startLine: 1, startColumn: 3 } });
      const gh = await runChecked(repo.dir, ['--format', 'github']);
      expect(gh.stdout).toContain(`::error file=dir/a b.txt,line=1,col=3,title=toy/bad-word::${BAD} word`);
      expect(gh.code).toBe(1);
    });
  });

  it('the ledger goes to .loopgates/ledger.jsonl when git ignores it', async () => {
    await withGitRepo({ '.gitignore': '/.loopgates/ledger.jsonl\n', 'a.txt': 'a\n' }, async (repo) => {
      repo.git('add', '--', '.');
      const r = await runVerbIn(run, repo.dir, []);
      expect(r.code).toBe(0);
      expect(readLedger(join(repo.dir, '.loopgates', 'ledger.jsonl')).length).toBe(2);
      expect(repo.git('status', '--porcelain', '-z', '--untracked-files=all')).toBe('A  .gitignore\0A  a.txt\0');
    });
  });
});

describe('explain', () => {
  it("prints each enabled gate's four answers, text and json", async () => {
    await withGitRepo({ 'loopgates.yaml': 'version: 1\ngates:\n  toy-kt: {enabled: false}\n' }, async (repo) => {
      const t = await runChecked(repo.dir, [], {}, explain);
      expect(t.code).toBe(0);
      expect(t.stdout).toContain('toy — toy gate over *.txt\n  runs   scan *.txt\n  reads  *.txt from the snapshot\n  ends   every input read once\n  asks   never\n');
      expect(t.stdout).not.toContain('toy-kt');
      // The loops that are not gates follow, with their four answers: the tap loop.
      expect(t.stdout).toContain('tap — loopgates tap: one tap on the device, then poll for the expected label (loop)\n  runs   one uiautomator dump, one tap at the centre');
      const j = JSON.parse((await runChecked(repo.dir, ['--format', 'json', '--all'], {}, explain)).stdout) as { gates: Array<{ id: string; enabled: boolean; asks: string }>; loops: Array<{ id: string; asks: string }> };
      expect(j.gates.map((g) => [g.id, g.enabled, g.asks])).toEqual([['toy', true, 'never'], ['toy-kt', false, 'never']]);
      expect(j.loops.map((l) => l.id)).toEqual(['tap', 'retry']);
      expect(j.loops[0]!.asks).toMatch(/^never: /);
    });
  });
});

describe('the built CLI', () => {
  const built = existsSync(join(repoRoot, 'dist', 'cli.js'));
  it.skipIf(!built)('prints full --help for run, hook and explain, and refuses an unknown hook with exit 2', () => {
    for (const verb of ['run', 'hook', 'explain']) {
      const out = execFileSync('node', [bin, verb, '--help'], { encoding: 'utf8' });
      expect(out).toMatch(new RegExp(`^Usage: loopgates ${verb}`));
      expect(out).toContain('Exit codes');
    }
    const r = spawnSync('node', [bin, 'hook', 'post-merge'], { encoding: 'utf8', cwd: repoRoot });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("loopgates has no 'post-merge' hook (it handles: pre-commit)");
    expect(readFileSync(join(repoRoot, 'package.json'), 'utf8')).toContain('"schema"');
  });
});
