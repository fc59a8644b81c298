// Mutation operators of dump-audit (pure: they parse the content they are given): strip a real control's label, and
// put another control's label on it. Each picks a clickable node labelled only by its own attributes, so the defect
// lands on exactly that node (its line is the mutant's line).
import type { Mutant, MutationOperator } from '../../core/types.js';
import { labelsOf, parseDump } from '../../scripts/device/dump.js';
import type { Dump, DumpNode } from '../../scripts/device/dump.js';
import { RULES } from './audit.js';

const DUMP_PATH = /(?:\.uix|(?:^|\/)window_dump[^/]*\.xml)$/;

const escapeAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** Offset of the node's start tag in `content` and the tag's text (from `<` to its `>`). */
function tagOf(content: string, node: DumpNode): { start: number; end: number } {
  let offset = 0;
  for (let line = 1; line < node.line; line++) offset = content.indexOf('\n', offset) + 1;
  const start = offset + node.column - 1;
  return { start, end: content.indexOf('>', start) + 1 };
}

/** Clickable nodes whose only labels are their own (no labelled descendant outside a nested clickable). */
function ownLabelled(dump: Dump): DumpNode[] {
  return dump.nodes.filter((n) => {
    if (!n.clickable || labelsOf(n).length === 0) return false;
    const stack = [...n.children];
    while (stack.length) {
      const c = dump.nodes[stack.pop()!]!;
      if (c.clickable) continue;
      if (labelsOf(c).length) return false;
      stack.push(...c.children);
    }
    return true;
  });
}

function parsed(content: string): Dump | null {
  try {
    return parseDump(content);
  } catch {
    return null;
  }
}

/** `content` with the label attributes of `node`'s start tag set to `text` (and content-desc, resource-id emptied). */
function relabel(content: string, node: DumpNode, text: string): string {
  const { start, end } = tagOf(content, node);
  const tag = content
    .slice(start, end)
    .replace(/(\stext=")[^"]*"/, `$1${escapeAttr(text)}"`)
    .replace(/(\scontent-desc=")[^"]*"/, '$1"')
    .replace(/(\sresource-id=")[^"]*"/, '$1"');
  return content.slice(0, start) + tag + content.slice(end);
}

export const stripLabel: MutationOperator = {
  id: 'dump-strip-label',
  description: "remove a real control's text, content-desc and resource-id",
  appliesTo: (path) => DUMP_PATH.test(path),
  mutate(_path, content, random): Mutant | null {
    const dump = parsed(content);
    const candidates = dump ? ownLabelled(dump) : [];
    if (!candidates.length) return null;
    const node = candidates[Math.floor(random() * candidates.length)]!;
    return { content: relabel(content, node, ''), line: node.line, rule: RULES.unlabeled, description: `stripped the label ${JSON.stringify(labelsOf(node)[0])} of the ${node.className} at ${node.line}:${node.column}` };
  },
};

export const duplicateLabel: MutationOperator = {
  id: 'dump-duplicate-label',
  description: "give a control another control's label, and only that",
  appliesTo: (path) => DUMP_PATH.test(path),
  mutate(_path, content, random): Mutant | null {
    const dump = parsed(content);
    const candidates = dump ? ownLabelled(dump) : [];
    if (!dump || candidates.length < 2) return null;
    const node = candidates[Math.floor(random() * candidates.length)]!;
    const donors = dump.nodes.filter((n) => n.clickable && n.id !== node.id && labelsOf(n).length > 0);
    if (!donors.length) return null;
    const donor = donors[Math.floor(random() * donors.length)]!;
    const label = labelsOf(donor)[0]!;
    return {
      content: relabel(content, node, label),
      line: node.line,
      rule: RULES.ambiguous,
      description: `gave the ${node.className} at ${node.line}:${node.column} the label ${JSON.stringify(label)} of the ${donor.className} at ${donor.line}:${donor.column}`,
    };
  },
};

export const dumpAuditMutations: readonly MutationOperator[] = [stripLabel, duplicateLabel];
