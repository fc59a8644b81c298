// Deciding where our hook goes (chain, integrate, or refuse), placing it, and checking that git will run it.
// Rules: never leave the hook silently inactive; never discard a hook without a backup; with husky, live in
// .husky/pre-commit rather than fight over core.hooksPath; never write into a hooks dir shared by other repositories.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ChangeSet } from './state.js';
import { messages } from '../../core/messages.js';
import { BLOCK_BEGIN, BLOCK_END, PREVIOUS_HOOK, SHIM_MARKER, STORED_HOOK, configRunsStoredHook, emptyHooksPathScope, isInside, type Managers, type RepoLayout } from './layout.js';
import { exitBeforeBlock, maybeExitBeforeBlock, renderBlock, renderShim, withBlock } from './render.js';

/** One place git reaches our stored hook from. */
export type Placement =
  /** Our shim as `<dir>/pre-commit` (an untracked hooks dir), chaining a backed-up previous hook when there was one. */
  | { kind: 'shim'; dir: string }
  /** Our block inside a tracked hook file (husky's .husky/pre-commit, a committed hooks dir). */
  | { kind: 'block'; file: string; manager: string }
  /** Another manager's config already runs our stored hook; nothing to place. */
  | { kind: 'delegated'; manager: string; file: string };

/** What install will do, or why it refuses (then it changes nothing). */
export type Plan = { ok: true; placements: Placement[]; notes: string[] } | { ok: false; message: string; fix: string };

/** The lines a user adds to another manager's config to run our stored hook. */
export const SNIPPETS = {
  lefthook: 'pre-commit:\n  commands:\n    loopgates:\n      run: sh .loopgates/hooks/pre-commit',
  simpleGitHooks: '"simple-git-hooks": { "pre-commit": "sh .loopgates/hooks/pre-commit" }   (prefix your existing command with it, joined by &&)',
  sharedDir: `${renderBlock().trimEnd()}`,
};

