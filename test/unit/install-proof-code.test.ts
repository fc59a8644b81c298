// commands/install/proof.ts refusalCode: git reports any refusing pre-commit hook as exit 1; install's proving lines
// say the hook's own code, read from the hook's last "(exit N)" (fresh-user-4 F9: "clean commit was REFUSED (exit 1)"
// above an inner report that said exit 2).
import { describe, expect, it } from 'vitest';
import { refusalCode } from '../../commands/install/proof.js';

const commit = (output: string) => ({ exitCode: 1, landed: false, output, durationMs: 1 });

describe('refusalCode', () => {
  it('names the code of the report that refused, not git\'s 1', () => {
    expect(refusalCode(commit('loopgates 0.1.0\n  secrets  error  gitleaks was not found on PATH\n0 pass · 1 error — commit refused (exit 2)\n'))).toBe('exit 2');
  });
  it('takes the last code: the chained previous hook\'s line comes after loopgates\' own report', () => {
    expect(refusalCode(commit('1 pass · 4 skip — commit allowed (exit 0)\nloopgates: the previous pre-commit hook (.git/hooks/pre-commit.loopgates-previous) refused the commit (exit 5)\n'))).toBe('exit 5');
  });
  it('a hook-script refusal (no report) exits 2', () => {
    expect(refusalCode(commit('loopgates: commit refused: node was not found on PATH (/usr/bin)\n  fix: install Node.js 20\n'))).toBe('exit 2');
  });
  it('without a code in the output, says it is git\'s', () => {
    expect(refusalCode(commit('some other hook said no\n'))).toBe('git exit 1');
  });
});
