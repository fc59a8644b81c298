// gitleaks config `[allowlist] paths` (README "Configuration": https://github.com/gitleaks/gitleaks#configuration;
// 8.16 config/config.go: each entry a Go regexp matched with MatchString against the file path, so unanchored).
// Which entry exempts which file, for the words of the hook, `mutate` and `doctor`. Whether a file is skipped at all
// is measured on the binary (path-probe.ts); this module only names the entry, and says when it cannot.
import { parse } from 'smol-toml';
import { REDACTED } from '../../core/redact.js';
import { GITLEAKS_DEFAULT_RULE_IDS } from './default-rule-ids.js';

/** One path entry of a gitleaks config's global allowlist (`[allowlist] paths`, or `[[allowlists]] paths` of newer releases). */
export interface AllowlistPath {
  /** The entry as written in the config (a Go regexp). */
  entry: string;
  /** Its JavaScript equivalent, or null when it uses Go syntax JavaScript does not read (then it is never named as matching). */
  re: RegExp | null;
  /** The folder the entry seems to name (a literal path with a `/`, or a literal name), or null when it is a pattern. */
  folder: string | null;
}

/**
 * The global allowlist path entries of a gitleaks config (TOML bytes), in config order. A config that does not
 * parse gives none (gitleaks refuses it itself; the scan reports that). Rule-level allowlists are not global: they
 * exempt a file from one rule only, and gitleaks still reads the file.
 */
export function allowlistPaths(config: Buffer | string | undefined): AllowlistPath[] {
  if (config === undefined) return [];
  const doc = tomlOf(config);
  if (!doc) return [];
  const lists: unknown[] = [doc.allowlist, ...(Array.isArray(doc.allowlists) ? doc.allowlists : [])];
  const out: AllowlistPath[] = [];
  for (const list of lists) {
    if (!list || typeof list !== 'object') continue;
    // Newer releases' [[allowlists]] may target some rules only; those do not skip the file for every rule.
    const targets = (list as { targetRules?: unknown }).targetRules;
    if (Array.isArray(targets) && targets.length) continue;
    const paths = (list as { paths?: unknown }).paths;
    if (!Array.isArray(paths)) continue;
    for (const p of paths) if (typeof p === 'string') out.push({ entry: p, re: goRegExp(p), folder: literalFolder(p) });
  }
  return out;
}

/**
 * A Go RE2 pattern as a JavaScript RegExp, or null when it does not translate: a leading `(?flags)` group becomes
 * RegExp flags (i, s, m; `U` has no equivalent), `\A` / `\z` become `^` / `$`, `(?P<name>` becomes `(?<name>`.
 */
