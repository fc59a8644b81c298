// The retry runner's pure parts: the shipped signatures prove themselves against their real samples and the
// ordinary failures; a signature that swallows everything is refused; fingerprints strip what changes between runs;
// the anti-loop bounds read ledger lines.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfigFull } from '../../core/config.js';
import { ConfigError } from '../../core/errors.js';
import { configOptions } from '../../gates/registry.js';
import { failureFingerprint, normaliseLine } from '../../scripts/retry/fingerprint.js';
import { retryLoopAnswers } from '../../scripts/retry/loop.js';
import { judgeBounds, sinceReset } from '../../scripts/retry/memory.js';
import type { RetryLedgerEntry } from '../../scripts/retry/memory.js';
import {
  compileSignature,
  DEFAULT_BOUNDS,
  firstMatch,
  loadSignatures,
  ordinaryFailures,
  outputMatches,
  parseRulesText,
  proveSignatures,
  rulesDir,
  shippedSignatures,
  signaturesFromData,
} from '../../scripts/retry/signatures.js';
import { TailBuffer } from '../../scripts/retry/tail.js';

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

describe('shipped signatures', () => {
  const shipped = shippedSignatures();
  const ordinary = ordinaryFailures();

  it('ships 11 flake signatures and 6 human blockers, each PROVEN against its samples and the ordinary failures', () => {
    expect(shipped.flakes.map((s) => s.spec.id)).toEqual([
      'gradle-daemon-disappeared',
      'kotlin-daemon-unreachable',
      'adb-device-offline',
      'adb-device-not-found',
      'ios-simulator-boot-failed',
      'metro-port-in-use',
      'npm-registry-timeout',
      'gradle-repository-timeout',
      'maestro-driver-timeout',
      'uiautomator-idle-state',
      'uiautomator-null-root',
    ]);
    expect(shipped.askHuman.map((s) => s.spec.id)).toEqual(['android-install-signature-mismatch', 'ios-code-signing', 'registry-credentials', 'android-sdk-missing', 'android-licence-not-accepted', 'disk-full']);
    expect(ordinary).toHaveLength(39);
    const proofs = proveSignatures([...shipped.flakes, ...shipped.askHuman], ordinary);
    expect(proofs.filter((p) => p.proof !== 'PROVEN')).toEqual([]);
    expect(proofs).toHaveLength(17);
  });

  it('names a public source (an https address) and gives real samples and near-misses for every signature', () => {
    for (const s of [...shipped.flakes, ...shipped.askHuman]) {
      expect(s.spec.source, s.spec.id).toMatch(/https:\/\/\S+/);
      expect(s.spec.samples.match.length, s.spec.id).toBeGreaterThanOrEqual(1);
      expect(s.spec.samples.nearMiss.length, s.spec.id).toBeGreaterThanOrEqual(1);
    }
    for (const s of shipped.askHuman) expect(s.spec.ask, s.spec.id).toBeTruthy();
  });

  it('tells the Kotlin daemon crash from a Kotlin compile error and from the fallback warning', () => {
    const kotlin = shipped.flakes.find((s) => s.spec.id === 'kotlin-daemon-unreachable')!;
    expect(outputMatches(kotlin, 'e: Daemon compilation failed: Could not connect to Kotlin compile daemon')).toBe(true);
    expect(outputMatches(kotlin, 'e: file:///app/src/main/java/com/example/notes/MainActivity.kt:12:5 Unresolved reference: foo')).toBe(false);
    expect(outputMatches(kotlin, 'Could not connect to kotlin daemon. Using fallback strategy.')).toBe(false);
  });

  it('a shipped signature edited to .* is refused (NOISY), naming it and the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopgates-rules-'));
    scratch.push(dir);
    cpSync(rulesDir(), dir, { recursive: true });
    const path = join(dir, 'flakes.yaml');
    writeFileSync(path, readFileSync(path, 'utf8').replace("      - 'Gradle build daemon disappeared unexpectedly'", "      - '.*'"));
    const edited = signaturesFromData(parseRulesText(readFileSync(path, 'utf8'), path), 'flake', path);
    const [proof] = proveSignatures(edited.filter((s) => s.spec.id === 'gradle-daemon-disappeared'), ordinaryFailures(dir));
    expect(proof!.proof).toBe('NOISY');
    expect(proof!.problems[0]).toContain('matches its near-miss "Starting a Gradle Daemon (subsequent builds will be faster)"');
    expect(proof!.problems.some((p) => p.startsWith('matches the empty string'))).toBe(true);
    expect(() => loadSignatures(undefined, dir)).toThrow(/flake signature gradle-daemon-disappeared \(rules\/flakes\.yaml\) is NOISY/);
  });

  it('a sample that stops matching makes the signature DECORATION', () => {
    const s = compileSignature({ ...shipped.flakes[0]!.spec, match: ['Gradle build daemon vanished'] }, 'flake', 'repository');
    const [proof] = proveSignatures([s], ordinary);
    expect(proof!.proof).toBe('DECORATION');
    expect(proof!.problems[0]).toBe('does not match its real line "Gradle build daemon disappeared unexpectedly (it may have been killed or may have crashed)"');
  });

  it("a repository signature 'error' is NOISY: it forgives a compile error, a failing assertion and a lint error", () => {
    const s = compileSignature({ id: 'any-error', description: 'x', match: ['error'], source: 'x', samples: { match: ['error: x'], nearMiss: ['ok'] } }, 'flake', 'repository');
    const [proof] = proveSignatures([s], ordinary);
    expect(proof!.proof).toBe('NOISY');
    expect(proof!.problems.filter((p) => p.startsWith('matches an ordinary failure')).length).toBeGreaterThanOrEqual(5);
  });

  it('exitCodes narrow a signature: an unknown or other code does not match', () => {
    const s = compileSignature({ id: 'x', description: 'x', match: ['boom'], exitCodes: [137], source: 'x', samples: { match: ['boom'], nearMiss: ['b'] } }, 'flake', 'repository');
    expect(outputMatches(s, 'boom', 137)).toBe(true);
    expect(outputMatches(s, 'boom', 1)).toBe(false);
    expect(outputMatches(s, 'boom')).toBe(false);
    expect(firstMatch([s], ['nothing', 'a boom here'], 137)).toBe(s);
  });
});

