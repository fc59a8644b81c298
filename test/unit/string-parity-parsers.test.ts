import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { po as gettextPo } from 'gettext-parser';
import { normaliseLocale, pluralRules } from '../../gates/string-parity/locale.js';
import { parseAppleStrings } from '../../gates/string-parity/parsers/apple-strings.js';
import { readPo } from '../../gates/string-parity/parsers/po.js';
import { parsePrintf } from '../../gates/string-parity/placeholders/printf.js';
import { parseIcu, parseIcuWithFormatjs } from '../../gates/string-parity/placeholders/icu.js';
import { JsonSyntaxError, parseJsonWithPositions } from '../../gates/string-parity/parsers/json-pos.js';
import { parseAndroidXml } from '../../gates/string-parity/parsers/android.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import { stringParityGate } from '../../gates/string-parity/index.js';
import { loadBaseIndex } from '../../gates/string-parity/catalogs.js';
import { l10nCorpus } from '../helpers/corpus.js';

describe('locale names', () => {
  it.each([
    ['pt-rBR', 'pt-BR'], ['b+sr+Latn', 'sr-Latn'], ['zh-Hans', 'zh-Hans'], ['iw', 'he'], ['in', 'id'], ['kn-rIN', 'kn-IN'],
    ['de_DE', 'de-DE'], ['srp', 'sr'], ['English', 'en'], ['night', null], ['sw600dp', null], ['Base', null],
  ])('%s -> %s', (raw, want) => expect(normaliseLocale(raw)).toBe(want));
  it('plural rules come from make-plural; unknown tags are null, pseudo-locales take the base rules', () => {
    expect(pluralRules('pl', 'integers')!.required).toEqual(['one', 'few', 'many', 'other']);
    expect(pluralRules('fr', 'integers')!.required).toEqual(['one', 'other']);
    expect(pluralRules('fr', 'cldr')!.required).toEqual(['one', 'many', 'other']);
    expect(pluralRules('tt', 'integers')).toBeNull();
    expect(pluralRules('lol-US', 'integers', ['lol'], 'ru')!.required).toEqual(['one', 'few', 'many', 'other']);
    expect(pluralRules('ar-XB', 'integers', ['ar-XB'])!.cldrLocale).toBe('ar');
  });
});

describe('.strings tokenizer', () => {
  const text = '/* c */\n"a" = "x\\"y\\n\\U00e9";\n// line\nb = "%@ z";\n"only";\n';
  it('reads UTF-8 with comments, escapes, unquoted keys and lines', () => {
    const c = parseAppleStrings('x.strings', Buffer.from(text, 'utf8'), 'de');
    expect(c.problems).toEqual([]);
    expect(c.locales[0]!.entries.map((e) => [e.key, e.value, e.line])).toEqual([['a', 'x"y\né', 2], ['b', '%@ z', 4], ['only', 'only', 5]]);
  });
  it('reads UTF-16 LE with BOM and UTF-16 BE', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    for (const b of [le, be]) expect(parseAppleStrings('x.strings', b, 'de').locales[0]!.entries.length).toBe(3);
  });
  it('reports a syntax error at its line', () => {
    expect(parseAppleStrings('x.strings', Buffer.from('"a" = "b";\n"c" = "d"\n"e" = "f";\n'), 'de').problems.map((p) => [p.rule, p.line])).toEqual([['unparsable', 3]]);
  });
});

describe('printf grammar', () => {
  it('finds invalid specifiers: trailing %, `% p`, unknown conversion', () => {
    expect(parsePrintf('100 %', 'java').invalid.length).toBe(1);
    expect(parsePrintf('% publicacions', 'apple').invalid.map((i) => i.offset)).toEqual([0]);
    expect(parsePrintf('%1ημ', 'apple').invalid.length).toBe(1);
    expect(parsePrintf('%1$s %<s %d %%', 'java').specs.map((s) => [s.arg, s.type])).toEqual([[1, 'string'], [1, 'string'], [1, 'int']]);
    expect(parsePrintf('%lld %@ %#@n@', 'apple').specs.map((s) => s.type)).toEqual(['int64', 'object', 'variable']);
  });
});

