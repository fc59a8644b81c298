// The dump-audit gate's run: parse each dump, audit it (audit.ts), and when the repository has string catalogs, look
// up the text each node shows. Loaded by index.ts only when the gate has inputs.
import type { GateContext, GateOutput } from '../../core/types.js';
import { DumpParseError, parseDump, type Dump } from '../../scripts/device/dump.js';
import { loadBaseIndex, loadCatalog } from '../string-parity/catalogs.js';
import type { Workspace } from '../../core/types.js';
import { auditDump, RULES } from './audit.js';
import type { DumpAuditConfig } from './index.js';

/** The base catalogs' values, and for text only a translation holds, that key and its file. */
export interface CatalogTexts {
  catalogs: number;
  base: ReadonlySet<string>;
  translated: ReadonlyMap<string, { key: string; file: string }>;
}

/** Every base value of the snapshot's catalogs (string-parity's discovery), and the translations' values by text. */
export async function catalogTexts(ws: Workspace): Promise<CatalogTexts> {
  const index = await loadBaseIndex(ws);
  const translated = new Map<string, { key: string; file: string }>();
  let catalogs = 0;
  for (const g of index.set.groups) {
    for (const f of g.files) {
      catalogs++;
      if (f.isBase) continue;
      const loaded = await loadCatalog(ws, f);
      for (const l of loaded.locales) for (const e of l.entries) if (typeof e.value === 'string' && !translated.has(e.value)) translated.set(e.value, { key: e.key, file: f.path });
    }
  }
  return { catalogs, base: new Set(index.byValue.keys()), translated };
}

const hasLetter = (s: string): boolean => /\p{L}/u.test(s);

/**
 * Findings of one dump's text (pure): each node's `text` with a letter that is no base value (whitespace-trimmed).
 * Text a translation holds names its key: the app shows a translation where the base text belongs, or hard-codes it.
 */
export function textFindings(dump: Dump, texts: CatalogTexts, severity: 'error' | 'warning'): GateOutput['findings'] {
  const out: GateOutput['findings'] = [];
  for (const n of dump.nodes) {
    const t = n.text.trim();
    if (!t || !hasLetter(t) || texts.base.has(t) || texts.base.has(n.text)) continue;
    const tr = texts.translated.get(t);
    const why = tr ? `it is the translation of key ${tr.key} in ${tr.file}, not the base text` : 'no base catalog holds it';
    out.push({ rule: RULES.notInCatalog, file: '', line: n.line, column: n.column, severity, message: `text ${JSON.stringify(t)} on screen: ${why} (hard-coded text?)` });
  }
  return out;
}

export async function judge(ctx: GateContext<DumpAuditConfig>, inputs: readonly string[]): Promise<GateOutput> {
  const findings: GateOutput['findings'] = [];
  let nodes = 0;
  let files = 0;
  let texts: CatalogTexts | undefined;
  if (ctx.config.catalogText !== 'off') {
    texts = await catalogTexts(ctx.ws);
    if (texts.catalogs === 0) texts = undefined;
  }
  const totals = { clickable: 0, unlabeled: 0, duplicateLabels: 0, zeroArea: 0 };
  for (const path of inputs) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const xml = await ctx.ws.readText(path);
    files++;
    let dump;
    try {
      dump = parseDump(xml);
    } catch (e) {
      const at = e instanceof DumpParseError ? e : { line: 1, column: 1, message: String(e) };
      findings.push({ rule: RULES.unparsable, file: path, line: at.line, column: at.column, severity: 'error', message: `not a whole uiautomator dump: ${at.message}` });
      continue;
    }
    if (dump.nodes.length === 0) {
      findings.push({ rule: RULES.unparsable, file: path, line: 1, column: 1, severity: 'error', message: 'the dump holds no node: a failed dump, not an empty screen' });
      continue;
    }
    nodes += dump.nodes.length;
    const r = auditDump(dump);
    for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += r.counts[k];
    for (const f of r.findings) findings.push({ ...f, file: path, severity: 'error' });
    if (texts) for (const f of textFindings(dump, texts, ctx.config.catalogText === 'error' ? 'error' : 'warning')) findings.push({ ...f, file: path });
    ctx.log(`${path}: ${JSON.stringify(r.counts)}`);
  }
  const notes = [`${totals.clickable} clickable, ${totals.unlabeled} unlabeled, ${totals.duplicateLabels} labels on several controls, ${totals.zeroArea} zero-area${texts ? `; text checked against ${texts.catalogs} catalog files` : ''}`];
  return { findings, counts: { files, items: nodes }, itemUnit: 'nodes', notes };
}