export function goRegExp(pattern: string): RegExp | null {
  let src = pattern;
  let flags = '';
  const lead = /^\(\?([imsU]+)\)/.exec(src);
  if (lead) {
    if (lead[1]!.includes('U')) return null;
    flags = [...new Set(lead[1]!.split(''))].join('');
    src = src.slice(lead[0].length);
  }
  src = src.replace(/\\A/g, '^').replace(/\\z/g, '$').replace(/\(\?P</g, '(?<');
  try {
    return new RegExp(src, flags);
  } catch {
    return null;
  }
}

/**
 * The folder a path entry reads as (`tests/data`, `^vendor/`, `node_modules`): the entry with `\.` / `\/` unescaped
 * and one leading `^` / trailing `$` or `/` dropped, when nothing else in it is regex syntax; null otherwise.
 */
function literalFolder(entry: string): string | null {
  let s = entry.replace(/\\([./-])/g, '$1');
  if (s.startsWith('^')) s = s.slice(1);
  if (s.endsWith('$')) s = s.slice(0, -1);
  while (s.endsWith('/')) s = s.slice(0, -1);
  if (!s || /[\\[\](){}*+?|^$]/.test(s)) return null;
  // A bare name with a dot and no slash (`gitleaks.toml`, `go.sum`) names a file, not a folder.
  if (!s.includes('/') && s.includes('.')) return null;
  return s;
}

/** The first entry of `entries` whose regex matches `path`, or undefined (none, or only entries JavaScript cannot read). */
export function entryFor(path: string, entries: readonly AllowlistPath[]): AllowlistPath | undefined {
  return entries.find((e) => e.re !== null && e.re.test(path));
}

/**
 * Whether `path`, which `e` matches, lies inside the folder the entry seems to name: the folder's segments appear in
 * the path as whole segments (`tests/data` covers `tests/data/x` and `app/tests/data/x`, not
 * `integration-tests/data-samples/x`). True for entries that name no folder (nothing to compare).
 */
export function insideFolder(path: string, e: AllowlistPath): boolean {
  if (e.folder === null) return true;
  const f = e.folder;
  const anchored = e.entry.startsWith('^');
  if (path === f || path.startsWith(`${f}/`)) return true;
  if (anchored) return false;
  return path.includes(`/${f}/`) || path.endsWith(`/${f}`);
}

/** How an entry is written in messages: `'''tests/data'''`, as in the config. */
export function shownEntry(e: AllowlistPath): string {
  return `'''${e.entry}'''`;
}

/**
 * Why `path` (which gitleaks skipped by path under a team config, path-probe.ts) was skipped: the entry, or, when no
 * entry of the team's list matches in JavaScript, the remaining causes.
 */
export function skippedBecause(path: string, entries: readonly AllowlistPath[]): string {
  const e = entryFor(path, entries);
  if (e) return `[allowlist] paths entry ${shownEntry(e)}${insideFolder(path, e) ? '' : ` (matches anywhere in a path, not only the folder ${e.folder})`}`;
  return entries.some((x) => x.re === null)
    ? 'an [allowlist] paths entry loopgates cannot evaluate, or the default allowlist kept by [extend] useDefault'
    : "gitleaks' default allowlist (kept by [extend] useDefault)";
}

/** What `doctor` says of a team config's allowlist paths over the tracked files (allowlistAudit). */
export interface AllowlistAudit {
  /** One info line per entry: how many tracked files it exempts. */
  info: string[];
  /** Entries that exempt tracked files outside the folder they seem to name, or that loopgates cannot evaluate. */
  problems: Array<{ what: string; fix: string }>;
}

/**
 * Per global allowlist path entry of `config`, how many of `tracked` (repository-relative paths) it exempts from the
 * secrets scan, and which entries match outside the folder they seem to name (insideFolder). Pure. The counts use the
 * entries' JavaScript equivalents (goRegExp); an entry that does not translate is named as one loopgates cannot count.
 */
export function allowlistAudit(config: Buffer | string | undefined, tracked: readonly string[], name = '.gitleaks.toml'): AllowlistAudit {
  const out: AllowlistAudit = { info: [], problems: [] };
  for (const e of allowlistPaths(config)) {
    if (!e.re) {
      out.info.push(`${name} [allowlist] paths ${shownEntry(e)}: Go regexp syntax loopgates cannot evaluate; files it exempts are named on each run`);
      continue;
    }
    const hits = tracked.filter((p) => e.re!.test(p));
    out.info.push(`${name} [allowlist] paths ${shownEntry(e)}: exempts ${hits.length} tracked file${hits.length === 1 ? '' : 's'} from the secrets scan${hits.length ? ` (${hits.slice(0, 3).join(', ')}${hits.length > 3 ? ', …' : ''})` : ''}`);
    // An entry that exempts every tracked file, or all but a few of many, leaves nothing to scan: the canary then
    // finds the scanner blind and every commit is refused (fresh-user-3 F12), so doctor cannot call that healthy.
    const left = tracked.length - hits.length;
    if (hits.length > 0 && (left === 0 || (tracked.length >= 10 && left <= tracked.length / 10))) {
      out.problems.push({
        what: `${name} [allowlist] paths ${shownEntry(e)} exempts ${left === 0 ? `every tracked file (${hits.length} of ${tracked.length})` : `all but ${left} of ${tracked.length} tracked files`}: the secrets scan is blind and refuses every commit`,
        fix: `narrow the entry in ${name} to the folder that holds test data (e.g. '''^tests/fixtures/''') or remove it, then: git add ${name}`,
      });
      continue;
    }
    const outside = hits.filter((p) => !insideFolder(p, e));
    if (outside.length) {
      const anchored = `^${e.folder!.replace(/[.]/g, '\\.')}/`;
      out.problems.push({
        what: `${name} [allowlist] paths ${shownEntry(e)} also exempts ${outside.length} tracked file${outside.length === 1 ? '' : 's'} outside the folder ${e.folder} (gitleaks matches path regexes anywhere in a path): ${outside.slice(0, 3).join(', ')}${outside.length > 3 ? ', …' : ''}; a credential there is never scanned`,
        fix: `anchor the entry to the folder in ${name}: '''${anchored}''' (or '''(^|/)${e.folder!.replace(/[.]/g, '\\.')}/''' for that folder at any depth), then: git add ${name}`,
      });
    }
  }
  return out;
}

/** One way a staged .gitleaks.toml reports less than HEAD's (exemptionsAdded). */
export interface ExemptionChange {
  /** As messages show it: `[allowlist] paths '''^deploy/'''`, `[[rules]] acme removed`. */
  what: string;
  /** What the config does, for a sentence `.gitleaks.toml <said>`: `adds [allowlist] paths '''^deploy/'''`, `drops rule acme`. */
  said: string;
  /** Whether it exempts a finding in `path` on a line holding `line`: true, false, or null (cannot tell). */
  matches(path: string, line: string): boolean | null;
}

/**
 * What `staged` (a gitleaks config, TOML) exempts that `head` does not: global allowlist entries it adds (paths,
 * regexes, stopwords, commits; `[allowlist]` and newer releases' `[[allowlists]]`) or a regexTarget it sets, rule
 * allowlist entries it adds, rules it removes or rewrites (regex, secretGroup, entropy, keywords, path), a rule it adds
 * under a gitleaks default rule's id while keeping the defaults (default-rule-ids.ts), and `[extend] useDefault` /
 * `path` dropped or changed. Pure; a config that does not parse gives nothing (gitleaks refuses
 * it; the hook refuses a staged one first, gates/secrets/narrowing.ts). Matching (gitleaks 8.16 detect.go): a path
 * regex against the path, a regex against the finding's line (gitleaks: its secret, which the line holds), a stopword
 * case-insensitively. Any change of a rule's detecting keys counts: whether it reports less is not proven here.
 */
export function exemptionsAdded(head: Buffer | string, staged: Buffer | string): ExemptionChange[] {
  const a = tomlOf(head);
  const b = tomlOf(staged);
  if (!a || !b) return [];
  const out: ExemptionChange[] = [];
  const none = () => null;
  const rules = (doc: Record<string, unknown>): Map<string, Record<string, unknown>> =>
    new Map((Array.isArray(doc.rules) ? doc.rules : []).filter((r): r is Record<string, unknown> => !!r && typeof r === 'object' && typeof (r as { id?: unknown }).id === 'string').map((r) => [r.id as string, r]));
  const ra = rules(a);
  const rb = rules(b);
  const ea = (a.extend ?? {}) as Record<string, unknown>;
  const eb = (b.extend ?? {}) as Record<string, unknown>;
  // A rule HEAD's config runs: its file's own, gitleaks' defaults when it keeps them, anything when it extends a file.
  const ranAtHead = (id: string) => ra.has(id) || (typeof ea.path === 'string' && ea.path !== '') || (ea.useDefault === true && GITLEAKS_DEFAULT_RULE_IDS.has(id));
  out.push(...allowlistsWidened(allowlistsOf(a, ra), allowlistsOf(b, rb, (id) => ranAtHead(id) && (!rb.has(id) || ra.has(id)))));
  for (const [id, r] of ra) {
    const s = rb.get(id);
    if (!s) {
      out.push({ what: `[[rules]] ${id} removed`, said: `drops rule ${id}`, matches: none });
      continue;
    }
    const keys = ['regex', 'secretGroup', 'entropy', 'keywords', 'path'].filter((k) => JSON.stringify(s[k]) !== JSON.stringify(r[k]));
    if (keys.length) out.push({ what: `[[rules]] ${id} rewritten`, said: `changes rule ${id} (${keys.join(', ')})`, matches: none });
  }
  // A rule under a default rule's id, in a config that keeps the defaults, takes that rule's place: gitleaks 8.16 to
  // 8.19.2 (config.go extend) keep the config's rule and drop the default one; 8.19.3 on merge it into the default
  // (its regex, path, entropy, secretGroup replace the default's, its allowlists are added). Either way the default
  // rule reports less or nothing. One HEAD's file already holds is judged above, key by key.
  if (eb.useDefault === true) {
    for (const [id, s] of rb) {
      if (!GITLEAKS_DEFAULT_RULE_IDS.has(id) || ra.has(id)) continue;
      const regex = typeof s.regex === 'string' ? ` (regex '''${masked(s.regex)}''')` : '';
      out.push({ what: `[[rules]] ${id} replacing gitleaks' default rule`, said: `replaces gitleaks' default rule ${id}${regex}`, matches: none });
    }
  }
  if (ea.useDefault === true && eb.useDefault !== true) {
    const instead = rb.size ? `, its own ${rb.size} [[rules]] replacing gitleaks' default rules` : ", dropping gitleaks' default rules";
    out.push({ what: '[extend] useDefault = true dropped', said: `turns off [extend] useDefault${instead}`, matches: none });
  }
  if (ea.path !== eb.path) out.push({ what: `[extend] path changed`, said: 'changes [extend] path', matches: none });
  const disabled = new Set(strings(ea.disabledRules));
  for (const id of strings(eb.disabledRules)) if (!disabled.has(id)) out.push({ what: `[extend] disabledRules '${id}'`, said: `disables rule ${id} ([extend] disabledRules)`, matches: none });
  return out;
}

const KINDS = ['paths', 'regexes', 'stopwords', 'commits'] as const;
type Kind = (typeof KINDS)[number];

/**
 * One allowlist as newer gitleaks applies it (v8.30 config.go parseAllowlist, detect.go checkFindingAllowed): to the
 * rules of `scope` (a rule's own, or `[[allowlists]]` targetRules; null: every rule); OR (the default) exempts a finding
 * any one entry matches, AND one that matches an entry of every kind the list sets; regexes test the secret, the
 * rule's match or the whole line (regexTarget). 8.16 to 8.20 read `[allowlist]` and `[rules.allowlist]` only, as OR;
 * 8.21 added `[[rules.allowlists]]` and condition, 8.25 `[[allowlists]]` and targetRules.
 */
interface Allowlist {
  where: string;
  scope: ReadonlySet<string> | null;
  and: boolean;
  target: string;
  entries: Record<Kind, string[]>;
}

/** The allowlists of a parsed config; a rule-scoped list is kept when `keep(rule id)` (all when no `keep`). */
function allowlistsOf(doc: Record<string, unknown>, rules: ReadonlyMap<string, Record<string, unknown>>, keep: (id: string) => boolean = () => true): Allowlist[] {
  const tables = (...xs: unknown[]) => xs.flatMap((x) => (Array.isArray(x) ? x : [x])).filter((l): l is Record<string, unknown> => !!l && typeof l === 'object' && !Array.isArray(l));
  const one = (l: Record<string, unknown>, where: string, scope: ReadonlySet<string> | null): Allowlist => {
    const condition = typeof l.condition === 'string' ? l.condition.toUpperCase() : '';
    const target = typeof l.regexTarget === 'string' && l.regexTarget !== '' ? l.regexTarget : 'secret';
    return { where, scope, and: condition === 'AND' || condition === '&&', target, entries: { paths: strings(l.paths), regexes: strings(l.regexes), stopwords: strings(l.stopwords), commits: strings(l.commits) } };
  };
  const out: Allowlist[] = [];
  for (const l of tables(doc.allowlist, doc.allowlists)) {
    const targets = strings(l.targetRules);
    if (!targets.length) {
      out.push(one(l, '[allowlist]', null));
      continue;
    }
    const kept = targets.filter(keep);
    if (kept.length) out.push(one(l, `[[allowlists]] (rule${targets.length === 1 ? '' : 's'} ${targets.join(', ')})`, new Set(kept)));
  }
  for (const [id, r] of rules) if (keep(id)) for (const l of tables(r.allowlist, r.allowlists)) out.push(one(l, `[[rules]] ${id} allowlist`, new Set([id])));
  return out;
}

/** AND with two kinds or more; an AND list of one kind exempts as an OR list does. */
const allOf = (l: Allowlist) => l.and && KINDS.filter((k) => l.entries[k].length).length > 1;

/**
 * What the `staged` allowlists exempt that the `head` ones do not, as ExemptionChanges: an entry no HEAD list holds
 * (`adds [allowlist] paths '''^deploy/'''`), or one a HEAD list holds under a narrower condition (AND -> OR), regex
 * target, or set of rules (targetRules dropped or added, an entry moved from a rule's allowlist to the global one).
 * An entry is covered when, for every rule the staged list applies to, a HEAD list applying to that rule exempts at
 * least what it does: an OR list by holding the entry (a regex with the same regexTarget), an AND list by holding
 * all of the staged AND list's entries of every kind it sets.
 */
function allowlistsWidened(head: readonly Allowlist[], staged: readonly Allowlist[]): ExemptionChange[] {
  const out = new Map<string, ExemptionChange>();
  const push = (c: ExemptionChange) => out.has(c.said) || out.set(c.said, c);
  const none = () => null;
  const shown = (k: Kind, v: string) => `${k} ${k === 'commits' ? `'${v}'` : k === 'stopwords' ? `'${masked(v)}'` : k === 'regexes' ? `'''${masked(v)}'''` : `'''${v}'''`}`;
  const matcher = (k: Kind, v: string): ExemptionChange['matches'] => {
    const re = k === 'paths' || k === 'regexes' ? goRegExp(v) : null;
    return (path, line) => (k === 'paths' ? (re ? re.test(path) : null) : k === 'regexes' ? (re ? re.test(line) : null) : k === 'stopwords' ? line.toLowerCase().includes(v.toLowerCase()) : null);
  };
  const anyOf = (xs: ReadonlyArray<[Kind, string]>): ExemptionChange['matches'] => (path, line) => {
    const r = xs.map(([k, v]) => matcher(k, v)(path, line));
    return r.includes(true) ? true : r.includes(null) ? null : false;
  };
  const sameTarget = (h: Allowlist, s: Allowlist, k: Kind) => k !== 'regexes' || h.target === s.target;
  const within = (s: Allowlist, h: Allowlist, k: Kind) => s.entries[k].every((v) => h.entries[k].includes(v)) && sameTarget(h, s, k);
  const appliesTo = (h: Allowlist, id: string | null) => h.scope === null || (id !== null && h.scope.has(id));
  // The rules of `s` (null: every rule) for which no HEAD list passes `covers`.
  const uncovered = (s: Allowlist, covers: (h: Allowlist) => boolean): Array<string | null> =>
    (s.scope === null ? [null] : [...s.scope]).filter((id) => !head.some((h) => appliesTo(h, id) && covers(h)));
  const list = (xs: ReadonlyArray<[Kind, string]>) => `${xs.slice(0, 3).map(([k, v]) => shown(k, v)).join(' and ')}${xs.length > 3 ? ' and more' : ''}`;
  const rulesOf = (hs: readonly Allowlist[]) => {
    const ids = [...new Set(hs.flatMap((h) => (h.scope ? [...h.scope] : [])))];
    return `rule${ids.length === 1 ? '' : 's'} ${ids.join(', ')}`;
  };
  for (const s of staged) {
    const set = KINDS.flatMap((k) => s.entries[k].map((v) => [k, v] as [Kind, string]));
    const held = ([k, v]: [Kind, string]) => head.some((h) => h.entries[k].includes(v));
    let open: Array<[Kind, string]>;
    if (allOf(s)) {
      const covers = (h: Allowlist) =>
        allOf(h) ? KINDS.every((k) => !h.entries[k].length || (s.entries[k].length > 0 && within(s, h, k))) : KINDS.some((k) => s.entries[k].length > 0 && within(s, h, k));
      if (!uncovered(s, covers).length) continue;
      open = set;
    } else {
      open = set.filter(([k, v]) => uncovered(s, (h) => !allOf(h) && h.entries[k].includes(v) && sameTarget(h, s, k)).length > 0);
    }
    const fresh = open.filter((e) => !held(e));
    for (const [k, v] of fresh) push({ what: `${s.where} ${shown(k, v)}`, said: `adds ${s.where} ${shown(k, v)}`, matches: matcher(k, v) });
    // regexTarget `line` or `match` lets a regex entry exempt more than the secret it was written against.
    if (s.target !== 'secret' && fresh.some(([k]) => k === 'regexes') && !head.some((h) => h.entries.regexes.length && h.target === s.target)) {
      push({ what: `${s.where} regexTarget '${s.target}'`, said: `sets ${s.where} regexTarget '${s.target}'`, matches: none });
    }
    // Entries HEAD holds, exempting more now: say what changed about them, against the HEAD lists that hold them.
    const moved = allOf(s) ? (fresh.length ? [] : open) : open.filter((e) => held(e));
    if (!moved.length) continue;
    const holders = head.filter((h) => moved.some(([k, v]) => h.entries[k].includes(v)));
    const m = anyOf(moved);
    const condition = holders.filter(allOf);
    const regexHolders = holders.filter((h) => h.entries.regexes.length);
    const targets = moved.some(([k]) => k === 'regexes') ? regexHolders.filter((h) => h.target !== s.target) : [];
    const rulesLeft = uncovered(s, (h) => holders.includes(h));
    if (!allOf(s) && condition.length === holders.length) {
      const lost = KINDS.filter((k) => condition.some((h) => h.entries[k].length) && !s.entries[k].length);
      push(
        s.and
          ? { what: `${s.where} AND condition without ${lost.join(', ')}`, said: `drops ${lost.join(', ')} from the AND condition of ${s.where} ${list(moved)} (it now exempts alone)`, matches: m }
          : { what: `${s.where} condition OR`, said: `changes ${s.where} condition from AND to OR (${list(moved)} ${moved.length === 1 ? 'exempts' : 'each exempt'} alone)`, matches: m },
      );
    } else if (targets.length && targets.length === regexHolders.length) {
      push({ what: `${s.where} regexTarget '${s.target}'`, said: `changes ${s.where} regexTarget from '${targets[0]!.target}' to '${s.target}' (${list(moved.filter(([k]) => k === 'regexes'))})`, matches: m });
    } else if (rulesLeft.includes(null)) {
      push({ what: `${s.where} for every rule`, said: `makes ${s.where} ${list(moved)} apply to every rule (was: ${rulesOf(holders)})`, matches: m });
    } else if (rulesLeft.length) {
      const ids = rulesLeft as string[];
      push({ what: `${s.where} for rule ${ids.join(', ')}`, said: `makes ${s.where} ${list(moved)} apply to rule${ids.length === 1 ? '' : 's'} ${ids.join(', ')} too`, matches: m });
    } else {
      // Entries HEAD holds in separate lists, brought together under a weaker condition: named as a whole.
      push({ what: `${s.where} ${list(moved)}`, said: `combines ${s.where} ${list(moved)} so that it exempts more than HEAD's allowlists`, matches: m });
    }
  }
  return [...out.values()];
}

/** Why a gitleaks config (TOML) does not parse, in smol-toml's words (first line), or undefined when it parses. */
export function tomlProblem(config: Buffer | string): string | undefined {
  try {
    parse(typeof config === 'string' ? config : config.toString('utf8'));
    return undefined;
  } catch (err) {
    // The first line only: the rest quotes the file's lines, which may hold anything.
    const first = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.trim();
    const at = err as { line?: unknown; column?: unknown };
    return typeof at.line === 'number' ? `${first} (line ${at.line}${typeof at.column === 'number' ? `, column ${at.column}` : ''})` : first;
  }
}

/** A gitleaks config parsed, its keys as gitleaks reads them (keyNames), or null when it does not parse. */
export function tomlOf(config: Buffer | string): Record<string, unknown> | null {
  try {
    return keyNames(parse(typeof config === 'string' ? config : config.toString('utf8'))) as Record<string, unknown>;
  } catch {
    return null;
  }
}

// gitleaks reads its config through viper, which matches keys case-insensitively: `[AllowList] Paths` is the
// allowlist (fresh5: written so, it was not judged and a credential under it landed). Keys are compared lowercased
// and named as gitleaks documents them.
const CAMEL: Record<string, string> = { secretgroup: 'secretGroup', regextarget: 'regexTarget', targetrules: 'targetRules', usedefault: 'useDefault', disabledrules: 'disabledRules' };

/** `v` with every table key in gitleaks' spelling; two keys that differ only in case are merged (arrays joined). */
function keyNames(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(keyNames);
  if (!v || typeof v !== 'object' || v instanceof Date) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const lower = k.toLowerCase();
    const name = CAMEL[lower] ?? lower;
    const value = keyNames(x);
    const had = out[name];
    out[name] = had === undefined ? value : Array.isArray(had) && Array.isArray(value) ? [...had, ...value] : value;
  }
  return out;
}

/**
 * A regex or stopword entry as messages show it: a run of 20 or more token characters keeps its first 4 (fresh5: a
 * regex holding a token's 36-character body, or its first 24 then `.*`, was printed whole: no credential shape).
 */
function masked(v: string): string {
  return v.replace(/[A-Za-z0-9+/_=-]{20,}/g, (run) => `${run.slice(0, 4)}${REDACTED}`);
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}