describe('Android XML', () => {
  it('reports an unescaped apostrophe at its line, not one inside double quotes', () => {
    const c = parseAndroidXml('v.xml', '<resources>\n<string name="a">"It\'s"</string>\n<string name="b">\nIt\'s</string>\n</resources>', 'de');
    expect(c.problems.map((p) => [p.rule, p.line, p.key])).toEqual([['android-unescaped-apostrophe', 4, 'b']]);
  });
  it('reports malformed XML as unparsable with a line', () => {
    const c = parseAndroidXml('v.xml', '<resources>\n<string name="a">x</strin>\n</resources>', 'de');
    expect(c.problems[0]!.rule).toBe('unparsable');
    expect(c.problems[0]!.line).toBe(2);
  });
});

describe('PO reader', () => {
  it('agrees with gettext-parser on every corpus PO file', () => {
    const root = `${l10nCorpus}/Chia-Network__chia-blockchain-gui/packages`;
    let files = 0;
    for (const pkg of readdirSync(root)) {
      for (const loc of readdirSync(`${root}/${pkg}/src/locales`)) {
        const buf = readFileSync(`${root}/${pkg}/src/locales/${loc}/messages.po`);
        // gettext-parser keeps the last of duplicate definitions (the gate reports them as duplicate-key).
        const last = new Map(readPo(buf.toString('utf8')).filter((m) => m.msgid !== '').map((m) => [`${m.msgctxt ?? ''}\u0004${m.msgid}`, m.msgstr.join('|')]));
        const ours = [...last].map(([k, v]) => `${k}=${v}`);
        const theirs: string[] = [];
        for (const [ctx, t] of Object.entries(gettextPo.parse(buf).translations)) for (const [id, m] of Object.entries(t)) if (id !== '') theirs.push(`${ctx}\u0004${id}=${m.msgstr.join('|')}`);
        expect(new Set(ours)).toEqual(new Set(theirs));
        files++;
      }
    }
    expect(files).toBe(144);
  });
});

