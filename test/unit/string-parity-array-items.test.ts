// A translated Android <string-array> with another number of <item>s than the base array (fresh-user-6 G14; Android
// Lint: InconsistentArrays): with fewer, getStringArray(R.array.x)[n] throws ArrayIndexOutOfBoundsException on a device
// in that locale; with more, a list built from it shows entries the base has not (and parallel value arrays misalign).
// Files in the shape of FossifyOrg/Notes (values/strings.xml, values-de/strings.xml).
import { describe, expect, it } from 'vitest';
import { memoryWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import type { GateResult } from '../../core/types.js';
import { stringParityGate } from '../../gates/string-parity/index.js';

const config = (extra: Record<string, unknown> = {}) => stringParityGate.configSchema.parse(extra);
const run = (files: Record<string, string>, extra: Record<string, unknown> = {}): Promise<GateResult> =>
  runGate({ gate: stringParityGate, config: config(extra), timeoutMs: 10_000 }, { ws: memoryWorkspace({ files, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' });
const lines = (r: GateResult) => r.findings.map((f) => `${f.file}:${f.line} ${f.rule}/${f.severity}`).sort();

const xml = (about: string, items: string[]) => `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="app_about">${about}</string>
    <string-array name="probe_items">
${items.map((t) => `        <item>${t}</item>`).join('\n')}
    </string-array>
</resources>
`;
const BASE = 'app/src/main/res/values/strings.xml';
const DE = 'app/src/main/res/values-de/strings.xml';

describe('Android <string-array> item counts', () => {
  it('same count: no finding', async () => {
    const r = await run({ [BASE]: xml('About', ['%d notes', '%s folders']), [DE]: xml('Über', ['%d Notizen', '%s Ordner']) });
    expect(lines(r)).toEqual([]);
  });

  it('one item fewer than the base: array-item-count error at the translation\'s <string-array> line', async () => {
    const r = await run({ [BASE]: xml('About', ['%d notes', '%s folders']), [DE]: xml('Über', ['%d Notizen']) });
    expect(lines(r)).toEqual([`${DE}:4 array-item-count/error`]);
    expect(r.verdict).toBe('fail');
    expect(r.findings[0]!.message).toBe('de `probe_items`: 1 <item> where the base has 2: getStringArray(R.array.probe_items)[1] throws ArrayIndexOutOfBoundsException for de users (Android Lint: InconsistentArrays)');
  });

  it('one item more than the base: array-item-count too', async () => {
    const r = await run({ [BASE]: xml('About', ['Red', 'Green']), [DE]: xml('Über', ['Rot', 'Grün', 'Blau']) });
    expect(lines(r)).toEqual([`${DE}:4 array-item-count/error`]);
    expect(r.findings[0]!.message).toBe('de `probe_items`: 3 <item>s where the base has 2: de users see 1 entry the base has not, and arrays read alongside it by index no longer line up (Android Lint: InconsistentArrays)');
  });
});
