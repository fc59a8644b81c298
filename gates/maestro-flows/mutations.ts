// Mutation operators of maestro-flows (DESIGN.md "mutation"): each injects one tap-loop defect into a real flow file,
// by source offsets from the `yaml` parse (the rest of the file is kept byte for byte), at a line the gate must report.
// Pure: they parse the text they are given and read nothing else.
import type { Mutant, MutationOperator } from '../../core/types.js';
import { CHECKS, NEUTRAL, obj, PLAIN_ACTIONS, TAPS, TYPING, WORKSPACE_CONFIG } from './commands.js';
import { allCommands, flowLists, parseFlow, type Command, type Flow } from './flow.js';

const FLOW_FILE = /\.ya?ml$/i;

const appliesTo = (p: string) => FLOW_FILE.test(p) && !WORKSPACE_CONFIG.test(p);

/** 1-based line of `offset` in `text`. */
function lineAt(text: string, offset: number): number {
  let n = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}
const lineStart = (text: string, off: number) => text.lastIndexOf('\n', off - 1) + 1;
function lineEnd(text: string, off: number): number {
  const i = text.indexOf('\n', off);
  return i === -1 ? text.length : i + 1;
}
/** Offset just after the last non-blank character before `end` (a node's range end can include trailing blanks). */
function trimmedEnd(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && /\s/.test(text[e - 1]!)) e--;
  return e;
}

/** The parsed flow of `content`, or null when it does not parse cleanly (no place for a mutant). */
function parsed(path: string, content: string): Flow | null {
  const f = parseFlow(path, content);
  return f.problems.length ? null : f;
}

function commands(flow: Flow): Command[] {
  return flowLists(flow).flatMap((l) => [...allCommands(l)]);
}

/** One of `xs`, chosen by the seeded `random`. */
function pick<T>(xs: readonly T[], random: () => number): T | null {
  return xs.length ? xs[Math.min(xs.length - 1, Math.floor(random() * xs.length))]! : null;
}

const isBlockItem = (content: string, c: Command) => content[c.range[0] - 2] === '-' || /^\s*-\s*$/.test(content.slice(lineStart(content, c.range[0]), c.range[0]));

/** What delete-check needs to know of a flow: whether it runs on its own, and what runs next after it ends (rules.ts nextAfterFlow). */
interface CallFacts {
  entry: boolean;
  next: string[];
}

/**
 * Delete the check that follows a tap when what then follows the tap is a plain action (back, swipe, launchApp…, or a
 * tap at a point): the next command in the same list (past a typing sequence), or, for a subflow's last tap, what its
 * callers run next (the defect is then caught through the caller).
 */
const deleteCheck: MutationOperator<CallFacts> = {
  id: 'maestro-delete-check',
  description: 'delete the check that follows a real tap (the next action then follows the tap unchecked)',
  appliesTo,
  async facts(ctx, path) {
    const [{ flowSetOf }, { nextAfterFlow }] = await Promise.all([import('./judge.js'), import('./rules.js')]);
    const set = await flowSetOf(ctx);
    return { entry: set.entryPoints.has(path), next: nextAfterFlow(set, path) };
  },
  mutate(path, content, random, facts) {
    const flow = parsed(path, content);
    if (!flow) return null;
    const plain = (n: string) => PLAIN_ACTIONS.has(n) || n.endsWith(' point');
    // Deleting a flow's last check leaves its last tap to what runs after the flow: a plain action in a caller, or
    // the end of a flow run on its own.
    const endsBadly = facts !== undefined && facts.next.some((n) => plain(n) || n === 'end');
    const places = commands(flow).filter((c) => {
      if (!TAPS.has(c.name) || obj(c.arg)?.point !== undefined) return false;
      const check = c.list.cmds[c.index + 1];
      if (!check || !CHECKS.has(check.name) || obj(check.arg)?.optional === true || !isBlockItem(content, check) || lineAt(content, check.range[0]) <= c.pos.line) return false;
      // What then follows the tap, past neutral commands and a typing sequence (a focus tap is judged after it).
      let k = c.index + 2;
      while (c.list.cmds[k] && (TYPING.has(c.list.cmds[k]!.name) || NEUTRAL.has(c.list.cmds[k]!.name))) k++;
      const after = c.list.cmds[k];
      if (after) return PLAIN_ACTIONS.has(after.name) || (TAPS.has(after.name) && obj(after.arg)?.point !== undefined);
      return endsBadly && c.list === flow.main && !flow.onFlowComplete;
    });
    const tap = pick(places, random);
    if (!tap) return null;
    const check = tap.list.cmds[tap.index + 1]!;
    const from = lineStart(content, check.range[0]);
    const to = lineEnd(content, trimmedEnd(content, check.range[0], check.range[1]) - 1);
    const next = tap.list.cmds.slice(tap.index + 2).find((x) => !TYPING.has(x.name) && !NEUTRAL.has(x.name))?.name;
    return { content: content.slice(0, from) + content.slice(to), line: tap.pos.line, rule: 'tap-without-check', description: `deleted the ${check.name} after ${tap.name} at line ${tap.pos.line} (${next ? `it is followed by ${next}` : facts?.next.some(plain) ? `it now ends the flow; a caller goes on with ${facts.next.find(plain)!}` : 'it now ends a flow run on its own'})` };
  },
};

