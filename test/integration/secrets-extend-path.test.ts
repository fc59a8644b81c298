// fresh5 F3 / F4: the file a .gitleaks.toml `[extend] path` names is part of the config the secrets gate judges by.
// F4: a relative path made every commit an error (gitleaks was handed a copy of the config in a temp dir, so
// `ext.toml` resolved nowhere). F3: an absolute path was followed wherever it pointed, and the file it named was never
// compared: narrowing it (an [allowlist] paths entry) landed without a word, then a token under that entry landed.
// Now a relative path is read from the index (as .gitleaks.toml is), handed to gitleaks as a copy, and compared HEAD
// vs staged like .gitleaks.toml; a path outside the repository is refused. Real git, real gitleaks (8.16 on PATH).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeGithubToken } from '../../gates/secrets/credentials.js';
import { inTempRepo, runVerb, type VerbRun } from '../helpers/cli.js';
import { assertBuilt } from './install-support.js';

const YAML = 'version: 1\ngates:\n  secrets: {}\n  hardcoded-strings: {enabled: false}\n  string-parity: {enabled: false}\n';
const base = { 'loopgates.yaml': YAML, 'README.md': 'x\n' };
const TOP = '[extend]\npath = "ext.toml"\n';
const EXT = '[extend]\nuseDefault = true\n';
const EXT_APP = "[extend]\nuseDefault = true\n\n[allowlist]\npaths = ['''^app/''']\n";
const tokenLine = () => `token = "${fakeGithubToken().value}"\n`;

/** A hook run in a repository whose HEAD holds `head`, with `stage` written and staged, `worktree` written only. */
async function hook(head: Record<string, string>, stage: Record<string, string>, env: Record<string, string> = {}, worktree: Record<string, string> = {}): Promise<VerbRun> {
  assertBuilt();
  return inTempRepo({ ...base, ...head }, async (s) => {
    for (const [p, c] of Object.entries(stage)) s.repo.write(p, c);
    s.repo.git('add', '-A');
    for (const [p, c] of Object.entries(worktree)) s.repo.write(p, c);
    return runVerb(s, ['hook', 'pre-commit'], env);
  });
}

const out = (r: VerbRun) => r.stdout + r.stderr;

describe('a relative [extend] path (fresh5 F4): the staged file it names is read, from the index', () => {
  it('green: a first .gitleaks.toml extending ext.toml, said on purpose, is judged (was: exit 2, "open ext.toml")', async () => {
    const r = await hook({}, { '.gitleaks.toml': TOP, 'ext.toml': EXT, 'a.txt': 'a\n' }, { LOOPGATES_ALLOW_DISABLE: 'secrets' });
    expect(out(r)).not.toContain('failed to load extended config');
    expect(out(r)).toContain('WARNING: this commit narrows secrets (its .gitleaks.toml (with ext.toml, which it extends) changes [extend] path)');
    expect(r.exit, out(r)).toBe(0);
  });

  it('red: with it committed, a token staged under app/ is reported at its line (exit 1)', async () => {
    const r = await hook({ '.gitleaks.toml': TOP, 'ext.toml': EXT }, { 'app/keys.txt': tokenLine() });
    expect(out(r)).not.toContain('failed to load extended config');
    expect(out(r)).toMatch(/app\/keys\.txt:1:\d+ .*github-pat/);
    expect(r.exit, out(r)).toBe(1);
  });

  it('green: with it committed, a clean commit passes', async () => {
    const r = await hook({ '.gitleaks.toml': TOP, 'ext.toml': EXT }, { 'b.txt': 'b\n' });
    expect(r.exit, out(r)).toBe(0);
  });

  it('red: an unstaged edit of ext.toml that exempts app/ does not change what the commit is judged by', async () => {
    const r = await hook({ '.gitleaks.toml': TOP, 'ext.toml': EXT }, { 'app/keys.txt': tokenLine() }, {}, { 'ext.toml': EXT_APP });
    expect(out(r)).toMatch(/app\/keys\.txt:1:\d+ .*github-pat/);
    expect(r.exit, out(r)).toBe(1);
  });

  it('green: the staged ext.toml is what applies, not the working tree\'s (its [allowlist] honoured, the file named)', async () => {
    const r = await hook({ '.gitleaks.toml': TOP, 'ext.toml': EXT_APP }, { 'app/keys.txt': tokenLine() }, {}, { 'ext.toml': EXT });
    expect(out(r)).toContain("app/keys.txt ([allowlist] paths entry '''^app/''')");
    expect(out(r)).toContain('not scanned: exempted by .gitleaks.toml [allowlist] paths');
    expect(r.exit, out(r)).toBe(0);
  });
});