describe('loopgates.yaml retry:', () => {
  const parse = async (yaml: string) => parseConfigFull(yaml, '/repo/loopgates.yaml', await configOptions());
  const own = (match: string) =>
    [
      'version: 1',
      'retry:',
      '  signatures:',
      '    - id: our-flake',
      '      description: our emulator script loses the device',
      `      match: ['${match}']`,
      '      source: https://example.invalid/our-ci-log',
      '      samples:',
      "        match: ['emu: lost the device']",
      "        nearMiss: ['emu: started']",
      '  bounds: {sameCause: 2}',
      '',
    ].join('\n');

  it("refuses match: '.*' at load, with its line and the fix", async () => {
    const err = await parse(own('.*')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: 'retry.signatures[0].match', line: 6 });
    expect(problems[0]!.message).toContain('signature our-flake is NOISY: matches its near-miss "emu: started"');
    expect(problems[0]!.message).toContain("not '.*' or 'error'");
  });

  it('keeps a proven repository signature and the bounds', async () => {
    const full = await parse(own('lost the device'));
    expect(full.retry?.signatures.map((s) => s.id)).toEqual(['our-flake']);
    expect(full.retry?.bounds).toMatchObject({ sameCause: 2, taskFailures: 6 });
    expect(loadSignatures(full.retry).flakes.at(-1)?.origin).toBe('repository');
  });

  it("resolves a command gate's retry: ids, and refuses an unknown one at its line", async () => {
    const gate = (ids: string) =>
      ['version: 1', 'commands:', '  - id: ui-tests', '    command: [./gradlew, connectedCheck]', '    loop: {runs: x, reads: x, ends: x, asks: never}', "    files: ['**/*.kt']", '    selfTest: {waived: device tests}', `    retry: {signatures: [${ids}]}`, ''].join('\n');
    const ok = await parse(gate('adb-device-offline'));
    const spec = ok.gates.find((g) => g.gate.id === 'ui-tests')!.settings.config as { retry: { max: number; resolved: Array<{ id: string }> } };
    expect(spec.retry.max).toBe(1);
    expect(spec.retry.resolved.map((s) => s.id)).toEqual(['adb-device-offline']);
    const err = (await parse(gate('no-such-flake')).catch((e: unknown) => e)) as ConfigError;
    expect(err.problems[0]).toMatchObject({ path: 'commands[0].retry.signatures[0]', line: 8 });
    expect(err.problems[0]!.message).toContain('unknown flake signature no-such-flake');
  });
});

