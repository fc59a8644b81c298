// The CommonJS bundle the stored hook runs (dist/loopgates.cjs, scripts/bundle.mjs + scripts/bundle-entry.cjs) and
// its V8 code cache in <git common dir>/loopgates/cache/v8: the hook runs it, the cache is written once and reused,
// and a corrupt, torn or foreign cache is ignored and rewritten without changing the verdict. Issue 17.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/setup-env.js';
import { assertBuilt, fakeAwsKeyId, head, withSandbox, type Sandbox } from './install-support.js';

beforeAll(assertBuilt);

const APP = { 'README.md': '# notes\n' };
const v8Dir = (s: Sandbox) => join(s.repo.dir, '.git', 'loopgates', 'cache', 'v8');
const cacheFiles = (s: Sandbox) => (existsSync(v8Dir(s)) ? readdirSync(v8Dir(s)).sort() : []);

/** Stage `file` with `text` and commit it through the installed hook. */
function commit(s: Sandbox, file: string, text: string, env: Record<string, string> = {}) {
  s.repo.write(file, text);
  s.repo.git('add', '--', file);
  const before = head(s);
  const r = s.gitRun(['commit', '-m', `edit ${file}`], env);
  return { ...r, landed: head(s) !== before };
}

/** The one cache file, its header line, checksum line and V8 data. */
function readCacheFile(s: Sandbox) {
  const [name] = cacheFiles(s);
  const file = join(v8Dir(s), name!);
  const bytes = readFileSync(file);
  const first = bytes.indexOf(10);
  const second = bytes.indexOf(10, first + 1);
  const data = bytes.subarray(second + 1);
  const sum = bytes.toString('latin1', first + 1, second);
  return { name: name!, file, bytes, magic: bytes.toString('latin1', 0, first), data, intact: sum === createHash('sha1').update(data).digest('hex') };
}

/**
 * Install, then the first commit: it runs the self-tests, and hardcoded-strings' loads tree-sitter, which changes V8's
 * flags (core/tree-sitter.ts), so that run writes no code cache (any later run would reject it); the next one does.
 */
async function installAndProve(s: Sandbox) {
  expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
  const proving = commit(s, 'NOTES.md', 'zero\n');
  expect(proving.landed).toBe(true);
  expect(proving.output).toMatch(/self-test proofs run now: .*hardcoded-strings/);
  expect(cacheFiles(s)).toEqual([]);
}

describe('the stored hook runs the CommonJS bundle with a V8 code cache', () => {
  it('a commit runs dist/loopgates.cjs, which writes one cache file keyed by node version, arch and the bundle digest, then reuses it', async () => {
    await withSandbox(APP, async (s) => {
      await installAndProve(s);
      const first = commit(s, 'NOTES.md', 'one\n');
      expect(first.output).toContain('commit allowed (exit 0)');
      expect(first.landed).toBe(true);
      const digest = /BUNDLE_DIGEST = '([0-9a-f]{64})'/.exec(readFileSync(join(repoRoot, 'dist', 'loopgates.cjs'), 'utf8'))![1]!;
      expect(cacheFiles(s)).toEqual([`${process.version}-${process.arch}-${digest.slice(0, 16)}.bin`]);
      const c = readCacheFile(s);
      expect(c.magic).toBe('loopgates-v8-cache 1');
      expect(c.data.length).toBeGreaterThan(10_000);
      expect(c.intact).toBe(true);
      const written = statSync(c.file).mtimeMs;
      const second = commit(s, 'NOTES.md', 'two\n');
      expect(second.landed).toBe(true);
      expect(statSync(c.file).mtimeMs).toBe(written);
      // The verdict is the bundle's: a credential is still refused, the value never printed.
      const key = fakeAwsKeyId();
      const refused = commit(s, 'Sync.kt', `package x\n\nconst val KEY = "${key}"\n`);
      expect(refused.landed).toBe(false);
      expect(refused.status).toBe(1);
      expect(refused.output).toMatch(/secrets\s+fail/);
      expect(refused.output).not.toContain(key);
    });
  });

  it('zod and the gates\' schemas load on first use: a config cache miss after cached hits still refuses a bad option, at its line', async () => {
    await withSandbox(APP, async (s) => {
      await installAndProve(s);
      expect(commit(s, 'NOTES.md', 'one\n').landed).toBe(true);
      // A staged loopgates.yaml the config cache has never seen: validated by the gates' schemas, built only now
      // (core/lazy-schema.ts), through the bundle's lazily initialised zod (scripts/bundle.mjs lazyZod).
      const bad = commit(s, 'loopgates.yaml', 'version: 1\ngates:\n  hardcoded-strings:\n    allow: ["("]\n  secrets:\n    scanTimeoutMs: "soon"\n');
      expect(bad.landed).toBe(false);
      expect(bad.status).toBe(1);
      expect(bad.output).toContain('loopgates.yaml is invalid (2 problems)');
      expect(bad.output).toMatch(/loopgates\.yaml:4 +gates\.hardcoded-strings\.allow\[0\]: not a valid regular expression/);
      expect(bad.output).toMatch(/loopgates\.yaml:6 +gates\.secrets\.scanTimeoutMs: Expected number, received string/);
      // The same options, valid: the commit is judged under them (the cache now holds this config).
      const good = commit(s, 'loopgates.yaml', 'version: 1\ngates:\n  hardcoded-strings:\n    allow: ["^x$"]\n  secrets:\n    scanTimeoutMs: 60000\n');
      expect(good.output).toContain('commit allowed (exit 0)');
      expect(good.landed).toBe(true);
    });
  });

  it('one flipped byte in the V8 data (V8 itself does not checksum code caches) is ignored, and the cache is rewritten', async () => {
    await withSandbox(APP, async (s) => {
      await installAndProve(s);
      expect(commit(s, 'NOTES.md', 'one\n').landed).toBe(true);
      const c = readCacheFile(s);
      const flipped = Buffer.from(c.bytes);
      flipped[c.bytes.length - c.data.length + Math.floor(c.data.length / 2)]! ^= 0x55;
      writeFileSync(c.file, flipped);
      const r = commit(s, 'NOTES.md', 'two\n');
      expect(r.output).toContain('commit allowed (exit 0)');
      expect(r.landed).toBe(true);
      const rewritten = readCacheFile(s);
      expect(rewritten.bytes.equals(flipped)).toBe(false);
      expect(rewritten.intact).toBe(true);
    });
  });

  it('a torn cache, garbage, or one from another build beside it: the commit is judged the same and one good cache is left', async () => {
    await withSandbox(APP, async (s) => {
      await installAndProve(s);
      expect(commit(s, 'NOTES.md', 'one\n').landed).toBe(true);
      const good = readCacheFile(s);
      for (const bad of [good.bytes.subarray(0, good.bytes.length - 1000), Buffer.from('not a cache'), Buffer.alloc(0)]) {
        writeFileSync(good.file, bad);
        writeFileSync(join(v8Dir(s), 'v0.0.0-x64-0000000000000000.bin'), good.bytes);
        // A file only the secrets gate reads: a .kt file would load tree-sitter, whose V8 flags keep a run from
        // writing the cache (scripts/bundle-entry.cjs), so the bad file would stay until a later commit.
        const key = fakeAwsKeyId();
        const r = commit(s, 'sync.txt', `key = "${key}"\n`);
        expect(r.landed).toBe(false);
        expect(r.status).toBe(1);
        expect(r.output).toMatch(/secrets\s+fail/);
        s.repo.git('reset', '-q', '--', 'sync.txt');
        expect(cacheFiles(s)).toEqual([good.name]);
        expect(readCacheFile(s).intact).toBe(true);
      }
    });
  });

  it('LOOPGATES_CODE_CACHE=off, or no hook facts (a verb typed by hand), runs the bundle without a cache', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const r = commit(s, 'NOTES.md', 'one\n', { LOOPGATES_CODE_CACHE: 'off' });
      expect(r.landed).toBe(true);
      expect(cacheFiles(s)).toEqual([]);
      const help = spawnSync(process.execPath, [join(repoRoot, 'dist', 'loopgates.cjs'), 'hook', '--help'], { cwd: s.repo.dir, env: s.env, encoding: 'utf8' });
      expect(help.status).toBe(0);
      expect(help.stdout).toContain('Usage: loopgates hook <git-hook-name>');
      expect(cacheFiles(s)).toEqual([]);
    });
  });
});

