// An Android values file with a byte that is no UTF-8 (an editor saving as Latin-1: Weiter zur\xfcck) while it declares
// UTF-8, or no encoding, is unparsable for aapt2 and expat; string-parity reported 0 findings (fresh-user-4 F2).
import { describe, expect, it } from 'vitest';
import { memoryWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import { stringParityGate } from '../../gates/string-parity/index.js';

const run = (files: Record<string, string | Buffer>) =>
  runGate({ gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 10_000 }, { ws: memoryWorkspace({ files, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' });

const BASE = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="next">Back</string>
</resources>
`;
const de = (declaration: string, text: Buffer) => Buffer.concat([Buffer.from(`${declaration}<resources>\n    <string name="next">`), text, Buffer.from('</string>\n</resources>\n')]);

describe('string-parity: Android values file that is not UTF-8', () => {
  it('is unparsable at the line of the byte when it declares UTF-8 or no encoding', async () => {
    for (const decl of ['<?xml version="1.0" encoding="utf-8"?>\n', '']) {
      const r = await run({ 'res/values/strings.xml': BASE, 'res/values-de/strings.xml': de(decl, Buffer.from('Weiter zur\xfcck', 'latin1')) });
      expect(r.verdict).toBe('fail');
      expect(r.findings.map((f) => `${f.file}:${f.line} ${f.rule}/${f.severity}`)).toEqual([`res/values-de/strings.xml:${decl ? 3 : 2} unparsable/error`]);
      expect(r.findings[0]!.message).toMatch(/not valid UTF-8: the byte 0xFC at line \d, column 35 is no UTF-8 sequence while the file declares (encoding="utf-8"|no encoding \(so UTF-8\)).*aapt2 refuses it.*save the file as UTF-8/);
    }
  });

  it('passes the same text saved as UTF-8, and a file declaring ISO-8859-1', async () => {
    const utf8 = await run({ 'res/values/strings.xml': BASE, 'res/values-de/strings.xml': de('<?xml version="1.0" encoding="utf-8"?>\n', Buffer.from('Weiter zurück', 'utf8')) });
    expect(utf8.findings).toEqual([]);
    const latin = await run({ 'res/values/strings.xml': BASE, 'res/values-de/strings.xml': de('<?xml version="1.0" encoding="ISO-8859-1"?>\n', Buffer.from('Weiter zur\xfcck', 'latin1')) });
    expect(latin.findings.filter((f) => f.rule === 'unparsable')).toEqual([]);
  });
});
