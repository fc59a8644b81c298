// Maestro flow files (https://docs.maestro.dev/api-reference/configuration/flow-configuration): a config document
// (`appId`, `tags`, `onFlowStart`, `onFlowComplete`), `---`, then a list of commands, each a bare name (`- back`) or
// a one-key map (`- tapOn: {id: x}`). Parsed with `yaml` keeping 1-based lines and columns (LineCounter).
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, visit } from 'yaml';
import type { Document, Node, Pair, YAMLMap } from 'yaml';

/** A 1-based line and column (UTF-16 units) in a flow file. */
export interface Pos {
  line: number;
  column: number;
}

/** Where a command list sits: the flow's own list, a hook of its config, or the inline body of a command. */
export type ListKind = 'main' | 'onFlowStart' | 'onFlowComplete' | 'runFlow' | 'retry' | 'repeat';

/** One command list; `owner` is the command whose `commands:` it is (inline bodies only). */
export interface CommandList {
  /** Unique per process, for visited sets. */
  id: number;
  kind: ListKind;
  cmds: Command[];
  flow: Flow;
  owner?: Command;
}

/** A file named by a command: a subflow (`runFlow`, `retry.file`) or a script (`runScript`). */
export interface FileRef {
  /** As written in the flow. */
  raw: string;
  pos: Pos;
  /** Source offsets of the scalar (quotes included). */
  range: [number, number];
  kind: 'flow' | 'script';
}

/** One command of a list. `arg` is its argument as plain data (null for a bare name). */
export interface Command {
  name: string;
  pos: Pos;
  /** Source offsets of the whole item, from the command name to the end of its argument. */
  range: [number, number];
  arg: unknown;
  /** The argument's YAML node, for positions of its keys. */
  argNode: Node | null;
  list: CommandList;
  index: number;
  /** Inline `commands:` of runFlow / retry / repeat. */
  body?: CommandList;
  ref?: FileRef;
}

/** A problem that makes the file unreadable as a flow (Maestro refuses it too). */
export interface FlowProblem {
  pos: Pos;
  message: string;
}

/** A parsed flow file. A file with problems still has whatever lists could be read. */
export interface Flow {
  path: string;
  /** The config section's `tags` (strings only). */
  tags: string[];
  onFlowStart?: CommandList;
  main: CommandList;
  onFlowComplete?: CommandList;
  problems: FlowProblem[];
  /** Position of a command's named key inside its argument map, when there. */
  keyPos(cmd: Command, ...path: string[]): Pos | undefined;
  /** Position of a command's argument value at `path` (the scalar itself), when there. */
  valuePos(cmd: Command, ...path: string[]): Pos | undefined;
  /** Source offsets of the key and the value at `path` inside a command's argument map (mutation operators). */
  rangeOf(cmd: Command, ...path: string[]): { key: [number, number]; value?: [number, number] } | undefined;
}

let nextListId = 1;

/** Whether `s` holds a `${…}` JavaScript/env expression (never evaluated here). */
export const hasExpression = (s: string): boolean => s.includes('${');

/**
 * Parse the text of the flow at `path` (repository-relative). Never throws: syntax errors, a missing config section
 * and malformed command items become `problems` at their line.
 */
