// `npm run new-gate <id> [title]`: a new gate folder gates/<id>/ from scripts/gate-template/, registered in
// gates/registry.ts (its import and its entry in builtinGates, both before the `new-gate:` markers). The gate passes the
// contract test as made; then `npm run schema` adds its section to loopgates.schema.json. Refuses an existing id.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [id, ...titleWords] = process.argv.slice(2);
if (!id || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) {
  console.error('usage: npm run new-gate <id> [title]   (id: lowercase kebab-case, e.g. feature-list)');
  process.exit(2);
}
const folder = join(root, 'gates', id);
if (existsSync(folder)) {
  console.error(`gates/${id} exists already: pick another id`);
  process.exit(2);
}
const camel = id.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());
const type = camel[0].toUpperCase() + camel.slice(1);
const title = titleWords.join(' ') || `${type} (new gate)`;
const fill = (text) => text.replaceAll('__ID__', id).replaceAll('__CAMEL__', camel).replaceAll('__TYPE__', type).replaceAll('__TITLE__', title);
mkdirSync(folder, { recursive: true });
for (const [from, to] of [['index.ts.tmpl', 'index.ts'], ['README.md.tmpl', 'README.md']]) {
  writeFileSync(join(folder, to), fill(readFileSync(join(root, 'scripts', 'gate-template', from), 'utf8')));
}
const registry = join(root, 'gates', 'registry.ts');
let text = readFileSync(registry, 'utf8');
const importMark = '// new-gate: imports above';
const listMark = '  // new-gate: entries above';
if (!text.includes(importMark) || !text.includes(listMark)) {
  console.error('gates/registry.ts lost its new-gate: markers: register the gate by hand (import it, add it to builtinGates)');
  process.exit(2);
}
text = text.replace(importMark, `import { ${camel}Gate } from './${id}/index.js';\n${importMark}`).replace(listMark, `  ${camel}Gate,\n${listMark}`);
writeFileSync(registry, text);
console.log(`made gates/${id}/ (index.ts, README.md) and registered ${camel}Gate in gates/registry.ts
next: npm run schema && npx vitest run test/contract/gate-contract.test.ts`);
