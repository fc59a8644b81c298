// Maestro flows the gate's `flows` globs do not select (fresh4 F1: mattermost-mobile keeps 21 under
// detox/maestro/flows/, none under .maestro/): install said "no input" and every commit to them went unjudged.
import { excludeMatcher } from '../../core/exclude.js';
import type { GateContext } from '../../core/types.js';
import { CHECKS, NEUTRAL, PLAIN_ACTIONS, SELECTOR_ACTIONS, TAPS, TYPING } from './commands.js';
import type { MaestroFlowsConfig } from './config.js';

const YAML = /\.ya?ml$/i;
const HEADER = /^(?:appId|url):[ \t]*\S/m;
const SEPARATOR = /^---[ \t]*$/m;
const KNOWN = new Set([...TAPS, ...CHECKS, ...NEUTRAL, ...PLAIN_ACTIONS, ...SELECTOR_ACTIONS, ...TYPING, 'runFlow', 'runScript', 'evalScript', 'retry', 'repeat', 'takeScreenshot', 'startRecording', 'stopRecording', 'addMedia', 'setPermissions', 'setClipboard', 'assertWithAI', 'assertNoDefectsWithAI', 'extractTextWithAI']);
const COMMAND = /^-[ \t]+["']?([A-Za-z]+)["']?[ \t]*(?::|$)/gm;

/** True when `text` reads as a Maestro flow: an `appId:`/`url:` header, `---`, then a known command. */
export function looksLikeFlow(text: string): boolean {
  const sep = SEPARATOR.exec(text);
  if (!sep || !HEADER.test(text.slice(0, sep.index))) return false;
  for (const m of text.slice(sep.index).matchAll(COMMAND)) if (KNOWN.has(m[1]!)) return true;
  return false;
}

/** Tracked YAML files outside the selection that look like flows, and the `flows` globs (one per folder) that take them in. */
export async function unselectedFlows(ctx: GateContext<MaestroFlowsConfig>, selected: readonly string[]): Promise<{ files: string[]; fix: string; settings: { flows: string[] } } | null> {
  const taken = new Set(selected);
  const excluded = excludeMatcher(ctx.config.exclude);
  const files: string[] = [];
  const others: string[] = []; // YAML outside the selection that is no flow: a folder glob must not take them in
  for (const p of await ctx.ws.allPaths()) {
    if (!YAML.test(p) || taken.has(p) || excluded(p)) continue;
    let text: string;
    try {
      text = await ctx.ws.readText(p);
    } catch {
      continue;
    }
    (looksLikeFlow(text) ? files : others).push(p);
  }
  if (files.length === 0) return null;
  files.sort();
  const globs = cover(files, others).flatMap((d) => (d.endsWith('/') ? [`${d}**/*.yaml`, `${d}**/*.yml`] : [d]));
  const flows = [...ctx.config.flows, ...globs];
  return { files, fix: `add to loopgates.yaml: gates.maestro-flows.flows: [${flows.map((g) => JSON.stringify(g)).join(', ')}]`, settings: { flows } };
}

/**
 * The fewest folders (`dir/`) and single files that hold every path of `flows` and none of `others`: the deepest
 * common folder when no other YAML is under it, else its subfolders and files, recursively.
 */
function cover(flows: readonly string[], others: readonly string[], base = common(flows)): string[] {
  const under = (d: string) => (p: string) => p.startsWith(d);
  if (base !== '' && !others.some(under(base))) return [base];
  const out: string[] = [];
  const children = new Map<string, string[]>();
  for (const f of flows) {
    const rest = f.slice(base.length);
    const slash = rest.indexOf('/');
    if (slash < 0) out.push(f);
    else {
      const child = `${base}${rest.slice(0, slash + 1)}`;
      children.set(child, [...(children.get(child) ?? []), f]);
    }
  }
  for (const [child, list] of children) out.push(...cover(list, others.filter(under(child)), child));
  return out.sort();
}

/** The deepest folder (`a/b/`, or '' for the top) holding every path. */
function common(paths: readonly string[]): string {
  let prefix = paths[0]!.slice(0, paths[0]!.lastIndexOf('/') + 1);
  for (const p of paths) while (!p.startsWith(prefix)) prefix = prefix.slice(0, prefix.slice(0, -1).lastIndexOf('/') + 1);
  return prefix;
}
