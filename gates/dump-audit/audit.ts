// What the tap loop needs from a screen, judged over one parsed uiautomator dump (scripts/device/dump.ts): every
// control addressable by a label, no label that taps two controls, no control without area. Pure: the gate, the
// `dump-audit --device` verb and the mutation operators call it on strings.
import { boundsText, labelsOf, tapTarget, zeroArea } from '../../scripts/device/dump.js';
import type { Dump, DumpNode } from '../../scripts/device/dump.js';

/** Rule ids of the findings (README.md beside this file). */
export const RULES = {
  /** A clickable or focusable node with no label of its own or of a labelled descendant: the agent cannot address it. */
  unlabeled: 'unlabeled-control',
  /** A clickable node every one of whose labels also taps another clickable node: `tap --label` can never choose it. */
  ambiguous: 'ambiguous-label',
  /** A clickable node whose bounds cover no pixel (or are missing): it cannot be tapped. */
  zeroArea: 'zero-area-control',
  /** Text on screen that is no value of the base string catalog (hard-coded text); with the key when a translation has it. */
  notInCatalog: 'text-not-in-catalog',
  /** Not a whole dump (malformed XML) or a dump with no node: nothing could be judged. */
  unparsable: 'unparsable-dump',
} as const;

/** Per-dump counts, asserted per corpus file in the tests. */
export interface DumpCounts {
  nodes: number;
  clickable: number;
  /** Controls (clickable or focusable) no label can address. */
  unlabeled: number;
  /** Labels that tap more than one clickable node. */
  duplicateLabels: number;
  /** Clickable nodes with zero area. */
  zeroArea: number;
}

/** One finding, at the node's `<` (1-based line and column). */
export interface AuditFinding {
  rule: string;
  line: number;
  column: number;
  message: string;
}

const describe = (n: DumpNode): string => `${n.className.slice(n.className.lastIndexOf('.') + 1) || 'node'} ${n.bounds ? boundsText(n.bounds) : '(no bounds)'}`;

/**
 * Whether `node` carries a label or has a labelled descendant that a tap on that label would bring back to it: for a
 * clickable node, descendants inside another clickable node do not count (tapping their label taps that node); a
 * focusable, non-clickable node is not tapped by the loop, so any labelled descendant names it.
 */
function addressable(dump: Dump, node: DumpNode): boolean {
  if (labelsOf(node).length > 0) return true;
  const stack = [...node.children];
  while (stack.length) {
    const c = dump.nodes[stack.pop()!]!;
    if (node.clickable && c.clickable) continue;
    if (labelsOf(c).length > 0) return true;
    stack.push(...c.children);
  }
  return false;
}

/** Audit one dump: counts and findings (unlabeled, ambiguous, zero-area), in document order. */
export function auditDump(dump: Dump): { counts: DumpCounts; findings: AuditFinding[] } {
  const findings: AuditFinding[] = [];
  const clickable = dump.nodes.filter((n) => n.clickable);
  // label -> distinct clickable targets it taps (as `loopgates tap` resolves it).
  const targetsOf = new Map<string, Set<number>>();
  // target -> the labels that tap it
  const labelsTo = new Map<number, Set<string>>();
  for (const n of dump.nodes) {
    const labels = labelsOf(n);
    if (!labels.length) continue;
    const t = tapTarget(dump, n);
    if (!t) continue;
    for (const l of labels) {
      (targetsOf.get(l) ?? targetsOf.set(l, new Set()).get(l)!).add(t.id);
      (labelsTo.get(t.id) ?? labelsTo.set(t.id, new Set()).get(t.id)!).add(l);
    }
  }
  let unlabeled = 0;
  let zero = 0;
  for (const n of dump.nodes) {
    if ((n.clickable || n.focusable) && !addressable(dump, n)) {
      unlabeled++;
      findings.push({
        rule: RULES.unlabeled,
        line: n.line,
        column: n.column,
        message: `${n.clickable ? 'clickable' : 'focusable'} ${describe(n)} has no text, content-desc or resource-id, nor a labelled child: an agent cannot address it (add a contentDescription, or a testTag / resource-id)`,
      });
    }
    if (n.clickable && (!n.bounds || zeroArea(n.bounds))) {
      zero++;
      findings.push({ rule: RULES.zeroArea, line: n.line, column: n.column, message: `clickable ${describe(n)} has zero area: it cannot be tapped` });
    }
    const labels = n.clickable ? labelsTo.get(n.id) : undefined;
    if (labels && [...labels].every((l) => targetsOf.get(l)!.size > 1)) {
      const shared = [...labels].map((l) => `${JSON.stringify(l)} (${targetsOf.get(l)!.size} nodes)`).join(', ');
      findings.push({ rule: RULES.ambiguous, line: n.line, column: n.column, message: `clickable ${describe(n)} is reachable only by labels that also tap other nodes: ${shared}; give it a label of its own` });
    }
  }
  const duplicateLabels = [...targetsOf.values()].filter((s) => s.size > 1).length;
  return { counts: { nodes: dump.nodes.length, clickable: clickable.length, unlabeled, duplicateLabels, zeroArea: zero }, findings };
}
