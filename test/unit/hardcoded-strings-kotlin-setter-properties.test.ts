// Kotlin property forms of the View-system setters the gate reads (fresh-user nit): `tv.error = "…"` is
// `tv.setError("…")`, shown under the field, yet only the call was read. The same for the other setters Kotlin exposes
// as properties: Preference `summary` / `summaryOn` / `summaryOff` / `dialogTitle` / `dialogMessage`, TextInputLayout
// `helperText` / `placeholderText`, Switch / ToggleButton `textOn` / `textOff`. Shapes from Tusky's LoginActivity and
// SettingsDSL (`binding.domainTextInputLayout.error = getString(…)`), with literals in place of the resources.
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { configSchema, hardcodedStringsGate } from '../../gates/hardcoded-strings/index.js';
import { extractKotlin } from '../../gates/hardcoded-strings/kotlin.js';

const FILE = 'app/src/main/java/com/keylesspalace/tusky/components/login/LoginActivity.kt';
const SRC = `package com.keylesspalace.tusky.components.login

class LoginActivity : BaseActivity() {
    private fun onLoginClick() {
        binding.domainTextInputLayout.error = "Invalid domain entered"
        binding.composeEditField.error = null
        editText.error = if (empty) "Enter a domain" else null
        binding.passwordLayout.helperText = "At least 8 characters"
        binding.passwordLayout.placeholderText = "Password"
        notificationPref.summary = "Shown on the lock screen"
        pushPref.summaryOn = "Push notifications are on"
        pushPref.summaryOff = "Push notifications are off"
        listPref.dialogTitle = "Choose a theme"
        listPref.dialogMessage = "The app restarts"
        toggle.textOn = "On"
        toggle.textOff = "Off"
        binding.domainTextInputLayout.error = getString(R.string.error_invalid_domain)
        state = state.copy(error = "network", summary = "sync failed")
        val error = "internal"
    }
}
`;

describe('Kotlin setter properties', () => {
  it('red: each property form is a candidate at its literal; a resource, null or named argument is not', async () => {
    const e = await extractKotlin(SRC);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} ${c.context}`)).toEqual([
      '5:47 Invalid domain entered error = …',
      '7:37 Enter a domain error = …',
      '8:45 At least 8 characters helperText = …',
      '9:50 Password placeholderText = …',
      '10:36 Shown on the lock screen summary = …',
      '11:30 Push notifications are on summaryOn = …',
      '12:31 Push notifications are off summaryOff = …',
      '13:32 Choose a theme dialogTitle = …',
      '14:34 The app restarts dialogMessage = …',
      '15:25 On textOn = …',
      '16:26 Off textOff = …',
    ]);
  });
  it('red: the gate fails with each at file:line, also when attributes.kotlin replaces the names (as setError stays read)', async () => {
    for (const config of [{}, { attributes: { kotlin: ['text'] } }]) {
      const r = await runGate({ gate: hardcodedStringsGate, config: configSchema.parse(config), timeoutMs: 30_000 }, { ws: memoryWorkspace({ files: { [FILE]: SRC }, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' });
      expect(r.verdict).toBe('fail');
      expect(r.findings.map((f) => `${f.file}:${f.line} ${f.rule}`)).toEqual([5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16].map((l) => `${FILE}:${l} hardcoded-text`));
      expect(r.findings[0]!.message).toBe('hard-coded text "Invalid domain entered" in error = …; move it to the string catalog');
    }
  });
});
