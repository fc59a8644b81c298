// The fix a missing gitleaks names (fresh-user-3 F9): the copy the README's set-up put in this loopgates checkout,
// when there is one, else how to install gitleaks.
import { delimiter } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GITLEAKS_FIX, resolveGitleaks } from '../../gates/secrets/gitleaks.js';
import { ToolMissingError } from '../../core/errors.js';

const noGitleaks = { PATH: '/nonexistent-loopgates-a' + delimiter + '/nonexistent-loopgates-b' };

function fixOf(own: string | undefined): string {
  try {
    resolveGitleaks(noGitleaks, () => own);
  } catch (err) {
    expect(err).toBeInstanceOf(ToolMissingError);
    expect((err as ToolMissingError).message).toBe('gitleaks was not found on PATH');
    return (err as ToolMissingError).fix;
  }
  throw new Error('resolveGitleaks found a gitleaks on a PATH of missing folders');
}

describe('missing gitleaks: the fix', () => {
  it('names the checkout copy and the export line that puts it on PATH', () => {
    const fix = fixOf('/home/dev/loopgates/.tools/gitleaks/usr/bin/gitleaks');
    expect(fix).toContain('/home/dev/loopgates/.tools/gitleaks/usr/bin/gitleaks');
    expect(fix).toContain(`export PATH=/home/dev/loopgates/.tools/gitleaks/usr/bin${delimiter}$PATH`);
    expect(fix).toContain('LOOPGATES_GITLEAKS=/home/dev/loopgates/.tools/gitleaks/usr/bin/gitleaks');
  });

  it('without a checkout copy it is the install hint', () => {
    expect(fixOf(undefined)).toBe(GITLEAKS_FIX);
  });
});