describe('staged mode', () => {
  const base = '<resources>\n    <string name="a">A %1$s</string>\n    <string name="new_key">New</string>\n</resources>\n';
  const de = '<resources>\n    <string name="a">A %1$s</string>\n</resources>\n';
  const fr = '<resources>\n    <string name="a">A</string>\n</resources>\n';
  const files = { 'res/values/strings.xml': base, 'res/values-de/strings.xml': de, 'res/values-fr/strings.xml': fr };
  const run = (targets: string[]) =>
    runGate({ gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 10_000 }, { ws: memoryWorkspace({ files, targets }), cacheRoot: '/tmp/loopgates-test-cache' });
  it('a staged translation is checked against the unstaged base', async () => {
    const r = await run(['res/values-fr/strings.xml']);
    expect(r.verdict).toBe('fail');
    expect(r.counts.files).toBe(1);
    expect(r.findings.filter((f) => f.severity === 'error').map((f) => `${f.file}:${f.line} ${f.rule}`)).toEqual(['res/values-fr/strings.xml:2 placeholder-mismatch']);
  });
  it('a staged base with a new key reports which locales lack it (once, at the base)', async () => {
    const r = await run(['res/values/strings.xml']);
    // fr (not staged) disagrees with the staged base's `a`: the commit would leave it wrong.
    expect(r.verdict).toBe('fail');
    expect(r.findings.filter((f) => f.severity === 'error').map((f) => `${f.file}:${f.line} ${f.rule}`)).toEqual(['res/values-fr/strings.xml:2 placeholder-mismatch']);
    const m = r.findings.filter((f) => f.rule === 'missing-key');
    expect(m.map((f) => `${f.file}:${f.line}`)).toEqual(['res/values/strings.xml:3']);
    expect(m[0]!.message).toMatch(/`new_key` is missing in 2 of 2 locale files: de, fr/);
  });
  it('a staged base is compared with every translation of its group, read from the snapshot, findings in the translations', async () => {
    // The repro: the base renumbers an argument (%2$s -> %3$s); de still uses %2$s and is not staged.
    const b = '<resources>\n    <string name="last_edited">Edited %1$s by %2$s</string>\n</resources>\n';
    const t = '<resources>\n    <string name="last_edited">Bearbeitet %1$s von %2$s</string>\n</resources>\n';
    const snapshot = { 'res/values/strings.xml': b.replace('%2$s', '%3$s'), 'res/values-de/strings.xml': t, 'res/values-pl/strings.xml': t };
    const r = await runGate(
      { gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 10_000 },
      { ws: memoryWorkspace({ files: snapshot, targets: ['res/values/strings.xml'] }), cacheRoot: '/tmp/loopgates-test-cache' },
    );
    expect(r.verdict).toBe('fail');
    expect(r.counts.files).toBe(3);
    const errors = r.findings.filter((f) => f.severity === 'error');
    expect(errors.map((f) => `${f.file}:${f.line} ${f.rule}`)).toEqual(['res/values-de/strings.xml:2 placeholder-mismatch', 'res/values-pl/strings.xml:2 placeholder-mismatch']);
    expect(errors[0]!.message).toMatch(/staged change to the base res\/values\/strings\.xml/);
    // The unchanged base passes with the same unstaged translations.
    const green = await runGate(
      { gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 10_000 },
      { ws: memoryWorkspace({ files: { ...snapshot, 'res/values/strings.xml': b }, targets: ['res/values/strings.xml'] }), cacheRoot: '/tmp/loopgates-test-cache' },
    );
    expect(green.verdict).toBe('pass');
    expect(green.counts.files).toBe(3);
  });
  it('a filter that removes every catalog says so', async () => {
    const r = await runGate(
      { gate: stringParityGate, config: stringParityGate.configSchema.parse({ include: ['nothing/**'] }), timeoutMs: 10_000 },
      { ws: memoryWorkspace({ files, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' },
    );
    expect(r.verdict).toBe('vacuous');
    expect(r.counts.filtered).toBe(3);
    expect(r.notes.join('\n')).toMatch(/removed every catalog file \(3 of 3\)/);
  });
  it('rule severities are configurable and missing keys can be made errors', async () => {
    const r = await runGate(
      { gate: stringParityGate, config: stringParityGate.configSchema.parse({ rules: { 'missing-key': 'error' } }), timeoutMs: 10_000 },
      { ws: memoryWorkspace({ files, targets: ['res/values-de/strings.xml'] }), cacheRoot: '/tmp/loopgates-test-cache' },
    );
    expect(r.verdict).toBe('fail');
    expect(() => stringParityGate.configSchema.parse({ bogus: 1 })).toThrow();
  });
});

describe('base index for hardcoded-strings', () => {
  it('maps base text to keys and knows .xcstrings literal keys', async () => {
    const ws = memoryWorkspace({ files: { 'res/values/strings.xml': '<resources><string name="play">Play</string></resources>', 'A/L.xcstrings': '{"sourceLanguage":"en","strings":{"Hello":{}},"version":"1.0"}' } });
    const idx = await loadBaseIndex(ws);
    expect(idx.byValue.get('Play')!.map((r) => r.key)).toEqual(['play']);
    expect(idx.byKey.has('Hello')).toBe(true);
  });
});

describe('ICU arguments', () => {
  // parseIcu reads texts whose only ICU syntax is simple `{name}` arguments without formatjs: it must read every text
  // as formatjs does (syntax errors, quoting, arguments, tags), in both apostrophe modes.
  const edge = [
    '{a}', '{ a }', '{a }', '{}', '{a', 'a}', '}{a}', "'{a}'", "it's {a}", "''{a}", "'<b>' {a}", "{a}'", '#{a}#', '<b>{a}</b>',
    '{a-b}', '{a.b}', '{é}', '{a}{b}{a}', "x '# {a}", '{a,number}', '{0}', '{_}', "'{'", "a'}", "l'{a}", "{a} '}", '{a}}',
    '{a} {n, plural, one {# x} other {# y}}', '<0>{a}</0>', "{a}''", '{\u00a0a}', '{a\u00a0}',
  ];
  it('agrees with formatjs on edge cases', () => {
    for (const t of edge) for (const q of [true, false]) expect([t, q, parseIcu(t, q)]).toEqual([t, q, parseIcuWithFormatjs(t, q)]);
  });
  it('agrees with formatjs on every lichess .arb value and Chia PO msgstr', () => {
    const texts = new Set<string>();
    const arb = `${l10nCorpus}/lichess-org__mobile/lib/l10n`;
    for (const f of readdirSync(arb)) {
      for (const v of Object.values(JSON.parse(readFileSync(`${arb}/${f}`, 'utf8')) as Record<string, unknown>)) if (typeof v === 'string') texts.add(v);
    }
    const root = `${l10nCorpus}/Chia-Network__chia-blockchain-gui/packages`;
    for (const pkg of readdirSync(root)) {
      for (const loc of readdirSync(`${root}/${pkg}/src/locales`)) for (const m of readPo(readFileSync(`${root}/${pkg}/src/locales/${loc}/messages.po`, 'utf8'))) for (const s of m.msgstr) texts.add(s);
    }
    let simple = 0;
    const differ: unknown[] = [];
    for (const t of texts) {
      for (const q of [true, false]) {
        const ours = parseIcu(t, q);
        const theirs = parseIcuWithFormatjs(t, q);
        if (JSON.stringify(ours) !== JSON.stringify(theirs)) differ.push([t, q, ours, theirs]);
        if (q && t.includes('{') && ours.args.length && ours.args.every((a) => a.kind === 'simple')) simple++;
      }
    }
    expect(differ).toEqual([]);
    expect(texts.size).toBeGreaterThan(30_000);
    expect(simple).toBeGreaterThan(1_000);
  });
});

describe('positioned JSON from bytes', () => {
  // parseJsonWithPositions(bytes) scans Latin-1 and decodes only strings that hold other bytes: it must give the tree
  // (values, 1-based lines, UTF-16 columns) and the errors that the decoded text gives, as catalogs.ts decodes it.
  const decoded = (b: Buffer) => {
    const t = b.toString('utf8');
    return t.charCodeAt(0) === 0xfeff ? t.slice(1) : t;
  };
  const outcome = (input: string | Buffer) => {
    try {
      return parseJsonWithPositions(input);
    } catch (err) {
      const e = err as JsonSyntaxError;
      return { error: e.message, line: e.line, column: e.column, json: err instanceof JsonSyntaxError };
    }
  };
  const same = (b: Buffer) => expect(outcome(b)).toEqual(outcome(decoded(b)));
  it('agrees with the decoded text on edge cases', () => {
    const cases = [
      '{"é": "ü", "k": "v"}', '{"a": "Grüße", "b": ["x", "😀", "y"], "c": 1}', '{"a": "\\u00e9 ü \\n x", "b": "z"}',
      '{"a": "x\\"y ü", "b": "é\\\\"}', '\ufeff{"a": "ü"}', '\ufeff\ufeff{"a": "ü"}', '{"a": "ü"} x', '{"ü": "a"  "b"}',
      '{"a": "é\\n\ncontinued ü", "b": 2}', '{"a": "é\\t\nü", "b": "c"}', '{\n  "日本": {"語": "テキスト", "n": null},\n  "x": [true, false]\n}',
      '{"a": "ü\u0001"}', '{"a": "ü', '{"a": "\\q ü"}', '[1, 2, "€", -0.5e3]', '{"a":"ü","b":"ö","c":"ä"}\r\n',
    ];
    for (const c of cases) same(Buffer.from(c, 'utf8'));
    // Invalid UTF-8 inside strings decodes to U+FFFD as the whole decoded text has it.
    same(Buffer.concat([Buffer.from('{"a": "x'), Buffer.from([0xc3]), Buffer.from('", "b": "'), Buffer.from([0xe2, 0x82]), Buffer.from('\\n', 'latin1'), Buffer.from([0xff]), Buffer.from('"}')]));
  });
  it('agrees with the decoded text on every .arb, .xcstrings and JSON catalog of the l10n corpus', () => {
    let files = 0;
    const walk = (dir: string) => {
      for (const d of readdirSync(dir, { withFileTypes: true })) {
        const p = `${dir}/${d.name}`;
        if (d.isDirectory()) walk(p);
        else if (/\.(arb|xcstrings|json)$/.test(d.name)) {
          same(readFileSync(p));
          files++;
        }
      }
    };
    walk(l10nCorpus);
    expect(files).toBe(57);
  });
});

describe('parsePo on a malformed file', () => {
  it('reports unparsable at the line our reader stops, with gettext-parser\'s own message (imported only then)', async () => {
    const { parsePo } = await import('../../gates/string-parity/parsers/po.js');
    const bytes = Buffer.from('msgid ""\nmsgstr ""\n"Language: de\\n"\n\nmsgid "a"\nmsgstr "b"\ngarbage here\n');
    let reference = '';
    try {
      gettextPo.parse(bytes, { validation: true });
    } catch (e) {
      reference = (e as Error).message;
    }
    expect(reference).not.toBe('');
    const r = await parsePo('de.po', bytes, 'de', 'none', false);
    expect(r.problems.map((p) => [p.rule, p.line, p.severity])).toEqual([['unparsable', 7, 'error']]);
    expect(r.problems[0]!.message).toMatch(/^not a valid PO file: .+ \(gettext-parser: /);
    expect(r.problems[0]!.message.endsWith(`(gettext-parser: ${reference})`)).toBe(true);
  });
});