/** Decide the placement from the repository's layout and managers. Pure apart from reading files. */
export function planPlacement(layout: RepoLayout, managers: Managers): Plan {
  const { top, hooksDir, commonDir, hooksPath } = layout;
  const notes: string[] = [];
  const huskyFile = join(top, '.husky', 'pre-commit');
  const empty = emptyHooksPathScope(layout);
  if (empty !== null) {
    return { ok: false, message: messages.emptyHooksPath(empty), fix: messages.emptyHooksPathFix(empty) };
  }
  if (managers.husky?.active) {
    return { ok: true, placements: [{ kind: 'block', file: huskyFile, manager: `husky ${managers.husky.version}` }], notes };
  }
  const outerScope = hooksPath.local === null ? (hooksPath.global !== null ? 'global' : hooksPath.system !== null ? 'system' : null) : null;
  if (outerScope !== null) {
    return {
      ok: false,
      message:
        `core.hooksPath is set in your ${outerScope} git config (${hooksDir}), so git runs only the hooks there for this repository and a hook ` +
        `in .git/hooks would be silently inactive; loopgates will not write into a hooks directory that other repositories share.`,
      fix:
        `either add these lines to ${join(hooksDir, 'pre-commit')} (they refuse commits in repositories without loopgates):\n${SNIPPETS.sharedDir}\n` +
        `  or give this repository its own hooks: git config core.hooksPath "$(git rev-parse --git-common-dir)/hooks"   (your ${outerScope} hooks then stop running here); then: loopgates install`,
    };
  }
  const sharedDir = hooksPath.local !== null && !isInside(hooksDir, commonDir) && !isInside(hooksDir, top);
  const sharedRefusal = (): Plan => ({
    ok: false,
    message: `core.hooksPath is set for this repository to ${hooksDir}, outside the repository: other repositories may share that directory, so loopgates will not write there.`,
    fix: `add these lines to ${join(hooksDir, 'pre-commit')}:\n${SNIPPETS.sharedDir}\n  then run: loopgates install`,
  });
  if (managers.husky) {
    const why = hooksPath.local === null ? 'core.hooksPath unset' : `core.hooksPath is ${hooksPath.local}, not ${managers.husky.version === 8 ? '.husky' : '.husky/_'}`;
    // Until husky is active git runs the hooks dir's pre-commit; one outside the repository is never written (a shim
    // there could not be recorded either): refused, or the hook there already runs the stored hook.
    if (sharedDir) {
      if (!configRunsStoredHook(top, join(hooksDir, 'pre-commit'))) return sharedRefusal();
      notes.push(`husky is configured (.husky/) but not active in this clone (${why}): our block goes into .husky/pre-commit; until husky is active, ${join(hooksDir, 'pre-commit')} runs the stored hook`);
      return { ok: true, placements: [{ kind: 'block', file: huskyFile, manager: 'husky' }, { kind: 'delegated', manager: `core.hooksPath=${hooksPath.local}`, file: join(hooksDir, 'pre-commit') }], notes };
    }
    // .husky/ is committed but husky has not set core.hooksPath in this clone yet (its `prepare` did not run): place
    // both, so the hook runs now through .git/hooks and keeps running once husky takes over core.hooksPath.
    // core.hooksPath may be set here to a folder of the repository's own (global/system ones refused above).
    notes.push(`husky is configured (.husky/) but not active in this clone (${why}): our block goes into .husky/pre-commit and a shim into the hooks dir until husky is active`);
    return { ok: true, placements: [{ kind: 'block', file: huskyFile, manager: 'husky' }, { kind: 'shim', dir: hooksDir }], notes };
  }
  if (managers.lefthook) {
    if (configRunsStoredHook(top, managers.lefthook)) return { ok: true, placements: [{ kind: 'delegated', manager: 'lefthook', file: managers.lefthook }], notes };
    return {
      ok: false,
      message: `lefthook manages this repository's hooks (${managers.lefthook}); a hook placed beside it would be overwritten by the next \`lefthook install\`.`,
      fix: `add to ${managers.lefthook}:\n${SNIPPETS.lefthook}\n  then run: lefthook install && loopgates install`,
    };
  }
  if (managers.simpleGitHooks) {
    if (configRunsStoredHook(top, managers.simpleGitHooks)) {
      return { ok: true, placements: [{ kind: 'delegated', manager: 'simple-git-hooks', file: managers.simpleGitHooks }], notes };
    }
    return {
      ok: false,
      message: `simple-git-hooks manages this repository's hooks (${managers.simpleGitHooks}); it rewrites .git/hooks/pre-commit on every run, which would silently drop ours.`,
      fix: `in ${managers.simpleGitHooks} set ${SNIPPETS.simpleGitHooks}\n  then run: npx simple-git-hooks && loopgates install`,
    };
  }
  if (managers.preCommit) notes.push('pre-commit (.pre-commit-config.yaml) found: if `pre-commit install` runs later it keeps our hook as pre-commit.legacy and still runs it');
  if (hooksPath.local !== null && !isInside(hooksDir, commonDir)) {
    if (isInside(hooksDir, top)) {
      return { ok: true, placements: [{ kind: 'block', file: join(hooksDir, 'pre-commit'), manager: `core.hooksPath=${hooksPath.local}` }], notes };
    }
    // The user added the lines we asked for: that hook now runs the stored hook; install writes it and proves it.
    if (configRunsStoredHook(top, join(hooksDir, 'pre-commit'))) {
      return { ok: true, placements: [{ kind: 'delegated', manager: `core.hooksPath=${hooksPath.local}`, file: join(hooksDir, 'pre-commit') }], notes };
    }
    return sharedRefusal();
  }
  if (managers.hook.kind === 'foreign') {
    const backup = join(hooksDir, PREVIOUS_HOOK);
    if (existsSync(backup)) {
      return {
        ok: false,
        message: `${join(hooksDir, 'pre-commit')} is not loopgates' shim, and an older backup ${backup} exists: something replaced our shim after install.`,
        fix: `merge the two hooks by hand (keep one as ${PREVIOUS_HOOK}, remove ${join(hooksDir, 'pre-commit')}), then run: loopgates install`,
      };
    }
    notes.push(
      `kept the existing ${managers.hook.generator ?? 'hook'} at ${join(hooksDir, PREVIOUS_HOOK)}${managers.hook.executable ? '; it runs first and its failure still refuses the commit' : ' (it was not executable, so git never ran it; it stays inactive)'}`,
    );
  }
  return { ok: true, placements: [{ kind: 'shim', dir: hooksDir }], notes };
}

const executable = (p: string): boolean => process.platform === 'win32' || (statSync(p).mode & 0o111) !== 0;

