// The stored hook's node-free skip (hooks/pre-commit loopgates_try_skip, core/hook-plan.ts): with a plan compiled
// from the staged loopgates.yaml, a commit none of whose staged paths an enabled gate reads passes without node and
// still leaves its skip lines in the ledger; node judges the same commits the same way (exit 0, every gate skip), and
// every doubt hands the commit to node (one case per precondition).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, head, withSandbox, gitThroughHooks, type Sandbox } from './install-support.js';
import { builtinGates } from '../../gates/registry.js';
import { repoRoot } from '../helpers/setup-env.js';

/** The gates CONFIG leaves on, in report order, taken from the registry (a new gate joins them). */
const ON = builtinGates.map((g) => g.id).filter((id) => id !== 'secrets');

const APP = { 'README.md': '# notes\n', 'docs/guide.md': 'guide\n' };
// Secrets off, so a commit can stage paths no gate reads (secrets reads every path). maestro-flows stays on: its
// stagedPatterns are YAML (and CI scripts), and any deletion (a flow may name the deleted file).
const CONFIG = 'version: 1\ngates:\n  secrets:\n    enabled: false\n';
/** The same with maestro-flows off too, for the deletion the shell may skip. */
const NO_FLOWS_CONFIG = `${CONFIG}  maestro-flows:\n    enabled: false\n`;

let s: Sandbox;
let release: () => void = () => undefined;
let finished: Promise<void> = Promise.resolve();
let marker = '';
let plan = '';
let planText = '';

/** Env for the hook: node behind a wrapper that notes every start, and the acknowledgement a secrets-off config needs. */
const hookEnv = (): Record<string, string> => ({ LOOPGATES_NODE: join(s.base, 'node-wrapper'), LOOPGATES_ALLOW_DISABLE: 'secrets' });
const nodeStarts = () => (existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean).length : 0);
const ledgerLines = () => readFileSync(join(s.repo.dir, '.loopgates', 'ledger.jsonl'), 'utf8').split('\n').filter(Boolean);

const gitAsync = (args: string[], extraEnv: Record<string, string | undefined>) => gitThroughHooks(s, args, extraEnv);