describe('the packages the bundle leaves in node_modules', () => {
  // gettext-parser (with iconv-lite and readable-stream) and execa are imported only when a run needs them; every
  // commit reads and decodes the whole bundle, so they are not in it (scripts/bundle.mjs LAZY_PACKAGES).
  it('are not in the bundle, which is ASCII (the loader reads it as latin1)', () => {
    const text = readFileSync(join(repoRoot, 'dist', 'loopgates.bundle.cjs'), 'latin1');
    expect(['node_modules/gettext-parser/', 'node_modules/iconv-lite/', 'node_modules/readable-stream/', 'node_modules/execa/'].filter((m) => text.includes(m))).toEqual([]);
    expect(text.includes('node_modules/zod/')).toBe(true);
    expect(/[^\x00-\x7f]/.test(text)).toBe(false);
  });

  it('a malformed PO file in a commit is refused with gettext-parser\'s words: import() works in the code-cached bundle', async () => {
    const po = (lang: string, body: string) => `msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\nLanguage: ${lang}\\n"\n\nmsgid "hello"\n${body}`;
    await withSandbox({ ...APP, 'locales/en.po': po('en', 'msgstr "Hello"\n') }, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const r = commit(s, 'locales/de.po', po('de', 'msgstr "Hallo"\ngarbage\n'));
      expect(r.landed).toBe(false);
      expect(r.output).toMatch(/string-parity\s+fail/);
      expect(r.output).toContain('(gettext-parser: Error parsing PO data: Invalid key name "garbage"');
    });
  });
});

describe('the bundle answers as the ES-module CLI does', () => {
  it('--help, hook --help, an unknown verb and run --all over the same repository: same output, same exit code', async () => {
    await withSandbox({ ...APP, 'app/src/main/res/values/strings.xml': '<resources>\n  <string name="a">A</string>\n</resources>\n' }, async (s) => {
      for (const argv of [['--help'], ['hook', '--help'], ['no-such-verb'], ['run', '--all', '--format', 'json']]) {
        const viaEsm = spawnSync(process.execPath, [join(repoRoot, 'bin', 'loopgates.js'), ...argv], { cwd: s.repo.dir, env: s.env, encoding: 'utf8' });
        const viaBundle = spawnSync(process.execPath, [join(repoRoot, 'dist', 'loopgates.cjs'), ...argv], { cwd: s.repo.dir, env: s.env, encoding: 'utf8' });
        const scrub = (t: string) => t.replace(/"durationMs": [\d.]+/g, '"durationMs": 0');
        expect({ argv, status: viaBundle.status, stdout: scrub(viaBundle.stdout), stderr: viaBundle.stderr }).toEqual({ argv, status: viaEsm.status, stdout: scrub(viaEsm.stdout), stderr: viaEsm.stderr });
      }
    });
  });
});
