// Gate.stagedPatterns must over-approximate what a gate can read: a staged path the gate's selection keeps, that no
// pattern matches, would be a commit the stored hook passes without node (core/hook-plan.ts). Property tests over
// generated repository paths, with sh `case` semantics (`*` and `?` match `/` too).
import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { globToCase } from '../../gates/command/index.js';
import { hardcodedStringsGate, languageOf } from '../../gates/hardcoded-strings/index.js';
import { mightBeCatalog } from '../../gates/string-parity/defaults.js';
import { stringParityGate } from '../../gates/string-parity/index.js';
import { maestroFlowsGate } from '../../gates/maestro-flows/index.js';
import { selectFlowPaths } from '../../gates/maestro-flows/discovery.js';

/** Whether sh's `case "$path" in $pattern)` matches (the subset the plan uses: `*`, `?`, `[…]`, literals). */
function caseMatches(pattern: string, path: string): boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') re += '[^]*';
    else if (c === '?') re += '[^]';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        const body = pattern.slice(i + 1, end);
        re += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'u').test(path);
}

const segment = fc.constantFrom('app', 'src', 'main', 'res', 'values', 'values-de', 'values-b+sr+Latn', 'layout', 'en.lproj', 'Base.lproj', 'de.lproj', 'locales', 'l10n', 'lib', '.hidden', 'a b', 'x.y');
const file = fc.tuple(fc.constantFrom('strings', 'Main', 'Localizable', 'messages', 'app_de', 'README', 'index', '.env', 'x'), fc.constantFrom('.xml', '.kt', '.KT', '.Kt', '.java', '.swift', '.tsx', '.jsx', '.js', '.JS', '.ts', '.json', '.po', '.pot', '.arb', '.xcstrings', '.strings', '.stringsdict', '.md', '', '.txt', '.XML')).map(([n, e]) => `${n}${e}`);
const path = fc.tuple(fc.array(segment, { maxLength: 5 }), file).map(([dirs, f]) => [...dirs, f].join('/'));

describe('stagedPatterns cover every path the gate can read', () => {
  it('hardcoded-strings: every path with an extractor (languageOf, any case) matches a pattern', () => {
    const patterns = hardcodedStringsGate.stagedPatterns!(undefined as never);
    fc.assert(fc.property(path, (p) => !languageOf(p) || patterns.some((pat) => caseMatches(pat, p))), { numRuns: 3000 });
    expect(patterns.some((pat) => caseMatches(pat, 'app/Main.KT'))).toBe(true);
    expect(patterns.some((pat) => caseMatches(pat, 'README.md'))).toBe(false);
  });

  it('string-parity: every catalog-shaped path (mightBeCatalog) matches a pattern', () => {
    const patterns = stringParityGate.stagedPatterns!(undefined as never);
    fc.assert(fc.property(path, (p) => !mightBeCatalog(p) || patterns.some((pat) => caseMatches(pat, p))), { numRuns: 3000 });
    expect(patterns.some((pat) => caseMatches(pat, 'res/values-de/strings.xml'))).toBe(true);
    expect(patterns.some((pat) => caseMatches(pat, 'docs/guide.md'))).toBe(false);
  });

  it('maestro-flows: every path a flows glob of any shape selects (YAML) matches; a deletion of any path is node\'s', () => {
    const patterns = maestroFlowsGate.stagedPatterns!(undefined as never);
    const yamlish = fc.tuple(fc.array(fc.constantFrom('.maestro', 'e2e', 'flows', 'subflows', '.github', 'workflows', 'a b'), { maxLength: 4 }), fc.constantFrom('login', 'config', 'x'), fc.constantFrom('.yaml', '.yml', '.YAML', '.Yml', '.json', '.md', '.sh', ''));
    const anyFlow = { flows: ['**/*', '**'], exclude: [] as string[] };
    fc.assert(fc.property(fc.oneof(path, yamlish.map(([d, n, e]) => [...d, `${n}${e}`].join('/'))), (p) => selectFlowPaths([p], anyFlow).selected.length === 0 || patterns.some((pat) => caseMatches(pat, p))), { numRuns: 3000 });
    for (const ci of ['.github/workflows/e2e.yml', '.gitlab-ci.yml', 'bitrise.yaml', 'scripts/run-maestro-tests.sh', 'ci/Maestro.sh']) expect(patterns.some((pat) => caseMatches(pat, ci)), ci).toBe(true);
    expect(patterns.some((pat) => caseMatches(pat, 'README.md'))).toBe(false);
    expect(maestroFlowsGate.deletedPatterns!(undefined as never)).toStrictEqual(['*']);
  });

  it('command gates: whatever picomatch matches (dot: true), the converted glob matches; odd globs become *', () => {
    const globs = ['**/res/**/*.xml', 'src/**', '*.kt', 'app/src/main/?.txt', '**/*', 'lib/**/*.dart', '{a,b}/*.js', '!x', 'src/@(a|b).ts', 'a\\*b', '[ab]/*.md'];
    for (const g of globs) {
      const m = picomatch(g, { dot: true });
      const c = globToCase(g);
      fc.assert(fc.property(path, (p) => !m(p) || caseMatches(c, p)), { numRuns: 1000 });
    }
    expect(globToCase('{a,b}/*.js')).toBe('*');
    expect(globToCase('**/res/**/*.xml')).toBe('*res*.xml');
    expect(globToCase('src/**')).toBe('src*');
  });
});
