// The Android XML extractor on saxes: positions, directive ranges and errors that the streaming reader has to rebuild
// from the source (saxes reports where a construct ends, not where it starts). Each expectation below is what the
// xmldom extractor it replaced gave, except the malformed cases marked so.
import { describe, expect, it } from 'vitest';
import { extractAndroidXml } from '../../gates/hardcoded-strings/android-xml.js';
import type { Extraction } from '../../gates/hardcoded-strings/model.js';

const NS = 'xmlns:android="http://schemas.android.com/apk/res/android" xmlns:app="http://schemas.android.com/apk/res-auto" xmlns:tools="http://schemas.android.com/tools"';
const at = (e: Extraction) => e.candidates.map((c) => `${c.line}:${c.column} ${c.context}=${c.literal}`);

/** Every candidate's line:column must point at the opening quote of its value in `xml` (lines split on LF). */
function expectAtQuotes(xml: string, e: Extraction): void {
  const lines = xml.split('\n');
  for (const c of e.candidates) expect(['"', "'"], `${c.line}:${c.column} ${c.literal}`).toContain(lines[c.line - 1]?.[c.column - 1]);
}

describe('Android XML on saxes: candidate positions', () => {
  const layout = `<?xml version="1.0" encoding="utf-8"?>
<LinearLayout ${NS}
    android:orientation="vertical">
    <TextView
        android:id="@+id/a"
        android:text = 'Multi
line'
        android:hint="x&#10;y&#9;z" />
    <Button android:text="😀 after 😀" android:contentDescription="Play" />
</LinearLayout>
`;

  it('places each candidate at the opening quote of its value, columns in UTF-16 code units', () => {
    expectAtQuotes(layout, extractAndroidXml(layout));
    expect(at(extractAndroidXml(layout))).toEqual([
      '6:24 android:text=Multi line',
      '8:22 android:hint=x\ny\tz',
      '9:26 android:text=😀 after 😀',
      '9:67 android:contentDescription=Play',
    ]);
  });

  it('counts CR LF and CR each as one line end, and NEL, LS and PS too in an XML 1.1 document', () => {
    const expected = at(extractAndroidXml(layout));
    expect(at(extractAndroidXml(layout.replace(/\n/gu, '\r\n')))).toEqual(expected);
    expect(at(extractAndroidXml(layout.replace(/\n/gu, '\r')))).toEqual(expected);
    // U+2028 ends a line only in an XML 1.1 document; in 1.0 (every Android layout) it is a character, as git counts.
    expect(at(extractAndroidXml(layout.replace('version="1.0"', 'version="1.1"').replace(/\n(?= {4}<Button)/u, '\u2028')))).toEqual(expected);
    // In 1.0 the Button sits on line 8, after that line's text and the U+2028 (one UTF-16 unit).
    const shift = layout.split('\n')[7]!.length + 1;
    expect(at(extractAndroidXml(layout.replace(/\n(?= {4}<Button)/u, '\u2028')))).toEqual(expected.map((e) => e.replace(/^9:(\d+)/u, (_, c: string) => `8:${Number(c) + shift}`)));
  });

  it('maps the legacy apk/res/<package> namespace to app:, keeps other names as written, skips tools:', () => {
    const xml = `<a xmlns:x="http://schemas.android.com/apk/res/com.example" xmlns:t="http://schemas.android.com/tools" x:title="Legacy" text="plain" t:text="design" />`;
    const e = extractAndroidXml(xml, { attributes: ['app:title', 'text', 'tools:text', 't:text'] });
    expectAtQuotes(xml, e);
    expect(at(e)).toEqual(['1:112 app:title=Legacy', '1:126 text=plain']);
  });

  it('suppresses below tools:ignore="all" or a list naming HardcodedText, not other lint ids', () => {
    const xml = `<a ${NS}><b tools:ignore="all"><c android:text="One"/></b><b tools:ignore=" UnusedIds , HardcodedText"><c android:text="Two"/></b><b tools:ignore="UnusedIds"><c android:text="Three"/></b></a>`;
    expect(extractAndroidXml(xml).candidates.map((c) => `${c.literal} ${c.suppressedBy !== undefined}`)).toEqual(['One true', 'Two true', 'Three false']);
  });

  it('skips a leading byte order mark (it still counts as a column: the gate strips it before)', () => {
    const xml = `\uFEFF<a ${NS} android:text="Hi"/>`;
    expectAtQuotes(xml, extractAndroidXml(xml));
    expect(at(extractAndroidXml(xml))).toEqual(['1:176 android:text=Hi']);
  });
});

