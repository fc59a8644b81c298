// Plain TypeScript files (.ts, not .tsx) hold UI text too: linkwarden's Expo store (apps/mobile/store/auth.ts) shows
// `Alert.alert("Error", "Invalid token")`, its web client (apps/web/lib/client/importBookmarks.ts) `toast.loading(…)`
// (issue 15 item 6, fresh-user F3 follow-up). They are read with tree-sitter-typescript: toasts, alerts, snackbars and
// t() keys; a declaration file (.d.ts) holds no code that runs.
import { describe, expect, it } from 'vitest';
import { runHardcoded } from '../helpers/hardcoded-jsx.js';
import { configSchema, languageOf, selectInputs } from '../../gates/hardcoded-strings/index.js';

const AUTH = `import { create } from "zustand";
import { router } from "expo-router";
import { Alert } from "react-native";

export const useAuthStore = create<AuthState>((set) => ({
  signIn: async (username: string, password: string) => {
    try {
      const res = await fetch(\`\${instance}/api/v1/session\`, { method: "POST" });
      if (res.status === 401) {
        Alert.alert("Error", "Invalid credentials");
        return;
      }
    } catch (err: any) {
      Alert.alert(
        err?.message === "TIMEOUT" ? "Request timed out" : "Network error",
        "Could not connect to the server."
      );
    }
  },
}));
`;

const IMPORT = `import { toast } from "react-hot-toast";

export const importBookmarks = async (e: any, format: MigrationFormat) => {
  reader.onload = async function (e) {
    const load = toast.loading("Importing...");
    const response = await fetch("/api/v1/migration", { method: "POST" });
    toast.dismiss(load);
    if (response.ok) toast.success(message);
    else toast.error("Failed to import bookmarks.");
  };
};
`;

const TYPES = `declare module "*.svg" {
  const content: string;
  export default content;
}
export declare function toast(message: "Saved"): void;
`;

describe('hardcoded-strings: UI text in plain TypeScript files', () => {
  it('reads Alert.alert and toast calls in .ts files (was never read)', async () => {
    const files = { 'apps/mobile/store/auth.ts': AUTH, 'apps/web/lib/client/importBookmarks.ts': IMPORT, 'apps/web/types/global.d.ts': TYPES };
    const r = await runHardcoded(files);
    expect(r.verdict).toBe('fail');
    expect(r.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.message.split(';')[0]}`)).toEqual([
      'apps/mobile/store/auth.ts:10:21 hard-coded text "Error" in Alert.alert()',
      'apps/mobile/store/auth.ts:10:30 hard-coded text "Invalid credentials" in Alert.alert()',
      'apps/mobile/store/auth.ts:15:38 hard-coded text "Request timed out" in Alert.alert()',
      'apps/mobile/store/auth.ts:15:60 hard-coded text "Network error" in Alert.alert()',
      'apps/mobile/store/auth.ts:16:9 hard-coded text "Could not connect to the server." in Alert.alert()',
      'apps/web/lib/client/importBookmarks.ts:5:32 hard-coded text "Importing..." in toast.loading()',
      'apps/web/lib/client/importBookmarks.ts:9:22 hard-coded text "Failed to import bookmarks." in toast.error()',
    ]);
    expect(r.counts).toMatchObject({ files: 2 });
  });

  it('selects .ts, .mts and .cts files, not declaration files', () => {
    expect(['a.ts', 'b.mts', 'c.cts', 'd.d.ts', 'e.d.mts', 'F.TS'].map((p) => languageOf(p) ?? '-')).toEqual(['typescript', 'typescript', 'typescript', '-', '-', 'typescript']);
    expect(selectInputs(['src/a.ts', 'src/b.d.ts', 'src/a.test.ts'], configSchema.parse({}))).toEqual(['src/a.ts']);
  });

  it('a Playwright locator named toast is no toast (linkwarden apps/web/e2e/fixtures/base/page.ts)', async () => {
    const src = `export class BasePage {\n  async closeToast() {\n    const toast = this.page.getByTestId("toaster");\n    await toast.getByTestId("close-toast-button").click();\n    await expect(toast.getByTestId("toast-message")).toHaveText(/saved/);\n  }\n}\n`;
    const r = await runHardcoded({ 'apps/web/e2e/fixtures/base/page.ts': src });
    expect(r.verdict).toBe('pass');
    expect(r.counts).toMatchObject({ files: 1, items: 0 });
  });

  it('a .ts file of only logic passes: strings that are no UI call are not read', async () => {
    const src = `export const API = "https://example.com/api";\nexport function label(kind: string) {\n  if (kind === "error") throw new Error("Unexpected kind");\n  return console.log("Loaded");\n}\n`;
    const r = await runHardcoded({ 'src/lib/api.ts': src });
    expect(r.verdict).toBe('pass');
    expect(r.counts).toMatchObject({ files: 1, items: 0 });
  });
});
