// The fix line of a secrets finding names the command that lists it in .gitleaksignore; pasted into sh it must
// write the entry gitleaks' fingerprint needs, byte for byte, for any file name: one that is not UTF-8 (latin-1
// `caf\xe9.txt`), one with a quote, `%`, `$`, a backslash and spaces. Real git, real gitleaks, the built CLI; the
// printed command is run through `sh -c` and the next run must pass with the finding listed as ignored.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodePath, pathBytes } from '../../core/paths.js';
import { fakeGithubToken } from '../../gates/secrets/credentials.js';
import { withSandbox } from './install-support.js';
import { ownTmpdir } from '../helpers/own-tmpdir.js';

ownTmpdir('loopgates-ignore-cmd-');
const YAML = 'version: 1\ngates:\n  secrets: {}\n  hardcoded-strings: {enabled: false}\n  string-parity: {enabled: false}\n';

const names: Array<[string, Buffer]> = [
  ['latin-1 (not UTF-8)', Buffer.from('caf\xe9.txt', 'latin1')],
  ["quote, %, $, backslash, spaces", Buffer.from("it's 100% $HOME \\n `x`.txt", 'utf8')],
];

describe('secrets: the printed .gitleaksignore command works when pasted into sh', () => {
  for (const [what, name] of names) {
    it(`${what}: sh -c of the fix line writes the entry; the next run passes`, async () => {
      const tok = fakeGithubToken();
      await withSandbox({ 'loopgates.yaml': YAML, 'README.md': 'x\n' }, async (s) => {
        writeFileSync(Buffer.concat([Buffer.from(`${s.repo.dir}/`, 'utf8'), name]), `TOKEN=${tok.value}\n`);
        const r = await s.cli(['run', '--all', '--gate', 'secrets', '--format', 'json']);
        expect(r.code).toBe(1);
        const [f] = JSON.parse(r.stdout).results[0].findings as Array<{ file: string; line: number; rule: string; message: string }>;
        expect([f!.file, f!.line, f!.rule]).toEqual([decodePath(name), 1, 'github-pat']);
        const cmd = /printf '[^']*' >> \.gitleaksignore/.exec(f!.message)?.[0];
        expect(cmd).toBeDefined();
        execFileSync('sh', ['-c', cmd!], { cwd: s.repo.dir });
        expect(readFileSync(join(s.repo.dir, '.gitleaksignore'))).toEqual(Buffer.concat([pathBytes(decodePath(name)), Buffer.from(':github-pat:1\n')]));
        const again = await s.cli(['run', '--all', '--gate', 'secrets', '--format', 'json']);
        expect(again.code).toBe(0);
        expect(JSON.parse(again.stdout).results[0].findings).toEqual([]);
      });
    });
  }
});