function maxRetriesPlaces(flow: Flow): Array<{ c: Command; key: [number, number]; value: [number, number] }> {
  const out: Array<{ c: Command; key: [number, number]; value: [number, number] }> = [];
  for (const c of commands(flow)) {
    if (c.name !== 'retry' || typeof obj(c.arg)?.maxRetries !== 'number') continue;
    const r = flow.rangeOf(c, 'maxRetries');
    if (r?.value) out.push({ c, key: r.key, value: r.value });
  }
  return out;
}

const raiseMaxRetries: MutationOperator = {
  id: 'maestro-raise-max-retries',
  description: 'raise a retry\'s maxRetries to 10 (Maestro silently caps it at 3)',
  appliesTo,
  mutate(path, content, random) {
    const flow = parsed(path, content);
    const place = flow && pick(maxRetriesPlaces(flow), random);
    if (!place) return null;
    return { content: content.slice(0, place.value[0]) + '10' + content.slice(place.value[1]), line: lineAt(content, place.key[0]), rule: 'retry-bound', description: `maxRetries ${String(obj(place.c.arg)!.maxRetries)} -> 10` };
  },
};

const deleteMaxRetries: MutationOperator = {
  id: 'maestro-delete-max-retries',
  description: 'delete a retry\'s maxRetries (the bound is then Maestro\'s unwritten default)',
  appliesTo,
  mutate(path, content, random) {
    const flow = parsed(path, content);
    if (!flow) return null;
    // Only a maxRetries on a line of its own, below the retry key, can be deleted as a line.
    const places = maxRetriesPlaces(flow).filter((p) => lineAt(content, p.key[0]) > p.c.pos.line && content.slice(lineStart(content, p.key[0]), p.key[0]).trim() === '');
    const place = pick(places, random);
    if (!place) return null;
    const from = lineStart(content, place.key[0]);
    return { content: content.slice(0, from) + content.slice(lineEnd(content, place.value[1])), line: place.c.pos.line, rule: 'retry-bound', description: `deleted maxRetries of the retry at line ${place.c.pos.line}` };
  },
};

const addRetap: MutationOperator = {
  id: 'maestro-add-retap',
  description: 'add retryTapIfNoChange: true to a tap',
  appliesTo,
  mutate(path, content, random) {
    const flow = parsed(path, content);
    if (!flow) return null;
    const places = commands(flow).filter((c) => c.name === 'tapOn' && (obj(c.arg)?.retryTapIfNoChange === undefined) && (typeof c.arg === 'string' || obj(c.arg)) && isBlockItem(content, c));
    const tap = pick(places, random);
    if (!tap) return null;
    const indent = ' '.repeat(tap.pos.column - 1 + 2);
    if (typeof tap.arg === 'string') {
      // `- tapOn: "Label"` on one line becomes a map keeping the label as its text selector.
      const value = tap.argNode?.range;
      if (!value || lineAt(content, value[1]) !== tap.pos.line) return null;
      const lineEndAt = lineEnd(content, value[1]);
      const text = `tapOn:\n${indent}text: ${content.slice(value[0], value[1])}\n${indent}retryTapIfNoChange: true\n`;
      return { content: content.slice(0, tap.range[0]) + text + content.slice(lineEndAt), line: tap.pos.line + 2, rule: 'blind-retap', description: `added retryTapIfNoChange: true to the tapOn at line ${tap.pos.line}` };
    }
    const first = tap.argNode?.range?.[0];
    if (first === undefined || lineAt(content, first) <= tap.pos.line) return null;
    const keyIndent = ' '.repeat(first - lineStart(content, first));
    const at = lineStart(content, first);
    return { content: content.slice(0, at) + `${keyIndent}retryTapIfNoChange: true\n` + content.slice(at), line: lineAt(content, first), rule: 'blind-retap', description: `added retryTapIfNoChange: true to the tapOn at line ${tap.pos.line}` };
  },
};

