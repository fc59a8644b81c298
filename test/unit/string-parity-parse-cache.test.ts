// string-parity's parse cache (gates/string-parity/parse-cache.ts): a stored parse reads back equal to the parse for
// every catalog file of the l10n corpus; keys change with the bytes and the parse options; a staged run judges the
// base as it is in the index even when an older base was cached; a corrupt cache is a miss.
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { treeWorkspace } from '../../core/snapshot.js';
import type { GateResult } from '../../core/types.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { discoverCatalogs, loadCatalog } from '../../gates/string-parity/catalogs.js';
import { stringParityGate } from '../../gates/string-parity/index.js';
import { PARSE_CACHE_MAX_FILES, parseCacheKey, readParsed, writeParsed } from '../../gates/string-parity/parse-cache.js';
import { l10nCorpus } from '../helpers/corpus.js';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'loopgates-parse-cache-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const xml = (...entries: string[]) => `<resources>\n${entries.map((e) => `    ${e}\n`).join('')}</resources>\n`;
const BASE = 'res/values/strings.xml';
const DE = 'res/values-de/strings.xml';

/** string-parity on a staged memory workspace (only `staged` is a target), caches under `cacheRoot`. */
const runStaged = (files: Record<string, string>, staged: string[], cacheRoot: string): Promise<GateResult> =>
  runGate(
    { gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 30_000 },
    { ws: memoryWorkspace({ files, targets: staged }), cacheRoot },
  );
