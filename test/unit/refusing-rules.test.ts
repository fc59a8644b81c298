// Gate.refusingRules: the rules that can refuse a commit under a config, which `loopgates mutate` names as not
// exercised when no mutant targeted them (fresh-user-3 F14). Severities come from each gate's own rules table.
import { describe, expect, it } from 'vitest';
import { builtinGates } from '../../gates/registry.js';

const gate = (id: string) => builtinGates.find((g) => g.id === id)!;
const rulesOf = (id: string, options: Record<string, unknown> = {}) => [...gate(id).refusingRules!(gate(id).configSchema.parse(options))].sort();

describe('refusingRules', () => {
  it('string-parity: the error rules, coverage-below-floor only with a minCoverage, and a rule turned off is left out', () => {
    expect(rulesOf('string-parity')).not.toContain('coverage-below-floor');
    expect(rulesOf('string-parity')).toContain('markup-mismatch');
    expect(rulesOf('string-parity')).not.toContain('extra-key');
    expect(rulesOf('string-parity', { minCoverage: 80 })).toContain('coverage-below-floor');
    expect(rulesOf('string-parity', { rules: { 'markup-mismatch': 'off', 'extra-key': 'error' } })).toEqual(expect.arrayContaining(['extra-key']));
    expect(rulesOf('string-parity', { rules: { 'markup-mismatch': 'off' } })).not.toContain('markup-mismatch');
  });
  it('hardcoded-strings: its four rules', () => {
    expect(rulesOf('hardcoded-strings')).toEqual(['hardcoded-text', 'missing-catalog-key', 'suppression-without-reason', 'unparsable']);
  });
  it('maestro-flows: error rules by default (not regex-selector, cold-start), as configured', () => {
    expect(rulesOf('maestro-flows')).toEqual(['blind-retap', 'invalid-flow', 'missing-file', 'point-tap', 'retry-bound', 'tap-without-check', 'unbounded-repeat']);
    expect(rulesOf('maestro-flows', { rules: { 'cold-start': 'error', 'point-tap': 'warning' } })).toEqual(['blind-retap', 'cold-start', 'invalid-flow', 'missing-file', 'retry-bound', 'tap-without-check', 'unbounded-repeat']);
  });
  it('dump-audit: text-not-in-catalog only with catalogText: error', () => {
    expect(rulesOf('dump-audit')).toEqual(['ambiguous-label', 'unlabeled-control', 'unparsable-dump', 'zero-area-control']);
    expect(rulesOf('dump-audit', { catalogText: 'error' })).toContain('text-not-in-catalog');
  });
  it('secrets declares none (its rules are gitleaks rule ids, hundreds): mutate lists nothing for it', () => {
    expect(gate('secrets').refusingRules).toBeUndefined();
  });
});
