// Path handling at the two boundaries: -z output, display quoting, URIs, workflow-command escaping, GIT_* resolution.
import { describe, expect, it } from 'vitest';
import { gitEnv, splitZ } from '../../core/git.js';
import { displayPath, escapeData, escapeProperty, sarifUri } from '../../core/report.js';
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
});
