import { describe, expect, it } from 'vitest';
import { treeWorkspace } from '../../core/snapshot.js';
import { overlayWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import { stringParityGate } from '../../gates/string-parity/index.js';
import { l10nCorpus } from '../helpers/corpus.js';

const seeded = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

const cases: Array<[string, string, string]> = [
  ['string-parity/delete-placeholder', 'AntennaPod__AntennaPod', 'ui/i18n/src/main/res/values-de/strings.xml'],
  ['string-parity/change-specifier-type', 'AntennaPod__AntennaPod', 'ui/i18n/src/main/res/values-de/strings.xml'],
  ['string-parity/drop-plural-category', 'AntennaPod__AntennaPod', 'ui/i18n/src/main/res/values-pl/strings.xml'],
  ['string-parity/delete-placeholder', 'mastodon__mastodon-ios', 'MastodonSDK/Sources/MastodonLocalization/Resources/de.lproj/Localizable.strings'],
  ['string-parity/change-specifier-type', 'mastodon__mastodon-ios', 'MastodonSDK/Sources/MastodonLocalization/Resources/de.lproj/Localizable.strings'],
  ['string-parity/delete-placeholder', 'lichess-org__mobile', 'lib/l10n/app_de.arb'],
  ['string-parity/drop-plural-category', 'lichess-org__mobile', 'lib/l10n/app_pl.arb'],
];

describe('string-parity mutation operators on real translations', () => {
  for (const [id, project, path] of cases) {
    it(`${id} on ${project} ${path} is killed at the mutant's line`, async () => {
      const op = stringParityGate.mutations.find((m) => m.id === id)!;
      expect(op.appliesTo(path)).toBe(true);
      const ws = await treeWorkspace(`${l10nCorpus}/${project}`, 'all');
      const content = await ws.readText(path);
      const killedAt: number[] = [];
      for (const seed of [1, 2, 3]) {
        const m = op.mutate(path, content, seeded(seed));
        expect(m).not.toBeNull();
        expect(m!.content).not.toBe(content);
        const over = overlayWorkspace(ws, new Map([[path, m!.content]]), [path]);
        const r = await runGate({ gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 60_000 }, { ws: over, cacheRoot: '/tmp/loopgates-test-cache' });
        expect(r.verdict, m!.description).toBe('fail');
        expect(r.findings.filter((f) => f.severity === 'error').map((f) => `${f.file}:${f.line}`), m!.description).toContain(`${path}:${m!.line}`);
        killedAt.push(m!.line);
      }
      expect(killedAt.length).toBe(3);
    });
  }
});
