// A .gitleaks.toml gitleaks cannot parse gave exit 2 with gitleaks' own line but the fix "reinstall gitleaks".
import { describe, expect, it } from 'vitest';
import { withGitRepo } from '../helpers/git-repo.js';
import { secretsHarness } from '../helpers/secrets-gate.js';

const h = secretsHarness('loopgates-brokencfg-');

describe('secrets: a broken .gitleaks.toml', () => {
  it('is named as the cause, with the fix to repair and stage it (not to reinstall gitleaks)', async () => {
    await withGitRepo({ '.gitleaks.toml': '[extend\nuseDefault = true\n', 'a.kt': 'val a = 1\n' }, async (repo) => {
      repo.git('add', '-A');
      const r = await h.check(repo, 'staged');
      expect(r.verdict).toBe('error');
      expect(r.error?.message).toMatch(/gitleaks cannot read the repository's \.gitleaks\.toml.*toml/);
      expect(r.error?.fix).toMatch(/^repair \.gitleaks\.toml .*then: git add \.gitleaks\.toml$/);
      expect(r.error?.fix).not.toMatch(/reinstall|apt-get|brew/);
    });
  });
});
