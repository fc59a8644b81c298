// A staged .gitleaks.toml that makes gitleaks report less than HEAD's does (an allowlist entry, a rule dropped or
// rewritten, useDefault turned off) switches the secrets gate partly off for every later commit, credential staged
// now or not: the hook refuses it as it refuses a narrowing in loopgates.yaml (commands/hook.ts refuseQuietDisable).
// Loaded only for a commit that stages or deletes .gitleaks.toml, or whose HEAD holds one (it may extend a file the
// commit changes).
import { LoopgatesError } from '../../core/errors.js';
import { redactCredentials } from '../../core/redact.js';
import type { Workspace } from '../../core/types.js';
import { exemptionsAdded, tomlProblem } from './allowlist.js';
import { effectiveConfig, extendChain, extendedFiles, headReader } from './extend.js';
import { DEFAULT_CONFIG_TOML } from './gitleaks.js';
import { CONFIG_FILE } from './index.js';

/** What the commit's scanner config takes from the secrets gate (scannerConfigNarrowing). */
export interface ScannerNarrowing {
  /** `.gitleaks.toml adds …, drops rule …` (credential shapes redacted). */
  what: string;
  /** The files of the config the commit stages or deletes (.gitleaks.toml, a file it extends), for the fix. */
  by: string[];
}

/**
 * What the commit's `.gitleaks.toml` (staged, or deleted: gitleaks' defaults) with the files it extends by
 * `[extend] path` (extend.ts: read from the index, two levels as gitleaks follows them) takes from the secrets gate
 * compared with HEAD's (gitleaks' defaults when HEAD has none, one that does not parse, or one that extends a file it
 * cannot be judged by), as `.gitleaks.toml adds … , drops rule …` (allowlist.ts exemptionsAdded over the config
 * gitleaks ends up with, extend.ts effectiveConfig; credential shapes redacted); undefined when the commit changes
 * none of these files, or leaves the config as it is or only widens it (rules added, entries removed). Throws
 * LoopgatesError (exit 2) when the staged config does not parse, or extends a file outside the repository, missing
 * from the index, or that does not parse.
 */
export async function scannerConfigNarrowing(ws: Workspace): Promise<ScannerNarrowing | undefined> {
  if (!ws.before) return undefined;
  const before = headReader(ws);
  const targets = await ws.targets();
  const deleted = (await ws.deletions?.()) ?? [];
  const changed = (p: string) => targets.includes(p) || deleted.includes(p);
  const side = { refused: 'commit' as const, from: 'the index', add: 'git add' };
  const defaults = Buffer.from(DEFAULT_CONFIG_TOML, 'utf8');
  const head = await before(CONFIG_FILE);
  const headChain = head === undefined || tomlProblem(head) !== undefined ? { files: [], paths: [] } : await extendChain(head, before, side);
  // A commit that changes none of the files the config is made of (HEAD's chain, or the staged .gitleaks.toml, which
  // is the only way to name another) leaves it as it is.
  if (!changed(CONFIG_FILE) && !headChain.paths.some(changed)) return undefined;
  const now = (await ws.has(CONFIG_FILE)) && !deleted.includes(CONFIG_FILE) ? await ws.read(CONFIG_FILE) : defaults;
  const problem = tomlProblem(now);
  if (problem) {
    throw new LoopgatesError(
      `the staged ${CONFIG_FILE} does not parse (${redactCredentials(problem)}): what the secrets gate reports under it cannot be compared with HEAD's; commit refused`,
      `repair ${CONFIG_FILE} (TOML: https://toml.io; gitleaks' keys: https://github.com/gitleaks/gitleaks#configuration), then: git add ${CONFIG_FILE}`,
    );
  }
  const read = async (p: string) => ((await ws.has(p)) && !deleted.includes(p) ? ws.read(p) : undefined);
  const nowFiles = await extendedFiles(now, read, side);
  const was = head === undefined || tomlProblem(head) !== undefined || headChain.problem ? defaults : effectiveConfig(head, headChain.files);
  const changes = exemptionsAdded(was, effectiveConfig(now, nowFiles));
  if (!changes.length) return undefined;
  const said = changes.map((c) => c.said);
  const extended = [...new Set([...headChain.files, ...nowFiles].map((f) => f.path))];
  const name = extended.length ? `${CONFIG_FILE} (with ${extended.join(', ')}, which it extends)` : CONFIG_FILE;
  const by = [CONFIG_FILE, ...extended].filter(changed);
  return { what: redactCredentials(`${name} ${said.slice(0, 5).join(', ')}${said.length > 5 ? `, and ${said.length - 5} more` : ''}`), by: by.length ? by : [CONFIG_FILE] };
}