const repeatWhile: MutationOperator = {
  id: 'maestro-repeat-while',
  description: 'turn a repeat {times} into a while-only repeat',
  appliesTo,
  mutate(path, content, random) {
    const flow = parsed(path, content);
    if (!flow) return null;
    const places = commands(flow).filter((c) => c.name === 'repeat' && typeof obj(c.arg)?.times === 'number' && flow.rangeOf(c, 'times')?.value && lineAt(content, flow.rangeOf(c, 'times')!.key[0]) > c.pos.line);
    const rep = pick(places, random);
    if (!rep) return null;
    const r = flow.rangeOf(rep, 'times')!;
    const from = lineStart(content, r.key[0]);
    const indent = content.slice(from, r.key[0]);
    const replacement = obj(rep.arg)?.while !== undefined ? '' : `${indent}while:\n${indent}  notVisible: "loopgates mutant"\n`;
    return { content: content.slice(0, from) + replacement + content.slice(lineEnd(content, r.value![1])), line: rep.pos.line, rule: 'unbounded-repeat', description: `repeat at line ${rep.pos.line}: times ${String(obj(rep.arg)!.times)} -> while only` };
  },
};

const pointTap: MutationOperator = {
  id: 'maestro-point-tap',
  description: 'replace a tap\'s selector with point: "540,1200"',
  appliesTo,
  mutate(path, content, random) {
    const flow = parsed(path, content);
    if (!flow) return null;
    const places = commands(flow).filter((c) => TAPS.has(c.name) && obj(c.arg)?.point === undefined && isBlockItem(content, c));
    const tap = pick(places, random);
    if (!tap) return null;
    const end = lineEnd(content, trimmedEnd(content, tap.range[0], tap.range[1]) - 1);
    const indent = ' '.repeat(tap.pos.column - 1 + 2);
    return { content: content.slice(0, tap.range[0]) + `${tap.name}:\n${indent}point: "540,1200"\n` + content.slice(end), line: tap.pos.line + 1, rule: 'point-tap', description: `the ${tap.name} at line ${tap.pos.line} taps pixel 540,1200 instead of its selector` };
  },
};

const missingRunFlow: MutationOperator = {
  id: 'maestro-missing-runflow',
  description: 'point a runFlow (or retry file) at a file that does not exist',
  appliesTo,
  mutate(path, content, random) {
    const flow = parsed(path, content);
    if (!flow) return null;
    const places = commands(flow).filter((c) => c.ref?.kind === 'flow' && !c.ref.raw.includes('${'));
    const c = pick(places, random);
    if (!c?.ref) return null;
    const raw = c.ref.raw;
    const slash = raw.lastIndexOf('/');
    const target = `${raw.slice(0, slash + 1)}loopgates-missing-${raw.slice(slash + 1)}`;
    return { content: content.slice(0, c.ref.range[0]) + JSON.stringify(target) + content.slice(c.ref.range[1]), line: c.ref.pos.line, rule: 'missing-file', description: `${c.name} at line ${c.ref.pos.line} now runs ${target}, which does not exist` };
  },
};

/** The operators, in report order. */
export const maestroFlowsMutations: readonly MutationOperator[] = [deleteCheck as MutationOperator, raiseMaxRetries, deleteMaxRetries, addRetap, repeatWhile, pointTap, missingRunFlow];

export type { Mutant };
