// The saxes-based readers of Android values XML and .stringsdict: positions, entities, markup children, quoting state
// and malformed input. The expected values of well-formed inputs are what the xmldom readers they replaced returned
// (checked by a differential run over the corpus); malformed inputs assert the rule, the position and the wording.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAndroidXml } from '../../gates/string-parity/parsers/android.js';
import { parseStringsdict } from '../../gates/string-parity/parsers/stringsdict.js';

const android = (xml: string) => {
  const c = parseAndroidXml('res/values-de/strings.xml', xml, 'de');
  return {
    entries: c.locales[0]!.entries.map((e) => [e.key, e.line, e.column, e.value, ...(e.plurals ? [Object.entries(e.plurals).map(([q, v]) => [q, v.line, v.column, v.text])] : []), ...(e.items ? [e.items.map((v) => [v.line, v.column, v.text])] : [])]),
    problems: c.problems.map((p) => [p.rule, p.line, p.column]),
    messages: c.problems.map((p) => p.message),
  };
};

describe('Android values XML read with saxes', () => {
  it('places entries at their `<` (1-based line, UTF-16 column), start tags spanning lines included', () => {
    const r = android('<resources>\n  <string\n      name="a">x</string>\n  <plurals name="p">\n    <item quantity="one">1 file</item>\n    <item\n quantity="other">%d files</item>\n  </plurals>\n</resources>');
    expect(r.entries).toEqual([['a', 2, 3, 'x'], ['p', 4, 3, '%d files', [['one', 5, 5, '1 file'], ['other', 6, 5, '%d files']]]]);
    expect(r.problems).toEqual([]);
  });

  it('counts columns in UTF-16 units (an emoji is two)', () => {
    expect(android('<resources><string name="e">😀😀</string><string name="f">it\'s</string></resources>')).toMatchObject({
      entries: [['e', 1, 12, '😀😀'], ['f', 1, 42, "it's"]],
      problems: [['android-unescaped-apostrophe', 1, 61]],
    });
  });

  it('places an apostrophe by its offset in the decoded text after entities, as xmldom text nodes did', () => {
    // `&amp;` decodes to one character, so the column is the text's start plus the decoded offset (21, not 25).
    expect(android('<resources>\n<string name="a">&amp;It\'s &lt;b&gt; don\'t</string>\n</resources>')).toMatchObject({
      entries: [['a', 2, 1, "&It's <b> don't"]],
      problems: [['android-unescaped-apostrophe', 2, 21], ['android-unescaped-apostrophe', 2, 31]],
    });
  });

  it('starts a text after a comment or processing instruction that spans lines', () => {
    expect(android('<resources>\n<string name="a">one<!-- a\ncomment -->\n  it\'s <?pi x?>\'</string>\n</resources>')).toMatchObject({
      entries: [['a', 2, 1, "one it's '"]],
      problems: [['android-unescaped-apostrophe', 4, 5], ['android-unescaped-apostrophe', 4, 16]],
    });
  });

  it('takes CDATA verbatim (no apostrophe check, its quotes do not toggle) while quoting state flows through it', () => {
    expect(android('<resources>\n<string name="a"><![CDATA["]]>it\'s</string>\n<string name="b">"<![CDATA[x\']]>it\'s"</string>\n</resources>')).toMatchObject({
      entries: [['a', 2, 1, "it's"], ['b', 3, 1, "x'it's"]],
      problems: [['android-unescaped-apostrophe', 2, 33]],
    });
  });

  it('keeps the text of xliff:g and other markup children', () => {
    expect(android('<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">\n<string name="a">Played <xliff:g id="n" example="3">%1$d</xliff:g> episode\'s</string>\n</resources>')).toMatchObject({
      entries: [['a', 2, 1, "Played %1$d episode's"]],
      problems: [['android-unescaped-apostrophe', 2, 75]],
    });
  });

  it('counts lines as XML 1.0 and git do: CRLF and CR end a line, U+2028 / U+2029 / NEL are characters (mastodon-android values-sq-rAL)', () => {
    expect(android('<resources>\r\n<string name="a">a\u2028it\'s</string>\r\n<string name="b">b\'</string></resources>')).toMatchObject({
      entries: [['a', 2, 1, "a it's"], ['b', 3, 1, "b'"]],
      problems: [['android-unescaped-apostrophe', 2, 22], ['android-unescaped-apostrophe', 3, 19]],
    });
  });

  it('an XML 1.1 document ends lines at NEL, U+2028 and U+2029 too (w3.org/TR/xml11/#sec-line-ends)', () => {
    expect(android('<?xml version="1.1"?>\n<resources>\r\n<string name="a">a\u2028it\'s</string>\r\n<string name="b">b\'</string></resources>')).toMatchObject({
      entries: [['a', 3, 1, "a it's"], ['b', 5, 1, "b'"]],
      problems: [['android-unescaped-apostrophe', 4, 3], ['android-unescaped-apostrophe', 5, 19]],
    });
  });

  it('resolves aapt2 escapes and quoted spans in strings and string-array items', () => {
    expect(android('<resources><string name="a">  "Don\'t"  \\n \\u0041\\\' x  </string><string-array name="arr"><item>a\'</item><item>"b\'"</item></string-array></resources>')).toMatchObject({
      entries: [['a', 1, 12, "Don't \n A' x"], ['arr', 1, 64, "a'\nb'", [[1, 89, "a'"], [1, 104, "b'"]]]],
      problems: [['android-unescaped-apostrophe', 1, 96]],
    });
  });

  it('reports an undefined entity (also one a DOCTYPE declares: not expanded) at its `&`, keeps it as written and still reads the entries', () => {
    expect(android('<resources>\n<string name="a">Hi&nbsp;there</string>\n<string name="b">x</string>\n</resources>')).toEqual({
      entries: [['a', 2, 1, 'Hi&nbsp;there'], ['b', 3, 1, 'x']],
      problems: [['unparsable', 2, 20]],
      messages: ['malformed XML: entity not found:&nbsp;'],
    });
    expect(android('<?xml version="1.0"?>\n<!DOCTYPE resources [\n<!ENTITY app "AntennaPod">\n]>\n<resources>\n<string name="a">&app; x</string>\n</resources>')).toEqual({
      entries: [['a', 6, 1, '&app; x']],
      problems: [['unparsable', 6, 18]],
      messages: ['malformed XML: entity not found:&app;'],
    });
  });

  it.each([
    ['a malformed DOCTYPE', '<?xml version="1.0"?>\n<!DOCTYPE resources [\n<!ENTITY app x"AntennaPod">\n]>\n<resources>\n<string name="a">x</string>\n</resources>', 2, 1, 'malformed XML: malformed DOCTYPE declaration'],
    ['an unbound namespace prefix', '<resources>\n<string name="a">x <xliff:g id="n">%1$s</xliff:g></string>\n</resources>', 2, 20, 'malformed XML: unbound namespace prefix: "xliff"'],
    ['a bare & (aapt2 refuses it; xmldom let it through)', '<resources>\n<string name="a">Q & A</string>\n<string name="b">x</string>\n</resources>', 2, 20, "malformed XML: '&' does not start an entity reference (write &amp;)"],
    ['a mismatched end tag', '<resources>\n<string name="a">x</strin>\n</resources>', 2, 19, 'malformed XML: Opening and ending tag mismatch: "string" != "strin"'],
    ['unclosed elements', '<resources>\n<string name="a">x\n', 3, 1, 'malformed XML: unclosed xml tag(s): resources, string'],
    ['an empty file', '', 1, 1, 'malformed XML: missing root element'],
    ['another root element', '<foo/>', 1, 1, 'not an Android resources file (no <resources> root)'],
  ])('reports %s as unparsable at its place and reads no entries', (_name, xml, line, column, message) => {
    expect(android(xml)).toEqual({ entries: [], problems: [['unparsable', line, column]], messages: [message] });
  });

  it('reads the entries of a file with text after its root element, and reports that text', () => {
    expect(android('<resources>\n<string name="a">x</string>\n</resources>\nextra')).toEqual({
      entries: [['a', 2, 1, 'x']],
      problems: [['unparsable', 4, 1]],
      messages: ['malformed XML: Extra content at the end of the document'],
    });
  });

  it('sets at most seven handlers per saxes parser (each `on()` adds a property; from the eighth V8 makes the parser a dictionary and saxes 4-8x slower)', () => {
    // A source check: V8 cannot be asked whether an object has fast properties without --allow-natives-syntax.
    for (const file of ['android.ts', 'stringsdict.ts']) {
      const src = readFileSync(fileURLToPath(new URL(`../../gates/string-parity/parsers/${file}`, import.meta.url)), 'utf8');
      const readers = src.split('= xmlParser();').slice(1);
      expect(readers.length).toBe(1);
      for (const r of readers) expect((r.match(/\bp\.on\(/g) ?? []).length).toBeLessThanOrEqual(7);
    }
  });
});

const plistHead = '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n';
const dict = (body: string) => {
  const c = parseStringsdict('Base.lproj/Localizable.stringsdict', Buffer.from(plistHead + body), 'en');
  return {
    entries: c.locales[0]!.entries.map((e) => [e.key, e.line, e.column, e.value, e.valueLine, Object.entries(e.variables ?? {}).map(([k, v]) => [k, v.spec, v.line, Object.entries(v.plurals).map(([q, p]) => [q, p.text, p.line, p.column])])]),
    problems: c.problems.map((p) => [p.rule, p.line, p.column, p.message]),
  };
};

describe('.stringsdict read with saxes', () => {
  it('reads keys, formats and plural variables with positions; text content skips comments and keeps CDATA', () => {
    const body = '<dict>\n\t<key>files</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@n@</string>\n\t\t<key>n</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>ld</string>\n\t\t\t<key>one</key>\n\t\t\t<string>%ld file</string>\n\t\t\t<key>other</key>\n\t\t\t<string>%ld <!-- c -->files<![CDATA[ &]]></string>\n\t\t</dict>\n\t</dict>\n</dict>\n</plist>\n';
    expect(dict(body)).toEqual({ entries: [['files', 5, 2, '%#@n@', 8, [['n', 'ld', 9, [['one', '%ld file', 16, 4], ['other', '%ld files &', 18, 4]]]]]], problems: [] });
  });

  it.each([
    ['a mismatched end tag', '<dict>\n<key>a</key>\n<string>x</strin>\n</dict>\n</plist>\n', 6, 10, 'Opening and ending tag mismatch: "string" != "strin"'],
    ['a key without a value', '<dict>\n<key>a</key>\n<string>x</string>\n<key>b</key>\n</dict>\n</plist>\n', 7, 1, '<key> without a value'],
    ['a value where a key belongs', '<dict>\n<string>a</string>\n<string>x</string>\n</dict>\n</plist>\n', 5, 1, 'expected <key>, found <string>'],
    ['an undefined entity', '<dict>\n<key>a</key>\n<string>x&nbsp;</string>\n</dict>\n</plist>\n', 6, 10, 'entity not found:&nbsp;'],
  ])('reports %s as unparsable at its place and reads no entries', (_name, body, line, column, message) => {
    expect(dict(body)).toEqual({ entries: [], problems: [['unparsable', line, column, `.stringsdict is not a valid property list: ${message}`]] });
  });

  it('reports a malformed DOCTYPE (saxes does not check one; xmldom did)', () => {
    const c = parseStringsdict('x.stringsdict', Buffer.from(plistHead.replace('PUBLIC', 'PUBLIK') + '<dict/>\n</plist>\n'), 'en');
    expect(c.problems.map((p) => [p.rule, p.line, p.column, p.message])).toEqual([['unparsable', 2, 1, '.stringsdict is not a valid property list: malformed DOCTYPE declaration']]);
  });
});
