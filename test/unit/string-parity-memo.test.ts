import { describe, expect, it } from 'vitest';
import { memoryWorkspace, overlayWorkspace } from '../../core/workspace.js';
import { discoverCatalogs, loadCatalog } from '../../gates/string-parity/catalogs.js';

const base = '<resources>\n  <string name="a">Play %1$s</string>\n</resources>\n';
const de = '<resources>\n  <string name="a">Abspielen %1$s</string>\n</resources>\n';

describe('string-parity catalogs are parsed once per content, across workspaces', () => {
  it('an overlay that changes one translation reuses the parse of the unchanged base and re-parses the changed file', async () => {
    const ws = memoryWorkspace({ files: { 'app/res/values/strings.xml': base, 'app/res/values-de/strings.xml': de }, mode: 'all' });
    const load = async (w: typeof ws, path: string) => {
      const set = await discoverCatalogs(w, {});
      return loadCatalog(w, set.byPath.get(path)!.file);
    };
    const b1 = await load(ws, 'app/res/values/strings.xml');
    const d1 = await load(ws, 'app/res/values-de/strings.xml');
    const over = overlayWorkspace(ws, new Map([['app/res/values-de/strings.xml', de.replace(' %1$s', '')]]), ['app/res/values-de/strings.xml']);
    expect(await load(over, 'app/res/values/strings.xml')).toBe(b1);
    const d2 = await load(over, 'app/res/values-de/strings.xml');
    expect(d2).not.toBe(d1);
    expect(d2.locales[0]!.byKey.get('a')!.value).toBe('Abspielen');
    // Same bytes in a new workspace object (another Buffer): found by sha1, not parsed again.
    const again = memoryWorkspace({ files: { 'app/res/values/strings.xml': base, 'app/res/values-de/strings.xml': de }, mode: 'all' });
    expect(await load(again, 'app/res/values-de/strings.xml')).toBe(d1);
  });
});