export function parseFlow(path: string, text: string): Flow {
  const lc = new LineCounter();
  const at = (offset: number | undefined): Pos => {
    const p = lc.linePos(offset ?? 0);
    return { line: p.line, column: p.col };
  };
  const problems: FlowProblem[] = [];
  const flow: Flow = {
    path,
    tags: [],
    main: undefined as unknown as CommandList,
    problems,
    keyPos: (cmd, ...keys) => {
      const pair = pairAt(cmd.argNode, keys);
      return pair ? at((pair.key as Node | null)?.range?.[0]) : undefined;
    },
    valuePos: (cmd, ...keys) => {
      if (keys.length === 0) return cmd.argNode?.range ? at(cmd.argNode.range[0]) : undefined;
      const pair = pairAt(cmd.argNode, keys);
      const v = pair?.value as Node | null | undefined;
      return v?.range ? at(v.range[0]) : undefined;
    },
    rangeOf: (cmd, ...keys) => {
      const pair = pairAt(cmd.argNode, keys);
      const k = (pair?.key as Node | null | undefined)?.range;
      if (!pair || !k) return undefined;
      const v = (pair.value as Node | null | undefined)?.range;
      return { key: [k[0], k[1]], ...(v ? { value: [v[0], v[1]] as [number, number] } : {}) };
    },
  };
  const emptyList = (kind: ListKind): CommandList => ({ id: nextListId++, kind, cmds: [], flow });
  flow.main = emptyList('main');
  let docs;
  // The document whose nodes readCommand turns into data (aliases and merge keys resolve against it).
  let doc: Document.Parsed | undefined;
  try {
    // merge: a `<<: {retryTapIfNoChange: true}` is judged as the key it brings in (fresh6 F5), and reported below.
    docs = parseAllDocuments(text, { lineCounter: lc, prettyErrors: true, uniqueKeys: false, merge: true });
  } catch (e) {
    problems.push({ pos: { line: 1, column: 1 }, message: `does not parse as YAML: ${e instanceof Error ? e.message : String(e)}` });
    return flow;
  }
  const list = Array.isArray(docs) ? docs : [];
  for (const d of list) {
    for (const err of d.errors) {
      const lp = err.linePos?.[0];
      problems.push({ pos: lp ? { line: lp.line, column: lp.col } : { line: 1, column: 1 }, message: `does not parse as YAML: ${err.message.split('\n')[0]}` });
    }
  }
  if (problems.length) return flow;
  if (list.length !== 2) {
    const where = list[1]?.contents?.range?.[0] ?? list[0]?.contents?.range?.[0];
    problems.push({
      pos: at(where),
      message:
        list.length < 2
          ? 'has no config section: a flow is a config map (appId: …), a line `---`, then the command list (Maestro refuses it too); add `appId: <your app id>` and `---` at the top'
          : `has ${list.length} YAML documents; a flow has two (config, \`---\`, commands)`,
    });
    doc = list[0];
    if (list.length === 1 && isSeq(list[0]!.contents)) flow.main = readList(list[0]!.contents, 'main');
    return flow;
  }
  const config = list[0]!.contents;
  const commands = list[1]!.contents;
  doc = list[0];
  if (!isMap(config)) {
    problems.push({ pos: at(config?.range?.[0]), message: 'its first document is not a config map (appId: …); Maestro refuses it' });
  } else {
    if (!config.has('appId') && !config.has('url')) problems.push({ pos: at(config.range?.[0]), message: 'its config section has no appId (Maestro refuses it); add `appId: <your app id>`' });
    const tags = config.get('tags');
    if (isSeq(tags)) flow.tags = tags.items.filter((i) => isScalar(i)).map((s) => String((s as { value: unknown }).value));
    for (const hook of ['onFlowStart', 'onFlowComplete'] as const) {
      const node = config.get(hook, true);
      if (node === undefined || node === null) continue;
      if (isSeq(node)) flow[hook] = readList(node, hook);
      else problems.push({ pos: at((node as Node).range?.[0]), message: `${hook} must be a list of commands` });
    }
  }
  if (commands === null || commands === undefined) return flow;
  if (!isSeq(commands)) {
    problems.push({ pos: at((commands as Node).range?.[0]), message: 'its second document is not a list of commands' });
    return flow;
  }
  doc = list[1];
  flow.main = readList(commands, 'main');
  readerDivergence();
  return flow;

  // Maestro reads flows with Jackson, which resolves neither: an alias is read as the anchor's name (a string) and a
  // merge key as a property named "<<" (Maestro refuses it as unknown). The rules judge what the YAML means; the flow
  // is still not one Maestro runs as written.
  function readerDivergence(): void {
    for (const d of list) {
      visit(d, {
        Alias: (_, node) => {
          problems.push({ pos: at(node.range?.[0]), message: `uses the YAML alias *${node.source}: Maestro's YAML reader (Jackson) reads it as the text "${node.source}", not the anchored value; write the value out` });
        },
        Pair: (_, pair) => {
          const k = pair.key;
          if (isScalar(k) && typeof k.value === 'symbol') {
            problems.push({ pos: at(k.range?.[0]), message: "uses a YAML merge key (<<): Maestro's YAML reader (Jackson) does not merge, it refuses \"<<\" as an unknown property; write the keys out" });
          }
        },
      });
    }
  }

  function readList(seq: Node, kind: ListKind, owner?: Command): CommandList {
    const l: CommandList = { id: nextListId++, kind, cmds: [], flow, ...(owner ? { owner } : {}) };
    if (!isSeq(seq)) return l;
    for (const item of seq.items) {
      const cmd = readCommand(item as Node, l);
      if (cmd) l.cmds.push(cmd);
    }
    return l;
  }

  function readCommand(item: Node | null, l: CommandList): Command | undefined {
    if (isScalar(item)) {
      if (item.value === null) return undefined;
      return { name: String(item.value), pos: at(item.range?.[0]), range: [item.range?.[0] ?? 0, item.range?.[1] ?? 0], arg: null, argNode: null, list: l, index: l.cmds.length };
    }
    if (!isMap(item) || item.items.length !== 1) {
      problems.push({ pos: at(item?.range?.[0]), message: 'a command must be a name or a map with one key (`- tapOn: …`)' });
      return undefined;
    }
    const pair = item.items[0] as Pair<Node | null, Node | null>;
    const key = pair.key;
    const argNode = pair.value ?? null;
    let arg: unknown = null;
    try {
      // toJS with the document resolves aliases and merge keys (toJSON without it leaves an alias as {source}).
      arg = argNode && doc ? argNode.toJS(doc) : null;
    } catch (e) {
      problems.push({ pos: at(argNode?.range?.[0]), message: `does not resolve as YAML: ${e instanceof Error ? e.message : String(e)}` });
    }
    const cmd: Command = {
      name: isScalar(key) ? String(key.value) : String(key),
      pos: at(key?.range?.[0]),
      range: [key?.range?.[0] ?? item.range?.[0] ?? 0, argNode?.range?.[1] ?? key?.range?.[1] ?? item.range?.[1] ?? 0],
      arg,
      argNode,
      list: l,
      index: l.cmds.length,
    };
    const refAt = (node: unknown, kind: FileRef['kind']) => {
      if (isScalar(node) && typeof node.value === 'string') cmd.ref = { raw: node.value, pos: at(node.range?.[0]), range: [node.range?.[0] ?? 0, node.range?.[1] ?? 0], kind };
    };
    if (cmd.name === 'runFlow' || cmd.name === 'retry' || cmd.name === 'repeat') {
      if (cmd.name === 'runFlow' && isScalar(argNode)) refAt(argNode, 'flow');
      if (isMap(argNode)) {
        if (cmd.name !== 'repeat') refAt(argNode.get('file', true), 'flow');
        const body = argNode.get('commands', true);
        if (isSeq(body)) cmd.body = readList(body, cmd.name, cmd);
      }
    } else if (cmd.name === 'runScript') {
      if (isScalar(argNode)) refAt(argNode, 'script');
      else if (isMap(argNode)) refAt(argNode.get('file', true), 'script');
    }
    return cmd;
  }
}

function pairAt(node: Node | null, keys: readonly string[]): Pair<unknown, unknown> | undefined {
  let n: unknown = node;
  let pair: Pair<unknown, unknown> | undefined;
  for (const k of keys) {
    if (!isMap(n)) return undefined;
    pair = (n as YAMLMap).items.find((p) => isScalar(p.key) && String(p.key.value) === k) as Pair<unknown, unknown> | undefined;
    if (!pair) return undefined;
    n = pair.value;
  }
  return pair;
}

/** Every command of `list` and of the inline bodies inside it, depth first, in file order. */
export function* allCommands(list: CommandList): Generator<Command> {
  for (const c of list.cmds) {
    yield c;
    if (c.body) yield* allCommands(c.body);
  }
}

/** Every command list of a flow: hooks, main, and their inline bodies' commands (via allCommands). */
export function flowLists(flow: Flow): CommandList[] {
  return [flow.onFlowStart, flow.main, flow.onFlowComplete].filter((l): l is CommandList => l !== undefined);
}