describe('Android XML on saxes: directive ranges', () => {
  it('a leading directive covers the next element start tag up to its last attribute value, skipping comments', () => {
    const xml = `<a ${NS}>
  <!-- loopgates-ignore hardcoded-strings: one -->
  <!-- an ordinary comment -->
  <!--loopgates-ignore hardcoded-strings: two
  lines -->
  <TextView
      android:id="@+id/x"

      android:text="Brand" />
</a>`;
    expect(extractAndroidXml(xml).directives.map((d) => [d.line, d.column, d.reason, d.ranges])).toEqual([
      [2, 3, 'one', [[2, 2], [6, 9]]],
      [4, 3, 'two lines', [[4, 5], [6, 9]]],
    ]);
  });

  it('covers the line after the comment when text, CDATA, a processing instruction or the end of the parent follows', () => {
    const xml = `<a ${NS}>
 <!-- loopgates-ignore hardcoded-strings: c -->
 <![CDATA[ ]]><b/>
 <!-- loopgates-ignore hardcoded-strings: p -->
 <?pi x?><b/>
 <!-- loopgates-ignore hardcoded-strings: t -->
 text <b/>
 <!-- loopgates-ignore hardcoded-strings: e -->
</a>
<!-- loopgates-ignore hardcoded-strings: end -->`;
    expect(extractAndroidXml(xml).directives.map((d) => [d.line, d.ranges])).toEqual([
      [2, [[2, 2], [3, 3]]],
      [4, [[4, 4], [5, 5]]],
      [6, [[6, 6], [7, 7]]],
      [8, [[8, 8], [9, 9]]],
      [10, [[10, 10], [11, 11]]],
    ]);
  });

  it('a whitespace character reference between comment and element is whitespace', () => {
    const xml = `<a ${NS}>\n <!-- loopgates-ignore hardcoded-strings: e -->&#32;<b android:text="B"/></a>`;
    expect(extractAndroidXml(xml).directives[0]?.ranges).toEqual([[2, 2], [2, 2]]);
  });
});

describe('Android XML on saxes: malformed input is fatal at a 1-based position', () => {
  it('names a duplicate attribute as xmldom did, at the start tag', () => {
    const e = extractAndroidXml(`<LinearLayout ${NS}>\n  <TextView android:text="a" android:text="b" />\n</LinearLayout>`);
    expect(e.fatal).toEqual({ line: 2, column: 3, message: 'Attribute android:text redefined' });
    expect(e.candidates).toEqual([]);
    expect(e.directives).toEqual([]);
  });

  it('finds an unescaped & where it is, not where saxes noticed it (new with saxes: xmldom read it as text)', () => {
    const inAttribute = extractAndroidXml(`<a ${NS}>\n  <b android:text="Tom & Jerry"/>\n  <c android:text="x;"/>\n</a>\n`);
    expect(inAttribute.fatal).toEqual({ line: 2, column: 24, message: '"&" starts no entity or character reference (write &amp;)' });
    expect(extractAndroidXml(`<a>\n  x &amp y\n</a>`).fatal).toMatchObject({ line: 2, column: 5 });
    // An & inside a comment is text, and an unclosed comment is not blamed on it.
    expect(extractAndroidXml(`<a>\n  <!-- Tom & Jerry -->\n</a>`).fatal).toBeUndefined();
    expect(extractAndroidXml(`<a>\n  <!-- Tom & Jerry\n</a>`).fatal?.message).not.toMatch(/&/u);
  });

  it('reports mismatched (at the end tag) and unclosed tags, unquoted values and undefined entities (the last two new with saxes)', () => {
    expect(extractAndroidXml('<LinearLayout>\n  <TextView>\n</LinearLayout>\n').fatal).toEqual({ line: 3, column: 1, message: 'Opening and ending tag mismatch: "TextView" != "LinearLayout"' });
    expect(extractAndroidXml('<a>\n  <b>').fatal).toMatchObject({ line: 2, message: 'unclosed tag: b' });
    expect(extractAndroidXml('<a b=c/>').fatal).toEqual({ line: 1, column: 6, message: 'unquoted attribute value.' });
    expect(extractAndroidXml('<a>&nbsp;</a>').fatal).toEqual({ line: 1, column: 9, message: 'undefined entity.' });
    expect(extractAndroidXml('').fatal).toMatchObject({ line: 1, column: 1 });
    expect(extractAndroidXml(`<a ${NS}><x:b/></a>`).fatal?.message).toMatch(/unbound namespace prefix/u);
  });
});
