// gates/secrets/default-rule-ids.ts is shipped data (the union of gitleaks' default rule ids over 8.16 to the newest
// release read when it was generated). A rule a team's .gitleaks.toml adds under one of those ids is refused as a
// narrowing (allowlist.ts exemptionsAdded); an id a newer gitleaks adds to its defaults would not be. So the gitleaks
// this runs with (CI's, or the checkout's .tools/ one) is read: every default rule id it embeds must be in the list.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GITLEAKS_DEFAULT_RULE_IDS } from '../../gates/secrets/default-rule-ids.js';
import { resolveGitleaks } from '../../gates/secrets/gitleaks.js';

/**
 * The rule ids of the default config the binary embeds (config/gitleaks.toml, `//go:embed`, the same text in every
 * release): each `[[rules]]` table has one `id = "…"` line, before or after its description line.
 */
function embeddedRuleIds(path: string): { tables: number; ids: string[] } {
  const text = readFileSync(path).toString('latin1');
  const tables = text.match(/\n\[\[rules\]\]\r?\n/g)?.length ?? 0;
  const ids = [...text.matchAll(/\nid = "([^"\n]+)"\r?\n/g)].map((m) => m[1]!);
  return { tables, ids };
}

describe("gitleaks' default rule ids (default-rule-ids.ts) against the installed binary", () => {
  const bin = resolveGitleaks();
  const found = embeddedRuleIds(bin.path);

  it('the probe reads one id per embedded [[rules]] table, and there are gitleaks-many of them', () => {
    // 8.16.0 embeds 147 default rules, v8.30.1 222: fewer than 100 means the probe missed the embedded config.
    expect(found.tables).toBeGreaterThanOrEqual(100);
    expect(new Set(found.ids).size).toBe(found.tables);
  });

  it('every default rule id the binary embeds is in the shipped list (regenerate it: scripts/gitleaks-default-rule-ids.mjs)', () => {
    expect(found.ids.filter((id) => !GITLEAKS_DEFAULT_RULE_IDS.has(id))).toEqual([]);
  });

  // gitleaks 8.16 to 8.19.2 log each default rule they add when extending at trace level ("adding <id> to base
  // config"): what the binary loads, not what its bytes hold. Newer releases log no such line.
  it('the ids gitleaks itself says it adds for [extend] useDefault = true are the ones read from its bytes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopgates-default-ids-'));
    try {
      writeFileSync(join(dir, 'cfg.toml'), '[extend]\nuseDefault = true\n');
      writeFileSync(join(dir, 'a.txt'), 'nothing here\n');
      const env = { ...process.env, GITLEAKS_CONFIG: '', GITLEAKS_CONFIG_TOML: '' };
      const run = spawnSync(bin.path, ['detect', '--no-git', '--source', join(dir, 'a.txt'), '--config', join(dir, 'cfg.toml'), '--no-banner', '--log-level', 'trace'], { env, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      const log = run.stdout + run.stderr;
      const added = [...log.matchAll(/adding (.+?) to base config/g)].map((m) => m[1]!);
      // Newer releases: nothing to compare (the two probes above still hold).
      if (added.length) expect(added.sort()).toEqual([...found.ids].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
