// A repository without Maestro flows: with the default discovery maestro-flows is a skip that says why (run --all stays
// green, as dump-audit does); globs of the team's own that find nothing stay vacuous (exit 2).
import { describe, expect, it } from 'vitest';
import { runVerbInRepo } from '../helpers/cli.js';

describe('maestro-flows with no flow in the repository', () => {
  it('default discovery: skip, allowed with the reason, exit 0', async () => {
    const r = await runVerbInRepo({ 'README.md': '# app\n' }, ['run', '--all', '--gate', 'maestro-flows']);
    expect(r.stdout).toMatch(/maestro-flows\s+skip .*allowed by allowEmpty: no Maestro flows \(\.maestro\/\) in this repository/);
    expect(r.exit).toBe(0);
  });

  it('own flows globs that match nothing: vacuous, exit 2', async () => {
    const r = await runVerbInRepo({ 'README.md': '# app\n', 'loopgates.yaml': 'version: 1\ngates:\n  maestro-flows:\n    flows: ["e2e/**/*.yaml"]\n' }, ['run', '--all', '--gate', 'maestro-flows']);
    expect(r.stdout).toMatch(/maestro-flows\s+vacuous/);
    expect(r.exit).toBe(2);
  });
});