describe('a commit that narrows the file [extend] path names (fresh5 F3): refused as narrowing .gitleaks.toml is', () => {
  it('red: ext.toml alone gains an [allowlist] paths entry: exit 1, the entry and ext.toml named', async () => {
    const r = await hook({ '.gitleaks.toml': TOP, 'ext.toml': EXT }, { 'ext.toml': EXT_APP });
    expect(out(r)).toContain("this commit keeps secrets enabled but its .gitleaks.toml (with ext.toml, which it extends) adds [allowlist] paths '''^app/''' (it reports less than HEAD's, for every commit after this one)");
    expect(out(r)).toContain('take the narrowing out of ext.toml (or unstage it: git restore --staged -- ext.toml)');
    expect(out(r)).toContain('refused: this commit narrows secrets');
    expect(r.exit).toBe(1);
    expect(r.ledger.filter((e) => e.kind === 'disable')).toEqual([]);
    expect(r.untouched).toBe(true);
  });

  it('red: ext.toml narrowed with a token staged under the new entry: the token is reported under HEAD\'s config too', async () => {
    const r = await hook({ '.gitleaks.toml': TOP, 'ext.toml': EXT }, { 'ext.toml': EXT_APP, 'app/keys.txt': tokenLine() });
    expect(out(r)).toContain("adds [allowlist] paths '''^app/'''");
    expect(out(r)).toMatch(/app\/keys\.txt:1:\d+ .*github-pat/);
    expect(r.exit).toBe(1);
  });

  it('red: ext.toml deleted: refused (exit 2), naming the file the index no longer holds and the fix', async () => {
    const r = await inTempRepo({ ...base, '.gitleaks.toml': TOP, 'ext.toml': EXT }, async (s) => {
      s.repo.git('rm', '-q', '--', 'ext.toml');
      return runVerb(s, ['hook', 'pre-commit']);
    });
    expect(out(r)).toContain('.gitleaks.toml extends "ext.toml", which the index does not hold');
    expect(out(r)).toContain('git add ext.toml');
    expect(r.exit).toBe(2);
  });

  it('green: ext.toml gains a rule (widening): no narrowing', async () => {
    const r = await hook({ '.gitleaks.toml': TOP, 'ext.toml': EXT }, { 'ext.toml': `${EXT}\n[[rules]]\nid = "acme"\nregex = '''acme_[a-z0-9]{20}'''\n` });
    expect(out(r)).not.toContain('narrows');
    expect(r.exit, out(r)).toBe(0);
  });

  it('green: an allowlist entry moved from .gitleaks.toml into ext.toml takes nothing away', async () => {
    const r = await hook({ '.gitleaks.toml': `${TOP}\n[allowlist]\npaths = ['''^app/''']\n`, 'ext.toml': EXT }, { '.gitleaks.toml': TOP, 'ext.toml': EXT_APP });
    expect(out(r)).not.toContain('narrows');
    expect(r.exit, out(r)).toBe(0);
  });

  it('red: the file the extended file extends (second level) narrowed alone is named too', async () => {
    const head = { '.gitleaks.toml': TOP, 'ext.toml': '[extend]\npath = "base.toml"\n', 'base.toml': '[[rules]]\nid = "acme"\nregex = \'\'\'acme_[a-z0-9]{20}\'\'\'\n' };
    const r = await hook(head, { 'base.toml': `${head['base.toml']}\n[allowlist]\npaths = ['''^lib/''']\n` });
    expect(out(r)).toContain("its .gitleaks.toml (with ext.toml, base.toml, which it extends) adds [allowlist] paths '''^lib/'''");
    expect(out(r)).toContain('take the narrowing out of base.toml');
    expect(out(r)).toContain('refused: this commit narrows secrets');
  });
});