describe('failure fingerprints', () => {
  it('the same cause with other times, numbers and temp paths has one fingerprint', () => {
    expect(normaliseLine('Build failed in 12.3 s at /tmp/x91/app/Main.kt')).toBe('Build failed in # s at <path>');
    expect(failureFingerprint('Build failed in 12.3 s at /tmp/x91/app/Main.kt', 'exit 1')).toBe(failureFingerprint('Build failed in 9.8 s at /tmp/q02/app/Main.kt', 'exit 1'));
    expect(failureFingerprint('2026-12-01T20:30:01Z error: id 0xdeadbeef1 failed', 'exit 1')).toBe(failureFingerprint('2026-12-02T08:00:59Z error: id 0x12ab34cd5 failed', 'exit 1'));
  });

  it('another message, or another ending, is another cause', () => {
    expect(failureFingerprint('error: Unresolved reference: foo', 'exit 1')).not.toBe(failureFingerprint('error: Type mismatch', 'exit 1'));
    expect(failureFingerprint('error: x', 'exit 1')).not.toBe(failureFingerprint('error: x', 'timeout'));
  });

  it('is made of the last error lines, so a chatty log before them does not change it', () => {
    const tailOf = (noise: string) => `${noise}\n> Task :app:compileDebugKotlin FAILED\nerror: Unresolved reference: foo\n`;
    expect(failureFingerprint(tailOf('Downloading a.jar\nDownloading b.jar'), 'exit 1')).toBe(failureFingerprint(tailOf('Up to date'), 'exit 1'));
  });
});

describe('TailBuffer', () => {
  it('keeps the newest bytes only', () => {
    const t = new TailBuffer(10);
    for (let i = 0; i < 100; i++) t.push(Buffer.from(`line${i}\n`));
    expect(t.text()).toBe('98\nline99\n');
    expect(t.text().length).toBeLessThanOrEqual(10);
  });
});

describe('the anti-loop bounds', () => {
  const at = (min: number) => new Date(Date.UTC(2026, 11, 1, 20, min)).toISOString();
  const e = (min: number, verdict: RetryLedgerEntry['verdict'], fingerprint?: string, task = 't', cmd = 'c'): RetryLedgerEntry => ({ ts: at(min), kind: 'retry', gate: 'retry', verdict, task, cmd, ...(fingerprint ? { fingerprint } : {}) });
  const now = new Date(Date.UTC(2026, 11, 1, 21, 0));

  it('same cause 3 times in a row asks; a pass or another cause in between does not', () => {
    expect(judgeBounds([e(1, 'fail', 'a'), e(2, 'fail', 'a'), e(3, 'fail', 'a')], 't', 'c', 'a', DEFAULT_BOUNDS, now)?.reason).toBe('same-cause');
    expect(judgeBounds([e(1, 'fail', 'a'), e(2, 'pass'), e(3, 'fail', 'a'), e(4, 'fail', 'a')], 't', 'c', 'a', DEFAULT_BOUNDS, now)).toBeNull();
    expect(judgeBounds([e(1, 'fail', 'a'), e(2, 'fail', 'b'), e(3, 'fail', 'a')], 't', 'c', 'a', DEFAULT_BOUNDS, now)).toBeNull();
    // Another task's or another command's attempts are not this one's.
    expect(judgeBounds([e(1, 'fail', 'a', 'u'), e(2, 'fail', 'a', 't', 'd'), e(3, 'fail', 'a')], 't', 'c', 'a', DEFAULT_BOUNDS, now)).toBeNull();
  });

  it('6 failures of a task within the window ask; a reset or older failures do not count', () => {
    const six = [1, 2, 3, 4, 5, 6].map((m) => e(m, 'fail', `f${m}`, 't', `c${m}`));
    const b = judgeBounds(six, 't', 'c6', 'f6', DEFAULT_BOUNDS, now);
    expect(b?.reason).toBe('task-budget');
    expect(b?.evidence).toHaveLength(6);
    expect(judgeBounds([...six.slice(0, 3), e(4, 'reset'), ...six.slice(3)], 't', 'c6', 'f6', DEFAULT_BOUNDS, now)).toBeNull();
    expect(judgeBounds(six, 't', 'c6', 'f6', DEFAULT_BOUNDS, new Date(Date.UTC(2026, 11, 3)))).toBeNull();
    expect(sinceReset([e(1, 'fail', 'a'), e(2, 'reset'), e(3, 'fail', 'b')], 't').map((x) => x.fingerprint)).toEqual(['b']);
  });

  it('the four answers carry the bounds in force', () => {
    const a = retryLoopAnswers({ ...DEFAULT_BOUNDS, sameCause: 2 });
    expect(a.asks).toContain('the same failure fingerprint 2 times in a row');
    expect(a.asks).toContain('6 failed attempts for one task within 24 h');
    expect(a.reads).toContain('last 256 KiB');
  });
});
