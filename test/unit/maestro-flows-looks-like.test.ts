import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { looksLikeFlow } from '../../gates/maestro-flows/elsewhere.js';
import { corpusRoot, requireCorpusDir, l10nCorpus } from '../helpers/corpus.js';

function yamlUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) => /\.ya?ml$/i.test(p)).map((p) => join(dir, p));
}

describe('looksLikeFlow: a Maestro flow outside .maestro/ is recognised by its text', () => {
  it('every corpus flow (118) reads as one; the 2 workspace config files and the l10n YAML do not', () => {
    const maestro = requireCorpusDir(resolve(corpusRoot, 'maestro'));
    const all = yamlUnder(maestro);
    const not = all.filter((f) => !looksLikeFlow(readFileSync(f, 'utf8'))).map((f) => relative(maestro, f)).sort();
    expect(all.length - not.length).toBe(118);
    expect(not).toEqual(['RocketChat__Rocket.Chat.ReactNative/.maestro/config.yml', 'duckduckgo__Android/.maestro/config.yaml']);
    expect(yamlUnder(l10nCorpus).filter((f) => looksLikeFlow(readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('near misses: an appId with no commands, a CI workflow, a multi-document Kubernetes file', () => {
    expect(looksLikeFlow('appId: com.example\n---\n')).toBe(false);
    expect(looksLikeFlow('on: push\njobs:\n  t:\n    steps:\n      - run: echo\n')).toBe(false);
    expect(looksLikeFlow('apiVersion: v1\nkind: Service\n---\n- name: x\n')).toBe(false);
    expect(looksLikeFlow('appId: com.example\n---\n- launchApp\n')).toBe(true);
  });
});