/** Apply `placements` through `changes`. Returns one line per placement for the report. */
export function applyPlacements(placements: readonly Placement[], changes: ChangeSet, top: string): string[] {
  const lines: string[] = [];
  for (const p of placements) {
    if (p.kind === 'delegated') {
      lines.push(`${p.manager} runs the stored hook (${p.file} names ${STORED_HOOK}); nothing to place`);
      continue;
    }
    if (p.kind === 'block') {
      const exists = existsSync(p.file);
      const cur = exists ? readFileSync(p.file, 'utf8') : '';
      // husky 9 runs .husky/pre-commit with `sh -e`, so its run bit does not matter: keep the file's mode (no mode
      // change in a tracked file). Anything git runs directly (husky 8, a committed hooks dir) needs the run bit.
      const needsRunBit = p.manager !== 'husky 9' && p.manager !== 'husky';
      const mode = exists ? (statSync(p.file).mode & 0o777) | (needsRunBit ? 0o111 : 0) : 0o755;
      const wrote = changes.write(p.file, withBlock(cur), mode, 'hook-block');
      lines.push(`${wrote ? 'added' : 'kept'} the loopgates block in ${relative(top, p.file) || p.file} (${p.manager})`);
      continue;
    }
    const hook = join(p.dir, 'pre-commit');
    const backup = join(p.dir, PREVIOUS_HOOK);
    if (existsSync(hook) && !readFileSync(hook, 'utf8').includes(SHIM_MARKER)) {
      const mode = statSync(hook).mode & 0o777;
      changes.write(backup, readFileSync(hook), mode, 'hook-backup');
      lines.push(`backed up the existing hook to ${backup}`);
    }
    const chain = existsSync(backup) && executable(backup);
    const wrote = changes.write(hook, renderShim(chain), 0o755, 'hook-shim');
    lines.push(`${wrote ? 'placed' : 'kept'} the shim ${hook}${chain ? ` (runs ${PREVIOUS_HOOK} first)` : ''}`);
  }
  return lines;
}

/** One problem found by `verifyPlacements`, with its one-line fix. */
export interface Problem {
  what: string;
  fix: string;
}

const hasCR = (p: string): boolean => readFileSync(p).includes(0x0d);

/**
 * For doctor, which runs no canary commit: a line of a hook file holding our block that may end it with success
 * before the block (render.ts maybeExitBeforeBlock), as a problem naming file:line. Install's proof decides instead.
 */
export function exitHints(placements: readonly Placement[], layout: RepoLayout): Problem[] {
  const out: Problem[] = [];
  for (const p of placements) {
    if (p.kind !== 'block' || !existsSync(p.file)) continue;
    const at = maybeExitBeforeBlock(readFileSync(p.file, 'utf8'));
    if (at) out.push({ what: `${relative(layout.top, p.file) || p.file}:${at.line} \`${at.text}\` may end the script with success before the loopgates block: a commit it lets through is never judged`, fix: `move that line below the loopgates block (# <<< loopgates) or drop the exit, then: loopgates install   (its proof runs a canary commit)` });
  }
  return out;
}

/** Check that git will run what `placements` describe: files present, ours, executable, LF, hooks path effective. */
export function verifyPlacements(placements: readonly Placement[], layout: RepoLayout, managers: Managers, env: Readonly<Record<string, string | undefined>>): Problem[] {
  const problems: Problem[] = [];
  const reinstall = 'loopgates install';
  for (const p of placements) {
    if (p.kind === 'delegated') {
      if (!configRunsStoredHook(layout.top, p.file)) problems.push({ what: `${p.file} no longer runs ${STORED_HOOK}`, fix: reinstall });
      continue;
    }
    if (p.kind === 'block') {
      if (!existsSync(p.file)) {
        problems.push({ what: `${p.file} is missing`, fix: reinstall });
        continue;
      }
      const text = readFileSync(p.file, 'utf8');
      if (!text.includes(BLOCK_BEGIN) || !text.includes(`\n${BLOCK_END}`)) problems.push({ what: `${p.file} does not run the stored hook (the loopgates block is gone)`, fix: reinstall });
      const stop = exitBeforeBlock(text);
      if (stop) problems.push({ what: `${relative(layout.top, p.file) || p.file}:${stop.line} \`${stop.text}\` ends the script before the loopgates block: git never reaches the hook`, fix: `${reinstall}   (moves the block above that line)` });
      if (hasCR(p.file)) problems.push({ what: `${p.file} has CRLF line endings: sh cannot run it`, fix: `convert it to LF line endings, then: ${reinstall}` });
      if (p.manager.startsWith('husky') && env.HUSKY === '0') problems.push({ what: messages.huskyZeroEnv, fix: 'unset HUSKY' });
      const dirHooks = p.file.slice(0, -'/pre-commit'.length);
      const huskyActive = managers.husky?.active === true;
      // What git runs until husky is active: our shim, or a hook outside the repository that runs the stored hook.
      const shimToo = placements.some((q) => q.kind === 'shim' || q.kind === 'delegated');
      if (p.manager.startsWith('husky') && !huskyActive && !shimToo) problems.push({ what: 'husky is not active (core.hooksPath does not point at .husky)', fix: 'npm install   (husky sets core.hooksPath in its prepare script)' });
      if (!p.manager.startsWith('husky') && layout.hooksDir !== dirHooks) problems.push({ what: `git runs hooks from ${layout.hooksDir}, not ${dirHooks}`, fix: reinstall });
      if (!p.manager.startsWith('husky') && !executable(p.file)) problems.push({ what: `${p.file} is not executable: git skips it`, fix: `chmod +x ${p.file}` });
      if (p.manager === 'husky 8' && !executable(p.file)) problems.push({ what: `${p.file} is not executable: git skips it`, fix: `chmod +x ${p.file}` });
      if (p.manager === 'husky 9' && huskyActive) problems.push(...huskyRunnerProblems(layout), ...huskyInitProblems(env));
      continue;
    }
    const hook = join(p.dir, 'pre-commit');
    if (!existsSync(hook)) {
      problems.push({ what: `${hook} is missing: git runs no pre-commit hook`, fix: reinstall });
      continue;
    }
    if (!readFileSync(hook, 'utf8').includes(SHIM_MARKER)) problems.push({ what: `${hook} is not loopgates' shim (another tool replaced it)`, fix: reinstall });
    if (!executable(hook)) problems.push({ what: `${hook} is not executable: git skips it`, fix: `chmod +x ${hook}` });
    if (hasCR(hook)) problems.push({ what: `${hook} has CRLF line endings: sh cannot run it`, fix: reinstall });
    const shimIsFallback = placements.some((q) => q.kind === 'block' && q.manager === 'husky');
    if (!shimIsFallback && layout.hooksDir !== p.dir) problems.push({ what: `git runs hooks from ${layout.hooksDir}, not ${p.dir}`, fix: reinstall });
  }
  return problems;
}

