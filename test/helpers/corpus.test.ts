// test/helpers/corpus.ts: LOOPGATES_CORPUS reaches every corpus path, and a missing corpus fails loudly (never a skip).
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { corpusRoot, l10nCorpus, l10nProject } from './corpus.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('test corpus location', () => {
  it('LOOPGATES_CORPUS decides where every corpus path points, made absolute', async () => {
    const here = resolve(import.meta.dirname, '..', '..', '..', 'shared', 'corpus');
    vi.stubEnv('LOOPGATES_CORPUS', corpusRoot);
    vi.resetModules();
    const m = await import('./corpus.js');
    expect(m.corpusRoot).toBe(corpusRoot);
    expect(m.l10nCorpus).toBe(resolve(corpusRoot, 'l10n'));
    expect(m.l10nProject('AntennaPod__AntennaPod')).toBe(resolve(corpusRoot, 'l10n', 'AntennaPod__AntennaPod'));
    // Without it: ../shared/corpus beside the checkout (as this run, unless LOOPGATES_CORPUS was set for it).
    if (process.env.LOOPGATES_CORPUS === undefined) expect(corpusRoot).toBe(here);
  });

  it('a LOOPGATES_CORPUS that does not exist fails the importing test file, naming the variable and the path', async () => {
    vi.stubEnv('LOOPGATES_CORPUS', '/nonexistent/corpus');
    vi.resetModules();
    await expect(import('./corpus.js')).rejects.toThrow(
      'the test corpus folder /nonexistent/corpus/l10n does not exist (looked for from LOOPGATES_CORPUS=/nonexistent/corpus): set LOOPGATES_CORPUS=/path/to/shared/corpus',
    );
  });

  it('a corpus project that is not there throws instead of being filtered out', () => {
    expect(() => l10nProject('no__such-project')).toThrow(`the test corpus folder ${resolve(l10nCorpus, 'no__such-project')} does not exist`);
    expect(() => l10nProject('no__such-project')).toThrow('LOOPGATES_CORPUS');
  });
});
