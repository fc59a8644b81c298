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

  // fresh4 F1 in run --all: mattermost-mobile's 40 flows under detox/maestro/ were skipped as "no Maestro flows".
  it('default discovery, flows outside .maestro/: the skip names them and the flows globs that take them in', async () => {
    const flow = 'appId: ${MAESTRO_APP_ID}\n---\n- launchApp\n- tapOn: "Sign in"\n- assertVisible: "Welcome"\n';
    const files = { 'README.md': '# app\n', 'detox/maestro/login.yaml': flow, 'detox/maestro/settings/about.yaml': flow, 'detox/maestro/config.yml': 'flows:\n  - "*"\n' };
    const r = await runVerbInRepo(files, ['run', '--all', '--gate', 'maestro-flows']);
    expect(r.stdout).toMatch(/maestro-flows\s+skip .*— no inputs: 2 tracked files look like its inputs but its selection leaves them out \(detox\/maestro\/login\.yaml, detox\/maestro\/settings\/about\.yaml\): commits to them are never judged$/m);
    expect(r.stdout).toContain('  warning: add to loopgates.yaml: gates.maestro-flows.flows: ["**/.maestro/**/*.yaml", "**/.maestro/**/*.yml", "detox/maestro/login.yaml", "detox/maestro/settings/**/*.yaml", "detox/maestro/settings/**/*.yml"]');
    expect(r.stdout).not.toContain('no Maestro flows (.maestro/) in this repository');
    expect(r.exit).toBe(0);
  });

  it('own flows globs that match nothing: vacuous, exit 2', async () => {
    const r = await runVerbInRepo({ 'README.md': '# app\n', 'loopgates.yaml': 'version: 1\ngates:\n  maestro-flows:\n    flows: ["e2e/**/*.yaml"]\n' }, ['run', '--all', '--gate', 'maestro-flows']);
    expect(r.stdout).toMatch(/maestro-flows\s+vacuous/);
    expect(r.exit).toBe(2);
  });
});
