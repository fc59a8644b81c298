import { describe, expect, it } from 'vitest';
import { withBlock, withoutBlock } from '../../commands/install/render.js';

describe('the loopgates block in a tracked hook file', () => {
  it('a comment that names the end marker does not end the block: install twice keeps one whole block', () => {
    const user = '#!/bin/sh\necho husky-ran\nexit 0\n';
    const once = withBlock(user);
    const twice = withBlock(once);
    expect(twice).toBe(once);
    expect(twice.split('# >>> loopgates').length - 1).toBe(1);
    expect(twice.endsWith('# <<< loopgates\nexit 0\n')).toBe(true);
    expect(withoutBlock(twice)).toBe(user);
  });

  it('an end marker only inside a comment is no block end: the text is left as it is', () => {
    const text = '#!/bin/sh\n# >>> loopgates: delete through "# <<< loopgates"\nsh hook\n';
    expect(withoutBlock(text)).toBe(text);
  });
});
