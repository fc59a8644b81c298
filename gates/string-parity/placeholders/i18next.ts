// i18next interpolation (i18next.com/translation-function/interpolation, /nesting): `{{name}}`, `{{- name}}`
// (unescaped), `{{name, format}}`, and `$t(key)` nesting.

/** One interpolation or nesting reference with its 0-based offset. */
export interface I18nextPlaceholder {
  name: string;
  offset: number;
}

/** Every `{{…}}` variable (by name, format and `-` prefix dropped) and `$t(…)` reference (named `$t(key)`). */
export function parseI18next(text: string): I18nextPlaceholder[] {
  const out: I18nextPlaceholder[] = [];
  for (const m of text.matchAll(/\{\{-?\s*([^},\s]+)\s*(?:,[^}]*)?\}\}|\$t\(([^),]+)/g)) {
    out.push({ name: m[1] !== undefined ? m[1] : `$t(${m[2]!.trim()})`, offset: m.index });
  }
  return out;
}
