// Path handling at the two boundaries: -z output, display quoting, URIs, workflow-command escaping, GIT_* resolution.
import { describe, expect, it } from 'vitest';
import { gitEnv, splitZ } from '../../core/git.js';
import { decodePath, hasRawBytes, pathBytes, shownPath } from '../../core/paths.js';
import { displayPath, escapeData, escapeProperty, formatReport, sarifUri, type RunReport } from '../../core/report.js';
import { normalisePathOn } from '../../core/workspace.js';

describe('paths', () => {
  const odd = ['sp ace.txt', 'new\nline.txt', 'ünïcödé/日本.txt', '-x y.kt', 'tab\there', 'a"b'];

  it('splitZ keeps every byte of a path, including newlines and a leading dash', () => {
    expect(splitZ(Buffer.from(`${odd.join('\0')}\0`, 'utf8'))).toEqual(odd);
    expect(splitZ('')).toEqual([]);
  });

  it('displayPath quotes only what would break a line', () => {
    expect(odd.map(displayPath)).toEqual(['sp ace.txt', '"new\\nline.txt"', 'ünïcödé/日本.txt', '-x y.kt', '"tab\\there"', '"a\\"b"']);
    expect(displayPath(' lead')).toBe('" lead"');
  });

  it('sarifUri percent-encodes each segment and keeps the slashes', () => {
    expect(sarifUri('a b/c#d/-x y.kt')).toBe('a%20b/c%23d/-x%20y.kt');
    expect(sarifUri('ü/日.txt')).toBe('%C3%BC/%E6%97%A5.txt');
  });

  it('workflow-command escaping', () => {
    expect(escapeData('50%\r\nx')).toBe('50%25%0D%0Ax');
    expect(escapeProperty('a,b:c')).toBe('a%2Cb%3Ac');
  });

  it('normalisePath: backslashes are separators only on Windows', () => {
    expect(normalisePathOn('./a\\b/c', 'win32')).toBe('a/b/c');
    expect(normalisePathOn('./a\\b/c', 'linux')).toBe('a\\b/c');
    expect(normalisePathOn('././x.kt', 'linux')).toBe('x.kt');
  });

  it('gitEnv: GIT_DIR against the cwd, GIT_INDEX_FILE against the top level, absolute ones untouched', () => {
    expect(gitEnv({ GIT_DIR: '../.git', GIT_INDEX_FILE: '.git/next-index-1.lock', HOME: '/h' }, '/r/sub', '/r')).toEqual({ GIT_DIR: '/r/.git', GIT_INDEX_FILE: '/r/.git/next-index-1.lock' });
    expect(gitEnv({ GIT_INDEX_FILE: '/abs/index' }, '/r')).toEqual({ GIT_INDEX_FILE: '/abs/index' });
    expect(gitEnv({ GIT_INDEX_FILE: '' }, '/r')).toEqual({});
  });

  it('an emoji is a character, not an escaped byte: the low half of its pair is in U+DC80..U+DCFF (fresh6 F-NIT-1)', () => {
    // U+1F4A5 is D83D DCA5 in UTF-16; DCA5 was taken for the escaped byte 0xA5 and shown as `\245` after a U+FFFD.
    const name = 'ui/Crash 💥.kt';
    expect(hasRawBytes(name)).toBe(false);
    expect(pathBytes(name).equals(Buffer.from(name, 'utf8'))).toBe(true);
    expect(shownPath(name)).toBe(name);
    expect(displayPath(name)).toBe(name);
    // An emoji beside a real latin-1 byte: only the byte is escaped, and the bytes round-trip.
    const mixed = Buffer.concat([Buffer.from('💥caf', 'utf8'), Buffer.from([0xe9]), Buffer.from('.kt💥', 'utf8')]);
    const decoded = decodePath(mixed);
    expect(hasRawBytes(decoded)).toBe(true);
    expect(pathBytes(decoded).equals(mixed)).toBe(true);
    expect(shownPath(decoded)).toBe('"💥caf\\351.kt💥"');
    // A finding's message with the emoji at its end, in the text and github formats (both escape raw bytes).
    const report: RunReport = {
      version: '0.1.0',
      mode: 'all',
      root: '/r',
      targets: 1,
      exitCode: 1,
      notes: [],
      results: [
        {
          gate: 'hardcoded-strings',
          title: 'Hard-coded strings',
          verdict: 'fail',
          counts: { files: 1, items: 1, filtered: 0, suppressed: 0, findings: 1 },
          itemUnit: 'strings',
          findings: [{ gate: 'hardcoded-strings', rule: 'hardcoded-text', file: name, line: 1, column: 6, message: 'hard-coded text "Crash the app 💥" in Text()', severity: 'error', fingerprint: 'f' }],
          notes: [],
          durationMs: 1,
        },
      ],
    };
    for (const format of ['text', 'github'] as const) {
      const out = formatReport(report, format);
      expect(out, format).toContain('hard-coded text "Crash the app 💥" in Text()');
      expect(out, format).not.toMatch(/\ufffd|\\245/u);
    }
  });
});
