// `npm run schema`: writes loopgates.schema.json (the JSON Schema of loopgates.yaml) next to package.json.
// test/unit/config.test.ts fails while the committed file differs from what this writes.
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configJsonSchemaText } from '../core/config-schema.js';
import { commandGatesSchema } from '../gates/command/index.js';
import { builtinGates } from '../gates/registry.js';

// dist/scripts/ when built, scripts/ when run from source: the package root is the nearest folder with package.json.
let root = dirname(fileURLToPath(import.meta.url));
while (!existsSync(join(root, 'package.json')) && dirname(root) !== root) root = dirname(root);
const file = join(root, 'loopgates.schema.json');
writeFileSync(file, configJsonSchemaText(builtinGates, commandGatesSchema));
process.stdout.write(`wrote ${file}\n`);