describe('an [extend] path outside the repository (fresh5 F3): refused, exit 2', () => {
  it('red: an absolute path staged in .gitleaks.toml is refused, naming it and the fix', async () => {
    assertBuilt();
    const r = await inTempRepo(base, async (s) => {
      const outside = join(s.base, 'ext.toml');
      writeFileSync(outside, EXT);
      s.repo.write('.gitleaks.toml', `[extend]\npath = "${outside}"\n`);
      s.repo.git('add', '-A');
      return runVerb(s, ['hook', 'pre-commit'], { LOOPGATES_ALLOW_DISABLE: 'secrets' });
    });
    expect(out(r)).toContain('a path outside the repository (absolute)');
    expect(out(r)).toContain('name a TOML file in the repository, relative to its top folder, in .gitleaks.toml (e.g. [extend] path = "gitleaks-base.toml"), then: git add .gitleaks.toml gitleaks-base.toml');
    expect(r.exit).toBe(2);
    expect(r.ledger.filter((e) => e.kind === 'disable')).toEqual([]);
  });

  it('red: with an absolute path committed (acknowledged once), narrowing the outside file then a token under it: the token commit is refused', async () => {
    assertBuilt();
    const r = await inTempRepo(base, async (s) => {
      const outside = join(s.base, 'ext.toml');
      writeFileSync(outside, EXT);
      s.repo.write('.gitleaks.toml', `[extend]\npath = "${outside}"\n`);
      s.repo.git('add', '-A');
      s.repo.git('commit', '-q', '-m', 'ext (as an earlier loopgates let it land)');
      writeFileSync(outside, EXT_APP);
      s.repo.write('app/keys.txt', tokenLine());
      s.repo.git('add', '-A');
      return runVerb(s, ['hook', 'pre-commit']);
    });
    expect(out(r)).toContain('a path outside the repository (absolute)');
    expect(r.exit).toBe(2);
  });

  it('red: a relative path that leaves the top folder is refused the same way', async () => {
    const r = await hook({}, { '.gitleaks.toml': '[extend]\npath = "../ext.toml"\n', 'a.txt': 'a\n' }, { LOOPGATES_ALLOW_DISABLE: 'secrets' });
    expect(out(r)).toContain('.gitleaks.toml extends "../ext.toml", a path outside the repository (it leaves the top folder)');
    expect(r.exit).toBe(2);
  });

  it('red: a relative path to a file that is not staged is refused (exit 2), with the git add that fixes it', async () => {
    const r = await hook({}, { '.gitleaks.toml': TOP, 'a.txt': 'a\n' }, { LOOPGATES_ALLOW_DISABLE: 'secrets' }, { 'ext.toml': EXT });
    expect(out(r)).toContain('.gitleaks.toml extends "ext.toml", which the index does not hold');
    expect(out(r)).toContain('fix: git add ext.toml');
    expect(r.exit).toBe(2);
  });
});

describe('run --all resolves a relative [extend] path against the files checked (fresh5 F4)', () => {
  it('red then green: the tree\'s ext.toml applies: a token under its allowlist is named as not scanned, one elsewhere reported', async () => {
    assertBuilt();
    const r = await inTempRepo({ ...base, '.gitleaks.toml': TOP, 'ext.toml': EXT_APP, 'app/keys.txt': tokenLine(), 'lib/keys.txt': tokenLine() }, (s) => runVerb(s, ['run', '--all', '--gate', 'secrets']));
    expect(out(r)).not.toContain('failed to load extended config');
    expect(out(r)).toMatch(/lib\/keys\.txt:1:\d+ .*github-pat/);
    expect(out(r)).not.toMatch(/app\/keys\.txt:1:\d+ .*github-pat/);
    expect(out(r)).toContain("app/keys.txt ([allowlist] paths entry '''^app/''')");
    expect(r.exit).toBe(1);
  });

  it('red: an absolute path in the tree\'s .gitleaks.toml refuses the run (exit 2)', async () => {
    const r = await inTempRepo({ ...base, '.gitleaks.toml': '[extend]\npath = "/etc/gitleaks-ext.toml"\n', 'a.txt': 'a\n' }, (s) => runVerb(s, ['run', '--all', '--gate', 'secrets']));
    expect(out(r)).toContain('a path outside the repository (absolute)');
    expect(out(r)).toContain('run refused');
    expect(r.exit).toBe(2);
  });
});
