// Android `uiautomator dump` window hierarchies (<hierarchy rotation="0"><node index= text= resource-id= class=
// package= content-desc= clickable= bounds="[x1,y1][x2,y2]" …/>), parsed with saxes (XML 1.0 + namespaces). Format:
// AccessibilityNodeInfoDumper in AOSP frameworks/uiautomator (cmds/uiautomator/library/core-src/com/android/uiautomator/core).
// One parse serves both the tap loop (which node carries a label, where to tap) and the dump-audit gate.
import { SaxesParser } from 'saxes';

/** A node's bounds in screen pixels: [x1,y1][x2,y2], x2/y2 exclusive as Rect.toShortString prints them. */
export interface Bounds {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** One `<node>` of a dump. Positions are 1-based line and column of its `<`. */
export interface DumpNode {
  /** Position in `Dump.nodes` (document order). */
  id: number;
  /** `id` of the enclosing node; undefined for a top-level node. */
  parent: number | undefined;
  children: number[];
  text: string;
  resourceId: string;
  contentDesc: string;
  className: string;
  packageName: string;
  clickable: boolean;
  longClickable: boolean;
  focusable: boolean;
  enabled: boolean;
  /** undefined when the `bounds` attribute is absent or not `[x1,y1][x2,y2]`. */
  bounds: Bounds | undefined;
  line: number;
  column: number;
}

/** A parsed dump: its nodes in document order and the ids of the top-level ones (children of <hierarchy>). */
export interface Dump {
  nodes: DumpNode[];
  roots: number[];
  /** Whether the document's root element is <hierarchy> (a whole dump) rather than a bare <node> fragment. */
  hierarchy: boolean;
}

/** A dump that is not well-formed XML, or whose root is neither <hierarchy> nor <node>. */
export class DumpParseError extends Error {
  readonly line: number;
  readonly column: number;
  constructor(message: string, line: number, column: number) {
    super(message);
    this.name = 'DumpParseError';
    this.line = line;
    this.column = column;
  }
}

const BOUNDS = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/;

/** `[x1,y1][x2,y2]` as Bounds; undefined when it is not in that form. */
export function parseBounds(value: string | undefined): Bounds | undefined {
  const m = value === undefined ? null : BOUNDS.exec(value);
  if (!m) return undefined;
  return { x1: Number(m[1]), y1: Number(m[2]), x2: Number(m[3]), y2: Number(m[4]) };
}

/** `[x1,y1][x2,y2]`, as the dump writes bounds. */
export const boundsText = (b: Bounds): string => `[${b.x1},${b.y1}][${b.x2},${b.y2}]`;

/** Whether `b` covers no pixel (x2 <= x1 or y2 <= y1). */
export const zeroArea = (b: Bounds): boolean => b.x2 <= b.x1 || b.y2 <= b.y1;

/**
 * Parse one dump. Throws DumpParseError for malformed XML (truncated output, a half-written file) or a root element
 * that is neither <hierarchy> nor <node>; unknown elements inside are ignored. A leading byte order mark is skipped.
 */
export function parseDump(xml: string): Dump {
  const parser = new SaxesParser({ position: true });
  const nodes: DumpNode[] = [];
  const roots: number[] = [];
  const open: Array<number | undefined> = [];
  let depth = 0;
  let rootName: string | undefined;
  let failure: DumpParseError | undefined;
  // saxes fires `opentagstart` one character past the tag name: the `<` is name length + 1 columns back.
  let tagLine = 1;
  let tagColumn = 1;
  parser.on('opentagstart', (tag) => {
    tagLine = parser.line;
    tagColumn = Math.max(1, parser.column - tag.name.length - 1);
  });
  parser.on('error', (e) => {
    failure ??= new DumpParseError(e.message, parser.line, parser.column);
  });
  parser.on('opentag', (tag) => {
    depth++;
    if (depth === 1) rootName = tag.name;
    if (tag.name !== 'node') {
      open.push(undefined);
      return;
    }
    const a = tag.attributes as Record<string, string>;
    const parent = [...open].reverse().find((x) => x !== undefined);
    const id = nodes.length;
    nodes.push({
      id,
      parent,
      children: [],
      text: a.text ?? '',
      resourceId: a['resource-id'] ?? '',
      contentDesc: a['content-desc'] ?? '',
      className: a.class ?? '',
      packageName: a.package ?? '',
      clickable: a.clickable === 'true',
      longClickable: a['long-clickable'] === 'true',
      focusable: a.focusable === 'true',
      enabled: a.enabled !== 'false',
      bounds: parseBounds(a.bounds),
      line: tagLine,
      column: tagColumn,
    });
    if (parent === undefined) roots.push(id);
    else nodes[parent]!.children.push(id);
    open.push(id);
  });
  parser.on('closetag', () => {
    depth--;
    open.pop();
  });
  const source = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  try {
    parser.write(source).close();
  } catch (e) {
    failure ??= new DumpParseError(e instanceof Error ? e.message : String(e), parser.line, parser.column);
  }
  if (failure) throw failure;
  if (rootName !== 'hierarchy' && rootName !== 'node') {
    throw new DumpParseError(`root element is <${rootName ?? ''}>, not <hierarchy> or <node>: not a uiautomator dump`, 1, 1);
  }
  return { nodes, roots, hierarchy: rootName === 'hierarchy' };
}

/**
 * The screen a dump covers: the union of its top-level nodes' bounds (the active window's root view). undefined when
 * no top-level node has bounds.
 */
export function screenBounds(dump: Dump): Bounds | undefined {
  let out: Bounds | undefined;
  for (const id of dump.roots) {
    const b = dump.nodes[id]!.bounds;
    if (!b) continue;
    out = out ? { x1: Math.min(out.x1, b.x1), y1: Math.min(out.y1, b.y1), x2: Math.max(out.x2, b.x2), y2: Math.max(out.y2, b.y2) } : b;
  }
  return out;
}

/**
 * The labels a node carries, as `loopgates tap --label` matches them: its text, its content-desc, its resource-id, and
 * the part of the resource-id after `/` (`com.example:id/save` -> `save`; Compose `testTag`s surface as bare ids).
 * Empty values are left out; duplicates removed.
 */
export function labelsOf(node: DumpNode): string[] {
  const out: string[] = [];
  const add = (s: string) => {
    if (s !== '' && !out.includes(s)) out.push(s);
  };
  add(node.text);
  add(node.contentDesc);
  add(node.resourceId);
  const slash = node.resourceId.indexOf('/');
  if (slash >= 0) add(node.resourceId.slice(slash + 1));
  return out;
}

/**
 * Where a tap on `node` lands: the node itself when clickable, else its nearest clickable ancestor; undefined when
 * neither it nor any ancestor is clickable.
 */
export function tapTarget(dump: Dump, node: DumpNode): DumpNode | undefined {
  for (let n: DumpNode | undefined = node; n; n = n.parent === undefined ? undefined : dump.nodes[n.parent]) {
    if (n.clickable) return n;
  }
  return undefined;
}

/** The centre of `b` as `input tap` takes it: ((x1+x2)/2, (y1+y2)/2), rounded down to whole pixels. */
export function centreOf(b: Bounds): { x: number; y: number } {
  return { x: Math.floor((b.x1 + b.x2) / 2), y: Math.floor((b.y1 + b.y2) / 2) };
}

/** Whether point (x, y) lies inside `b` (x1 <= x < x2, y1 <= y < y2). */
export const contains = (b: Bounds, x: number, y: number): boolean => x >= b.x1 && x < b.x2 && y >= b.y1 && y < b.y2;

/**
 * Where a node lies on the screen of its dump (screenBounds): `on` when it has an area and `at` lies inside the screen
 * — 'centre': its centre (where a tap on it lands), 'area': some pixel of it (what a user can see). Dumps hold nodes a
 * user cannot see (a pager's next page, collapsed views, prefetched rows), so both the node a tap chooses and the node
 * that shows the expected label must pass this one test.
 */
export type Placement =
  | { on: true; bounds: Bounds; screen: Bounds }
  | { on: false; why: 'no-bounds' }
  | { on: false; why: 'zero-area'; bounds: Bounds }
  | { on: false; why: 'off-screen'; bounds: Bounds; screen: Bounds | undefined };

export function placement(dump: Dump, node: DumpNode, at: 'centre' | 'area'): Placement {
  const b = node.bounds;
  if (!b) return { on: false, why: 'no-bounds' };
  if (zeroArea(b)) return { on: false, why: 'zero-area', bounds: b };
  const screen = screenBounds(dump);
  if (!screen) return { on: false, why: 'off-screen', bounds: b, screen };
  const inside =
    at === 'centre'
      ? contains(screen, centreOf(b).x, centreOf(b).y)
      : !zeroArea({ x1: Math.max(b.x1, screen.x1), y1: Math.max(b.y1, screen.y1), x2: Math.min(b.x2, screen.x2), y2: Math.min(b.y2, screen.y2) });
  return inside ? { on: true, bounds: b, screen } : { on: false, why: 'off-screen', bounds: b, screen };
}

/** A placement that is not on the screen, in words: "no bounds", "zero area (bounds …)", "bounds …, outside the screen …". */
export function placementText(p: Exclude<Placement, { on: true }>): string {
  if (p.why === 'no-bounds') return 'no bounds';
  if (p.why === 'zero-area') return `zero area (bounds ${boundsText(p.bounds)})`;
  return `bounds ${boundsText(p.bounds)}, outside the screen ${p.screen ? boundsText(p.screen) : '(no bounds)'}`;
}