/**
 * husky 9: git runs <hooks dir>/pre-commit (.husky/_/pre-commit, core.hooksPath resolved from this work tree's top as
 * git does), which sources husky's runner `h` beside it, which runs .husky/pre-commit. .husky/_ is git-ignored, so
 * `git clean -xfd` removes it and a linked worktree never has it: git then finds no hook and runs nothing (F6, F7).
 */
function huskyRunnerProblems(layout: RepoLayout): Problem[] {
  const rel = (f: string) => relative(layout.top, f) || f;
  const runner = join(layout.hooksDir, 'pre-commit');
  const h = join(layout.hooksDir, 'h');
  const hooksPath = layout.hooksPath.local ?? layout.hooksPath.global ?? layout.hooksPath.system ?? rel(layout.hooksDir);
  const linked = layout.gitDir !== layout.commonDir;
  const fix = messages.huskyRunnerFix(layout.top);
  if (!existsSync(runner)) return [{ what: messages.huskyRunnerMissing(rel(runner), linked, hooksPath), fix }];
  if (!executable(runner)) return [{ what: messages.huskyRunnerNotExecutable(rel(runner)), fix: `chmod +x ${runner}` }];
  // husky 9.0 writes `. "${0%/*}/h"`, 9.1 `. "$(dirname "$0")/h"`: a line that sources h beside the runner.
  if (!/^[ \t]*\.[ \t]+.*\/h"?[ \t]*$/m.test(readFileSync(runner, 'utf8'))) return [{ what: messages.huskyRunnerForeign(rel(runner), rel(h)), fix }];
  if (!existsSync(h)) return [{ what: messages.huskyRunnerMissing(rel(h), linked, hooksPath), fix }];
  return [];
}

/**
 * husky 9's h sources `${XDG_CONFIG_HOME:-$HOME/.config}/husky/init.sh` before it reads HUSKY, so a line there that
 * sets HUSKY=0 skips every hook of this user, silently. Read, not run: doctor changes nothing, and init.sh may.
 */
function huskyInitProblems(env: Readonly<Record<string, string | undefined>>): Problem[] {
  const config = env.XDG_CONFIG_HOME || (env.HOME ? join(env.HOME, '.config') : null);
  if (config === null) return [];
  const init = join(config, 'husky', 'init.sh');
  let text: string;
  try {
    text = readFileSync(init, 'utf8');
  } catch {
    return [];
  }
  const at = text.split(/\r?\n/).findIndex((l) => /^\s*(?:export\s+)?HUSKY=(["']?)0\1\s*(?:[;#].*)?$/.test(l));
  return at < 0 ? [] : [{ what: messages.huskyZeroInit(`${init}:${at + 1}`), fix: messages.huskyZeroInitFix(init) }];
}