const summary = (r: GateResult) => [r.verdict, r.counts.files, r.counts.items, ...r.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule} ${f.message}`)];
const parsedFiles = (cacheRoot: string) => readdirSync(join(cacheRoot, 'string-parity', 'parsed')).filter((n) => n.endsWith('.json'));

describe('parse cache: a stored parse reads back equal to the parse', () => {
  it('every catalog file of the l10n corpus (all six formats) round-trips exactly', async () => {
    const dir = tempDir();
    const formats = new Set<string>();
    let files = 0;
    for (const project of readdirSync(l10nCorpus, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)) {
      const ws = await treeWorkspace(join(l10nCorpus, project), 'all');
      const set = await discoverCatalogs(ws);
      for (const g of set.groups) {
        for (const f of g.files) {
          const loaded = await loadCatalog(ws, f);
          const key = parseCacheKey(`${f.format}\0${f.path}`, await ws.read(f.path));
          writeParsed(dir, key, loaded);
          expect(readParsed(dir, key, f.path), f.path).toStrictEqual(loaded);
          formats.add(f.format);
          files++;
        }
      }
    }
    expect([...formats].sort()).toEqual(['android-xml', 'apple-strings', 'apple-stringsdict', 'arb', 'gettext-po', 'xcstrings']);
    expect(files).toBeGreaterThan(300);
  });
  it('i18next and ICU JSON catalogs (none in the corpus) round-trip exactly', async () => {
    const dir = tempDir();
    const ws = memoryWorkspace({
      mode: 'all',
      files: {
        'web/locales/en/common.json': JSON.stringify({ nav: { home: 'Home {{name}}' }, item_one: '{{count}} item', item_other: '{{count}} items' }, null, 2),
        'web/locales/de/common.json': JSON.stringify({ nav: { home: 'Start {{name}}' }, item_one: '{{count}} Ding', item_other: '' }, null, 2),
        'app/lang/en.json': '{\n  "greet": "Hi {name}, you have {n, plural, one {# message} other {# messages}}",\n  "bad": "{oops"\n}\n',
        'app/lang/fr.json': '{\n  "greet": "Salut {name}, {n, plural, one {# message} other {# messages}}"\n}\n',
      },
    });
    const set = await discoverCatalogs(ws);
    const seen: string[] = [];
    for (const f of set.groups.flatMap((g) => g.files)) {
      const loaded = await loadCatalog(ws, f);
      const key = parseCacheKey(`${f.format}\0${f.path}`, await ws.read(f.path));
      writeParsed(dir, key, loaded);
      expect(readParsed(dir, key, f.path), f.path).toStrictEqual(loaded);
      seen.push(`${f.format} ${f.path}`);
    }
    expect(seen.sort()).toEqual(['i18next-json web/locales/de/common.json', 'i18next-json web/locales/en/common.json', 'icu-json app/lang/en.json', 'icu-json app/lang/fr.json']);
  });
});

describe('parse cache: keys and misses', () => {
  const loaded = { path: 'a.xml', format: 'android-xml' as const, locales: [], problems: [] };
  it('the key changes with one byte of content, with the parse options, and is 64 hex characters', () => {
    const k = parseCacheKey('android-xml\0a.xml', Buffer.from('<resources/>'));
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    expect(parseCacheKey('android-xml\0a.xml', Buffer.from('<resources/> '))).not.toBe(k);
    expect(parseCacheKey('android-xml\0b.xml', Buffer.from('<resources/>'))).not.toBe(k);
    expect(parseCacheKey('android-xml\0a.xml', Buffer.from('<resources/>'))).toBe(k);
  });
  it('absent, corrupt, of another key or of another path: a miss (null), never a throw', () => {
    const dir = tempDir();
    const key = 'a'.repeat(64);
    expect(readParsed(dir, key, 'a.xml')).toBeNull();
    writeParsed(dir, key, loaded);
    expect(readParsed(dir, key, 'a.xml')).toStrictEqual(loaded);
    expect(readParsed(dir, key, 'b.xml')).toBeNull();
    const file = join(dir, 'parsed', `${key}.json`);
    writeFileSync(file, readFileSync(file, 'utf8').replace(key, 'b'.repeat(64)));
    expect(readFileSync(file, 'utf8')).toContain('b'.repeat(64));
    expect(readParsed(dir, key, 'a.xml')).toBeNull();
    writeFileSync(file, '{"format":1,');
    expect(readParsed(dir, key, 'a.xml')).toBeNull();
    writeFileSync(file, 'null');
    expect(readParsed(dir, key, 'a.xml')).toBeNull();
  });
  it(`keeps at most ${PARSE_CACHE_MAX_FILES} parses, removing the least recently used first`, () => {
    const dir = tempDir();
    const keys = Array.from({ length: PARSE_CACHE_MAX_FILES }, (_, i) => i.toString(16).padStart(64, '0'));
    keys.forEach((k, i) => {
      writeParsed(dir, k, loaded);
      // Distinct ages, oldest first.
      const t = new Date(Date.UTC(2026, 0, 1, 0, 0, i));
      utimesSync(join(dir, 'parsed', `${k}.json`), t, t);
    });
    expect(readdirSync(join(dir, 'parsed')).length).toBe(PARSE_CACHE_MAX_FILES);
    // A read makes key 0 the most recently used; three more parses then push out keys 1, 2 and 3.
    expect(readParsed(dir, keys[0]!, 'a.xml')).not.toBeNull();
    for (const k of ['d', 'e', 'f']) writeParsed(dir, k.repeat(64), loaded);
    const left = new Set(readdirSync(join(dir, 'parsed')));
    expect(left.size).toBe(PARSE_CACHE_MAX_FILES);
    expect([keys[0], keys[1], keys[2], keys[3], keys[4]].map((k) => left.has(`${k}.json`))).toEqual([true, false, false, false, true]);
    expect(left.has(`${'f'.repeat(64)}.json`)).toBe(true);
  });
});

describe('parse cache on the commit path (staged string-parity)', () => {
  const base1 = xml('<string name="play">Play</string>', '<string name="share">Share</string>');
  // The base as a later commit left it: `play` now takes an argument.
  const base2 = xml('<string name="play">Play %1$s</string>', '<string name="share">Share</string>');
  const de = xml('<string name="play">Abspielen</string>', '<string name="share">Teilen</string>');

  it('the unchanged base of a staged translation is stored; the staged translation is not', async () => {
    const cacheRoot = tempDir();
    const r = await runStaged({ [BASE]: base1, [DE]: de }, [DE], cacheRoot);
    expect(summary(r)).toEqual(['pass', 1, 2]);
    expect(parsedFiles(cacheRoot).length).toBe(1);
    const stored = JSON.parse(readFileSync(join(cacheRoot, 'string-parity', 'parsed', parsedFiles(cacheRoot)[0]!), 'utf8')) as { catalog: { path: string } };
    expect(stored.catalog.path).toBe(BASE);
  });

  it('red: a base that changed since it was cached is judged as it is now (placeholder-mismatch), not as cached', async () => {
    const cacheRoot = tempDir();
    expect(summary(await runStaged({ [BASE]: base1, [DE]: de }, [DE], cacheRoot))).toEqual(['pass', 1, 2]);
    const r = await runStaged({ [BASE]: base2, [DE]: de.replace('Teilen', 'Teilen!') }, [DE], cacheRoot);
    expect(summary(r)).toEqual([
      'fail',
      1,
      2,
      `${DE}:2:5 placeholder-mismatch de \`play\`: argument #1 of the base missing: base has %1$s, translation has none`,
    ]);
    expect(parsedFiles(cacheRoot).length).toBe(2);
  });

  it('a hit is what is judged (the cache is trusted as written), and a corrupt cache file is a miss with the same findings', async () => {
    const cacheRoot = tempDir();
    const files = { [BASE]: base2, [DE]: de };
    const first = await runStaged(files, [DE], cacheRoot);
    expect(first.findings.map((f) => f.rule)).toEqual(['placeholder-mismatch']);
    const [name] = parsedFiles(cacheRoot);
    const path = join(cacheRoot, 'string-parity', 'parsed', name!);
    const stored = readFileSync(path, 'utf8');
    // A hit: the stored parse is used (here edited so that the base's `play` takes no argument).
    writeFileSync(path, stored.replaceAll('Play %1$s', 'Play'));
    expect(summary(await runStaged(files, [DE], cacheRoot))).toEqual(['pass', 1, 2]);
    // Corrupt: parsed again, the same findings as without a cache, and the file rewritten whole.
    writeFileSync(path, stored.slice(0, 100));
    expect(summary(await runStaged(files, [DE], cacheRoot))).toEqual(summary(first));
    expect(readFileSync(path, 'utf8')).toBe(stored);
  });

  it('the translations of a staged base are read from the cache on the next commit, with the same findings', async () => {
    const cacheRoot = tempDir();
    const fr = xml('<string name="play">Lire</string>');
    const files = { [BASE]: base2, [DE]: de, 'res/values-fr/strings.xml': fr };
    const first = await runStaged(files, [BASE], cacheRoot);
    expect(parsedFiles(cacheRoot).length).toBe(2);
    const again = await runStaged(files, [BASE], cacheRoot);
    expect(summary(again)).toEqual(summary(first));
    expect(first.findings.map((f) => `${f.file} ${f.rule}`)).toEqual([
      `${BASE} missing-key`,
      `${DE} placeholder-mismatch`,
      'res/values-fr/strings.xml placeholder-mismatch',
    ]);
  });
});
