// Markup in catalog texts: react-i18next `<Trans>` component slots and kept HTML nodes (`<0>…</0>`, `<em>…</em>`,
// `<br/>`; react.i18next.com/latest/trans-component), HTML in Apple `.strings` values (read with
// NSAttributedString's HTML importer) and Android styled text (`<b>`, `<a href>`, `<xliff:g>`;
// developer.android.com/guide/topics/resources/string-resource#StylingWithHTML), as element tags the parser saw or
// as tags written in the text (`&lt;b>` read with Html.fromHtml).

/** One tag: `<em>` (open), `</em>` (close), `<br/>` (self-closing; HTML void elements written `<br>` count so). */
export interface MarkupTag {
  name: string;
  kind: 'open' | 'close' | 'self';
}

// HTML void elements (html.spec.whatwg.org/#void-elements): `<br>` is complete on its own.
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
// A tag name (letters, digits, `:` for xliff:g, or an index `<0>`), then attributes up to `>`.
const TAG = /<(\/?)([A-Za-z][\w:.-]*|\d+)((?:\s+[^<>]*?)?)\s*(\/?)>/g;

// Tags a runtime renders as formatting: Android's Html.fromHtml and styled-text tags (android.text.Html's tag handler,
// xliff:g, annotation), HTML's inline phrasing elements and NSAttributedString's HTML. Any other lowercase name
// written in a translation (`&lt;head&gt;`, `<username>`) is markup only when its base writes the same name too.
const FORMATTING = new Set(['a', 'abbr', 'annotation', 'b', 'big', 'blockquote', 'br', 'cite', 'code', 'del', 'dfn', 'div', 'em', 'font', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img', 'ins', 'kbd', 'li', 'mark', 'ol', 'p', 'q', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'tt', 'u', 'ul', 'var', 'xliff:g']);

/** One tag as written: its tag, the name's own spelling, and whether it was written self-closing (`<br/>`). */
interface Written {
  tag: MarkupTag;
  spelling: string;
  selfClosing: boolean;
}

function written(text: string): Written[] {
  if (!text.includes('<')) return [];
  const out: Written[] = [];
  for (const m of text.matchAll(TAG)) {
    const name = m[2]!.toLowerCase();
    // `<a` followed by attributes needs a space; `<a>` none. A close tag has no attributes.
    if (m[1] && (m[3] || m[4])) continue;
    out.push({ tag: { name, kind: m[1] ? 'close' : m[4] || VOID.has(name) ? 'self' : 'open' }, spelling: m[2]!, selfClosing: !!m[4] });
  }
  return out;
}

/**
 * The written tags that are words in angle brackets, not markup: a name no formatting tag and no index (`<1>`) that the
 * text only opens or only closes (iina's menu item `<None>`, its `Format: <key>=<value>`). Markup opens and closes a
 * name; a tag written self-closing (`<Icon/>`) is markup on its own.
 */
function loneWords(tags: readonly Written[]): Set<Written> {
  const opened = new Set<string>();
  const closed = new Set<string>();
  for (const w of tags) if (!w.selfClosing) (w.tag.kind === 'close' ? closed : opened).add(w.tag.name);
  const lone = (name: string) => !FORMATTING.has(name) && !/^\d+$/.test(name) && opened.has(name) !== closed.has(name);
  return new Set(tags.filter((w) => !w.selfClosing && lone(w.tag.name)));
}

/** The tags written in `text`, in order (none without a `<`), without lone angle-bracketed words (loneWords). */
export function tagsInText(text: string): MarkupTag[] {
  const all = written(text);
  const words = loneWords(all);
  return all.filter((w) => !words.has(w)).map((w) => w.tag);
}

/**
 * The tags written in a translation's `text` that are markup against its base's tags: besides lone words (loneWords),
 * a lowercase name that is no formatting tag and that the base has nowhere (mastodon-android nl-NL's `Plak de code
 * binnen de &lt;head&gt;-tag`) is words about HTML, not markup. Indexed slots (`<1>`) and component names with a
 * capital (`<Link>`) stay markup.
 */
export function markupInTranslation(text: string, base: readonly MarkupTag[]): MarkupTag[] {
  const all = written(text);
  const words = loneWords(all);
  const baseNames = new Set(base.map((t) => t.name));
  const about = (w: Written) => w.spelling === w.tag.name && !/^\d+$/.test(w.tag.name) && !FORMATTING.has(w.tag.name) && !baseNames.has(w.tag.name);
  return all.filter((w) => !words.has(w) && !about(w)).map((w) => w.tag);
}

/** `<em> </em>` for display. */
export function showTags(tags: readonly MarkupTag[]): string {
  return tags.map((t) => (t.kind === 'close' ? `</${t.name}>` : t.kind === 'self' ? `<${t.name}/>` : `<${t.name}>`)).join(' ');
}

/** Whether every close tag closes the innermost open one and none stays open. */
function balanced(tags: readonly MarkupTag[]): boolean {
  const stack: string[] = [];
  for (const t of tags) {
    if (t.kind === 'open') stack.push(t.name);
    else if (t.kind === 'close' && stack.pop() !== t.name) return false;
  }
  return stack.length === 0;
}

function counts(tags: readonly MarkupTag[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tags) {
    const k = t.kind === 'close' ? `</${t.name}>` : t.kind === 'self' ? `<${t.name}/>` : `<${t.name}>`;
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

/**
 * How a translation's tags differ from its base's: which tags (names and counts) it lacks or adds, and whether it is
 * unbalanced where the base is balanced (`</em>` twice, `<1>` closed by `</2>`). Order may differ (languages reorder
 * phrases). Undefined when they agree, or when the base has no tag and the translation none either. Pure.
 */
export function markupDifference(tr: readonly MarkupTag[], base: readonly MarkupTag[]): string | undefined {
  if (!tr.length && !base.length) return undefined;
  // An unbalanced base (outline's `…history</em>.` with one `</em>` too many) is the base's defect: a translation
  // that nests its tags properly is right, not short of the stray tag.
  if (!balanced(base) && balanced(tr)) return undefined;
  const b = counts(base);
  const t = counts(tr);
  const missing: string[] = [];
  const extra: string[] = [];
  for (const [k, n] of b) for (let i = t.get(k) ?? 0; i < n; i++) missing.push(k);
  for (const [k, n] of t) for (let i = b.get(k) ?? 0; i < n; i++) extra.push(k);
  const parts: string[] = [];
  if (missing.length) parts.push(`lacks ${missing.join(' ')}`);
  if (extra.length) parts.push(`adds ${extra.join(' ')}`);
  if (!parts.length && balanced(base) && !balanced(tr)) parts.push('its tags do not nest as the base\'s do');
  else if (parts.length && balanced(base) && !balanced(tr)) parts.push('and is unbalanced');
  return parts.length ? `base ${showTags(base) || 'none'}, translation ${showTags(tr) || 'none'}: ${parts.join(', ')}` : undefined;
}
