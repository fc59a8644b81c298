// Maestro flows outside .maestro/ (fresh4 F1: mattermost-mobile keeps them under detox/maestro/): install and doctor
// name them and the `flows` globs that take them in, instead of "no input in this repository".
import { describe, expect, it } from 'vitest';
import { assertBuilt, withSandbox } from './install-support.js';

const FLOW = 'appId: ${MAESTRO_APP_ID}\n---\n- launchApp\n- tapOn: "Sign in"\n- assertVisible: "Welcome"\n';
const SUBFLOW = 'appId: ${MAESTRO_APP_ID}\n---\n- retry:\n    maxRetries: 2\n    commands:\n      - tapOn: "OK"\n';
const PKG = JSON.stringify({ name: 'app', version: '1.0.0' });
const FILES = {
  'package.json': PKG,
  'e2e/maestro/flows/login.yml': FLOW,
  'e2e/maestro/flows/settings/about.yaml': FLOW,
  'e2e/maestro/subflows/ok.yml': SUBFLOW,
  'e2e/maestro/config/tags.yml': 'tags:\n  - smoke\n', // YAML that is no flow: the glob must not take it in
  '.github/workflows/ci.yml': 'on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n',
};
const FLOWS = '["**/.maestro/**/*.yaml", "**/.maestro/**/*.yml", "e2e/maestro/flows/**/*.yaml", "e2e/maestro/flows/**/*.yml", "e2e/maestro/subflows/**/*.yaml", "e2e/maestro/subflows/**/*.yml"]';
const FIX = `add to loopgates.yaml: gates.maestro-flows.flows: ${FLOWS}`;

describe('maestro-flows: flows the default discovery does not select', () => {
  // fresh-user 2026-12-04 F6: install printed the fix and wrote allowEmpty instead, so doctor was red right after
  // install and run --all skipped the gate while its flows went unjudged. Now install writes the flows it names.
  it('install writes the flows globs that take the 3 flows in: doctor is healthy on them and run --all judges them', async () => {
    assertBuilt();
    await withSandbox(FILES, async (s) => {
      const i = await s.cli(['install', '--no-proof']);
      expect(i.code).toBe(0);
      expect(i.stdout).toContain(`taken in: maestro-flows: 3 tracked files outside its default selection (e2e/maestro/flows/login.yml, e2e/maestro/flows/settings/about.yaml, e2e/maestro/subflows/ok.yml): wrote gates.maestro-flows.flows: ${FLOWS}`);
      expect(i.stdout).not.toContain('not judged');
      expect(s.repo.read('loopgates.yaml')).toMatch(new RegExp(`^ {2}maestro-flows:\n(?: {4}#.*\n)* {4}enabled: true\n {4}flows: ${FLOWS.replace(/[[\]*.]/g, '\\$&')}\n`, 'm'));
      expect(s.repo.read('loopgates.yaml')).not.toMatch(/maestro-flows:\n(?: {4}.*\n)* {4}allowEmpty/);
      const d = await s.cli(['doctor']);
      expect(d.stdout).not.toContain('look like its inputs');
      const r = await s.cli(['run', '--all', '--gate', 'maestro-flows']);
      expect(r.stdout).toMatch(/maestro-flows\s+(?:pass|fail)\b.*\b3 (?:flows|inputs|files)/);
    });
  });

  it('doctor names flows a hand-written selection leaves out, with the globs that take them in', async () => {
    assertBuilt();
    await withSandbox({ ...FILES, 'loopgates.yaml': 'version: 1\ngates:\n  maestro-flows: {allowEmpty: "none yet"}\n' }, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const d = await s.cli(['doctor']);
      expect(d.stdout).toContain('PROBLEM  maestro-flows: 3 tracked files look like its inputs');
      expect(d.stdout).toContain(`fix: ${FIX}`);
      expect(d.code).toBe(2);
    });
  });

  it('green: flows under .maestro/ only: no such line', async () => {
    assertBuilt();
    await withSandbox({ 'package.json': PKG, '.maestro/login.yaml': FLOW, 'e2e/config/tags.yml': 'tags: [a]\n' }, async (s) => {
      const i = await s.cli(['install', '--no-proof']);
      expect(i.code).toBe(0);
      expect(i.stdout).not.toContain('not judged');
      expect((await s.cli(['doctor'])).stdout).not.toContain('look like its inputs');
    });
  });
});