/** Stage `files` (content, or null to delete) and commit with `env`; what happened. */
async function commit(files: Record<string, string | null>, env: Record<string, string | undefined> = {}, args: string[] = []) {
  for (const [p, c] of Object.entries(files)) {
    if (c === null) s.repo.git('rm', '-q', '--', p);
    else {
      s.repo.write(p, c);
      s.repo.git('add', '--', p);
    }
  }
  const before = head(s);
  const starts = nodeStarts();
  const ledger = ledgerLines().length;
  const r = await gitAsync([...args, 'commit', '-q', '-m', 'c'], { ...hookEnv(), ...env });
  return { ...r, landed: head(s) !== before, node: nodeStarts() > starts, newLedger: ledgerLines().slice(ledger).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

beforeAll(async () => {
  assertBuilt();
  await new Promise<void>((ready, fail) => {
    finished = withSandbox(APP, async (sb) => {
      s = sb;
      marker = join(s.base, 'node-starts');
      writeFileSync(join(s.base, 'node-wrapper'), `#!/bin/sh\necho start >>'${marker}'\n'${process.execPath}' "$@"\n`);
      chmodSync(join(s.base, 'node-wrapper'), 0o755);
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      s.repo.write('loopgates.yaml', CONFIG);
      s.repo.git('add', '-A');
      const first = await gitAsync(['commit', '-q', '-m', 'loopgates, secrets off'], hookEnv());
      expect(first.status, first.output).toBe(0);
      plan = join(s.repo.dir, '.git', 'loopgates', 'cache', 'hook-plan.sh');
      planText = readFileSync(plan, 'utf8');
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
  // Each case starts from a clean index, an untouched config and the plan node wrote.
  s.repo.git('reset', '-q', '--hard', 'HEAD');
  writeFileSync(plan, planText);
});

describe('a commit no enabled gate reads: the shell and node give the same verdict', () => {
  const scenarios: Array<[string, Record<string, string | null>]> = [
    ['one Markdown file', { 'NOTES.md': 'n\n' }],
    ['two files, one in a folder', { 'docs/new.txt': 'n\n', 'CHANGELOG': 'c\n' }],
  ];
  it.each(scenarios)('%s: shell skip (no node, skip lines in the ledger) and node skip, both exit 0', async (_name, files) => {
    const shell = await commit(files);
    expect(shell.status, shell.output).toBe(0);
    expect(shell.landed).toBe(true);
    expect(shell.node).toBe(false);
    const n = Object.keys(files).length;
    expect(shell.output).toMatch(n === 1 ? /no gate reads this staged file — skip \(node not started; exit 0\)/ : new RegExp(`no gate reads these ${n} staged files — skip`));
    expect(shell.output).toMatch(/secrets is disabled in loopgates\.yaml/);
    expect(shell.newLedger.map((l) => [l.gate, l.verdict, l.kind, l.mode, l.via])).toStrictEqual(ON.map((id) => [id, 'skip', 'run', 'staged', 'hook-plan']));
    expect(shell.newLedger.every((l) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(String(l.ts)))).toBe(true);

    s.repo.git('reset', '-q', '--hard', 'HEAD~1');
    rmSync(plan);
    const node = await commit(files);
    expect(node.node).toBe(true);
    expect(node.status, node.output).toBe(shell.status);
    expect(node.landed).toBe(true);
    expect(node.newLedger.map((l) => [l.gate, l.verdict])).toStrictEqual(ON.map((id) => [id, 'skip']));
    expect(readFileSync(plan, 'utf8')).toBe(planText);
  });
});

describe('the skip forks no cmp and no date: the checked hook runs from its copy, the ledger time is boot time plus uptime', () => {
  /** A PATH holding git alone (the hook finds node through LOOPGATES_NODE). */
  const onlyGit = () => {
    const bin = join(s.base, 'only-git');
    if (!existsSync(bin)) {
      mkdirSync(bin);
      symlinkSync(spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim(), join(bin, 'git'));
    }
    return bin;
  };
  const near = (ts: unknown, from: number, to: number) => {
    const t = Date.parse(String(ts));
    return t >= from - 2000 && t <= to + 2000;
  };
  it('with git alone on PATH, a commit no gate reads still skips, with its ledger lines timed now', async () => {
    const from = Date.now();
    const r = await commit({ 'ONLY-GIT.md': 'o\n' }, { PATH: onlyGit() });
    const to = Date.now();
    expect([r.status, r.landed, r.node], r.output).toEqual([0, true, false]);
    expect(r.newLedger.map((l) => l.gate)).toStrictEqual(ON);
    expect(r.newLedger.every((l) => near(l.ts, from, to))).toBe(true);
  });
  it('with no node anywhere (git alone on PATH, no LOOPGATES_NODE), a commit no gate reads still skips', async () => {
    const r = await commit({ 'NO-NODE.md': 'o\n' }, { PATH: onlyGit(), LOOPGATES_NODE: undefined });
    expect([r.status, r.landed], r.output).toEqual([0, true]);
    expect(r.output).toMatch(/no gate reads this staged file — skip \(node not started; exit 0\)/);
  });
  it('a clock file of another boot: the time comes from date(1)', async () => {
    const clock = join(s.repo.dir, '.git', 'loopgates', 'cache', 'hook-clock');
    const kept = readFileSync(clock, 'utf8');
    expect(kept).toMatch(/^[0-9a-f-]{36}\n\d+\n$/);
    writeFileSync(clock, kept.replace(/^[0-9a-f]/, (c) => (c === '0' ? '1' : '0')));
    try {
      const from = Date.now();
      const r = await commit({ 'OTHER-BOOT.md': 'o\n' });
      const to = Date.now();
      expect([r.status, r.node]).toEqual([0, false]);
      expect(r.newLedger.every((l) => /\.000Z$/.test(String(l.ts)) && near(l.ts, from - 1000, to))).toBe(true);
    } finally {
      writeFileSync(clock, kept);
    }
  });
});

describe('maestro-flows on: the shell skips what no flow can read, and hands every YAML and deletion to node', () => {
  const flow = 'appId: org.notes\n---\n- launchApp\n- runFlow: subflows/sign-in.yaml\n- assertVisible: Notes\n';
  const subflow = 'appId: org.notes\n---\n- tapOn: Sign in\n- assertVisible: Welcome\n';
  it('a staged subflow YAML (and its caller) goes to node, which judges the flows', async () => {
    const r = await commit({ '.maestro/login.yaml': flow, '.maestro/subflows/sign-in.yaml': subflow });
    expect(r.node).toBe(true);
    expect(r.status, r.output).toBe(0);
    expect(r.newLedger.find((l) => l.gate === 'maestro-flows')?.verdict).toBe('pass');
    // The subflow alone, changed: still node's (its callers are judged again).
    const again = await commit({ '.maestro/subflows/sign-in.yaml': `${subflow}- assertVisible: Notes\n` });
    expect(again.node).toBe(true);
    expect(again.newLedger.find((l) => l.gate === 'maestro-flows')?.verdict).toBe('pass');
    // A Markdown file next to the flows: no gate reads it, the shell skips.
    const md = await commit({ '.maestro/README.md': 'how to run the flows\n' });
    expect(md.node).toBe(false);
    expect(md.status, md.output).toBe(0);
    expect(md.newLedger.map((l) => l.gate)).toContain('maestro-flows');
  });
  it('a staged CI workflow YAML and a Maestro CI script go to node (MAESTRO_VERSION)', async () => {
    expect((await commit({ '.github/workflows/e2e.yml': 'env:\n  MAESTRO_VERSION: 1.39.0\n' })).node).toBe(true);
    expect((await commit({ 'scripts/run-maestro.sh': 'MAESTRO_VERSION=1.39.0\n' })).node).toBe(true);
  });
  it('a deletion goes to node while maestro-flows is on (a flow may run the deleted file), and skips without it', async () => {
    const on = await commit({ 'docs/guide.md': null });
    expect(on.node).toBe(true);
    expect(on.status, on.output).toBe(0);
    expect(on.newLedger.map((l) => [l.gate, l.verdict])).toStrictEqual(ON.map((id) => [id, 'skip']));
    s.repo.git('reset', '-q', '--hard', 'HEAD~1');
    const base = head(s);
    try {
      const off = await commit({ 'loopgates.yaml': NO_FLOWS_CONFIG }, { LOOPGATES_ALLOW_DISABLE: 'secrets,maestro-flows' });
      expect(off.status, off.output).toBe(0);
      const shell = await commit({ 'docs/guide.md': null });
      expect(shell.node).toBe(false);
      expect(shell.status, shell.output).toBe(0);
      expect(shell.output).toMatch(/no gate reads this staged file — skip \(node not started; exit 0\)/);
      expect(shell.newLedger.map((l) => [l.gate, l.verdict, l.via])).toStrictEqual(ON.filter((id) => id !== 'maestro-flows').map((id) => [id, 'skip', 'hook-plan']));
    } finally {
      s.repo.git('reset', '-q', '--hard', base);
    }
  });
});

describe('every doubt hands the commit to node', () => {
  const md = { 'NOTES.md': 'n\n' };
  it('a staged path a gate reads (a Kotlin file: hardcoded-strings)', async () => {
    const r = await commit({ 'app/Main.kt': 'fun main() {}\n' });
    expect(r.node).toBe(true);
    expect(r.status, r.output).toBe(0);
  });
  it('a staged path that only a case-insensitive pattern catches (Main.KT)', async () => {
    expect((await commit({ 'app/Main.KT': 'fun main() {}\n' })).node).toBe(true);
  });
  it('a translation catalog (string-parity)', async () => {
    expect((await commit({ 'locales/de.json': '{"a": "b"}\n' })).node).toBe(true);
  });
  it('the staged config changed (its blob id is not the plan\'s)', async () => {
    const r = await commit({ 'loopgates.yaml': `${CONFIG}  hardcoded-strings:\n    enabled: true\n`, ...md });
    expect(r.node).toBe(true);
    expect(readFileSync(plan, 'utf8')).not.toBe(planText);
  });
  it('an unstaged edit of loopgates.yaml', async () => {
    s.repo.write('loopgates.yaml', `${CONFIG}# edited\n`);
    const r = await commit(md);
    expect(r.node).toBe(true);
    expect(r.status).not.toBe(0);
  });
  it('the work tree\'s loopgates.yaml deleted, not staged', async () => {
    rmSync(join(s.repo.dir, 'loopgates.yaml'));
    const r = await commit({ 'GONE.md': 'g\n' });
    expect(r.node).toBe(true);
    expect(r.status).not.toBe(0);
  });
  /** The copy of the staged config node keeps for the shell's unstaged-edit check (core/hook-plan.ts keepConfigCopy). */
  const configCopy = () => join(s.repo.dir, '.git', 'loopgates', 'cache', `hook-plan-config-${s.repo.git('rev-parse', ':loopgates.yaml').trim()}`);
  it('no kept copy of the staged config: node judges, keeps it again, and the next commit skips', async () => {
    const staged = s.repo.git('show', ':loopgates.yaml');
    expect(readFileSync(configCopy(), 'utf8')).toBe(staged);
    rmSync(configCopy());
    const r = await commit({ 'COPY1.md': 'c\n' });
    expect([r.node, r.status]).toEqual([true, 0]);
    expect(readFileSync(configCopy(), 'utf8')).toBe(staged);
    const next = await commit({ 'COPY2.md': 'c\n' });
    expect([next.node, next.status]).toEqual([false, 0]);
  });
  it('a kept copy that differs from the work tree\'s loopgates.yaml', async () => {
    const staged = s.repo.git('show', ':loopgates.yaml');
    writeFileSync(configCopy(), `${staged}# other\n`);
    try {
      const r = await commit({ 'COPY3.md': 'c\n' });
      expect([r.node, r.status]).toEqual([true, 0]);
    } finally {
      writeFileSync(configCopy(), staged);
    }
  });
  it('a plan from another loopgates version', async () => {
    writeFileSync(plan, planText.replace(/^loopgates_p_version=.*$/m, "loopgates_p_version='0.0.1'"));
    expect((await commit(md)).node).toBe(true);
  });
  it('a plan for another CLI', async () => {
    writeFileSync(plan, planText.replace(/^loopgates_p_cli=.*$/m, "loopgates_p_cli='/elsewhere/bin/loopgates.js'"));
    expect((await commit(md)).node).toBe(true);
  });
  it('a plan of another format, or cut short', async () => {
    writeFileSync(plan, planText.replace(/^loopgates_p_format=3$/m, 'loopgates_p_format=4'));
    expect((await commit(md)).node).toBe(true);
    s.repo.git('reset', '-q', '--hard', 'HEAD~1');
    writeFileSync(plan, planText.replace(/^loopgates_p_end=1\n/m, ''));
    expect((await commit(md)).node).toBe(true);
  });
  it('no plan', async () => {
    rmSync(plan);
    expect((await commit(md)).node).toBe(true);
  });
  it('a pending install journal', async () => {
    writeFileSync(join(s.repo.dir, '.git', 'loopgates', 'install.pending.json'), '{}\n');
    try {
      const r = await commit(md);
      expect(r.node).toBe(true);
      expect(r.landed).toBe(false);
    } finally {
      rmSync(join(s.repo.dir, '.git', 'loopgates', 'install.pending.json'));
    }
  });
  it('a path git must quote (non-ASCII)', async () => {
    expect((await commit({ 'caf\u00e9.md': 'c\n' })).node).toBe(true);
  });
  it('GIT_CONFIG_PARAMETERS (git -c) in the environment', async () => {
    expect((await commit(md, {}, ['-c', 'user.name=Someone'])).node).toBe(true);
  });
  it('GIT_DIR in the environment', async () => {
    expect((await commit(md, { GIT_DIR: join(s.repo.dir, '.git') })).node).toBe(true);
  });
  it('LOOPGATES_SKIP set (a bypass is always node\'s, loud and in the ledger)', async () => {
    expect((await commit(md, { LOOPGATES_SKIP: 'string-parity' })).node).toBe(true);
  });
  it('.loopgates/.gitignore is not the one install wrote (the ledger\'s place is node\'s to find)', async () => {
    const file = join(s.repo.dir, '.loopgates', '.gitignore');
    const was = readFileSync(file, 'utf8');
    writeFileSync(file, `${was}extra/\n`);
    try {
      expect((await commit(md)).node).toBe(true);
    } finally {
      writeFileSync(file, was);
    }
  });
});

describe('a staged loopgates.yaml change is always node\'s (the switch-off refusal is judged there, fresh-user F3)', () => {
  it('a commit switching gates off, refused once with the plan written for its config, is refused again with only loopgates.yaml staged', async () => {
    const base = head(s);
    try {
      // Acknowledged but refused for its Kotlin literal: node wrote the plan for NO_FLOWS_CONFIG (no YAML pattern left).
      const first = await commit({ 'loopgates.yaml': NO_FLOWS_CONFIG, 'app/Main.kt': 'fun t() = setTitle("Device info")\n' }, { LOOPGATES_ALLOW_DISABLE: 'secrets,maestro-flows' });
      expect([first.status, first.landed]).toEqual([1, false]);
      expect(readFileSync(plan, 'utf8')).toContain(`loopgates_p_config='${s.repo.git('rev-parse', ':loopgates.yaml').trim()}'`);
      s.repo.git('rm', '-q', '--cached', '--', 'app/Main.kt');
      const again = await commit({}, { LOOPGATES_ALLOW_DISABLE: 'secrets' });
      expect(again.node).toBe(true);
      expect(again.output).toContain('this commit switches off maestro-flows in loopgates.yaml (enabled in HEAD)');
      expect([again.status, again.landed]).toEqual([1, false]);
    } finally {
      s.repo.git('reset', '-q', '--hard', base);
      rmSync(join(s.repo.dir, 'app'), { recursive: true, force: true });
    }
  });
});

describe('install writes the plan', () => {
  it('so the first commit after install, with the config staged as install left it, already skips without node', async () => {
    await withSandbox({ ...APP, 'loopgates.yaml': CONFIG }, async (sb) => {
      const starts = join(sb.base, 'node-starts');
      writeFileSync(join(sb.base, 'node-wrapper'), `#!/bin/sh\necho start >>'${starts}'\n'${process.execPath}' "$@"\n`);
      chmodSync(join(sb.base, 'node-wrapper'), 0o755);
      expect((await sb.cli(['install', '--no-proof'])).code).toBe(0);
      const written = readFileSync(join(sb.repo.dir, '.git', 'loopgates', 'cache', 'hook-plan.sh'), 'utf8');
      expect(written).toContain(`\nloopgates_p_config='${sb.repo.git('hash-object', '--', 'loopgates.yaml').trim()}'\n`);
      expect(written).toContain(`\nloopgates_p_cli='${join(repoRoot, 'bin', 'loopgates.js')}'\n`);
      sb.repo.write('NOTES.md', 'n\n');
      sb.repo.git('add', '--', 'NOTES.md');
      const before = head(sb);
      const r = sb.gitRun(['commit', '-q', '-m', 'notes'], { LOOPGATES_NODE: join(sb.base, 'node-wrapper'), LOOPGATES_ALLOW_DISABLE: 'secrets' });
      expect(r.status, r.output).toBe(0);
      expect(head(sb)).not.toBe(before);
      expect(r.output).toMatch(/no gate reads this staged file — skip \(node not started; exit 0\)/);
      expect(existsSync(starts)).toBe(false);
    });
  });
});
