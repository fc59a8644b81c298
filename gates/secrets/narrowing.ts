// A staged .gitleaks.toml that makes gitleaks report less than HEAD's does (an allowlist entry, a rule dropped or
// rewritten, useDefault turned off) switches the secrets gate partly off for every later commit, credential staged
// now or not: the hook refuses it as it refuses a narrowing in loopgates.yaml (commands/hook.ts refuseQuietDisable).
// Loaded only for a commit that stages or deletes .gitleaks.toml.
import { LoopgatesError } from '../../core/errors.js';
import { redactCredentials } from '../../core/redact.js';
import type { Workspace } from '../../core/types.js';
import { exemptionsAdded, tomlProblem } from './allowlist.js';
import { DEFAULT_CONFIG_TOML } from './gitleaks.js';
import { CONFIG_FILE } from './index.js';

/**
 * What the commit's `.gitleaks.toml` (staged, or deleted: gitleaks' defaults) takes from the secrets gate compared
 * with HEAD's (gitleaks' defaults when HEAD has none, or one that does not parse), as `.gitleaks.toml adds … , drops
 * rule …` (allowlist.ts exemptionsAdded; credential shapes redacted); undefined when the commit leaves it as it is or
 * only widens it (rules added, entries removed). Throws LoopgatesError (exit 2) when the staged config does not parse.
 */
export async function scannerConfigNarrowing(ws: Workspace): Promise<string | undefined> {
  if (!ws.before) return undefined;
  const staged = (await ws.targets()).includes(CONFIG_FILE);
  if (!staged && !(await ws.deletions?.())?.includes(CONFIG_FILE)) return undefined;
  const defaults = Buffer.from(DEFAULT_CONFIG_TOML, 'utf8');
  const now = staged ? await ws.read(CONFIG_FILE) : defaults;
  const problem = tomlProblem(now);
  if (problem) {
    throw new LoopgatesError(
      `the staged ${CONFIG_FILE} does not parse (${redactCredentials(problem)}): what the secrets gate reports under it cannot be compared with HEAD's; commit refused`,
      `repair ${CONFIG_FILE} (TOML: https://toml.io; gitleaks' keys: https://github.com/gitleaks/gitleaks#configuration), then: git add ${CONFIG_FILE}`,
    );
  }
  const head = await ws.before(CONFIG_FILE);
  const changes = exemptionsAdded(head && tomlProblem(head) === undefined ? head : defaults, now);
  if (!changes.length) return undefined;
  const said = changes.map((c) => c.said);
  return redactCredentials(`${CONFIG_FILE} ${said.slice(0, 5).join(', ')}${said.length > 5 ? `, and ${said.length - 5} more` : ''}`);
}
