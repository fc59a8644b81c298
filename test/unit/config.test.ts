// loopgates.yaml: every problem at once with key path and line; defaults; four answers; default text; JSON Schema sync.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_TIMEOUT_MS, defaultConfigText, loadConfig, parseConfig } from '../../core/config.js';
import { configJsonSchemaText } from '../../core/config-schema.js';
import { ConfigError, LoopgatesError } from '../../core/errors.js';
import { PLATFORMS } from '../../core/platform.js';
import type { Gate } from '../../core/types.js';
import { commandGateKind, commandGatesSchema } from '../../gates/command/index.js';
import { builtinGates } from '../../gates/registry.js';
import { toyGate, toys } from '../integration/run-toys.js';

const problemsOf = (text: string, gates: ReadonlyArray<Gate<any>> = toys) => {
  try {
    parseConfig(text, 'loopgates.yaml', { gates, commands: commandGateKind });
  } catch (e) {
    if (e instanceof ConfigError) return e.problems.map((p) => `${p.line} ${p.path}: ${p.message}`);
    throw e;
  }
  return [];
};

describe('config problems', () => {
  it('reports every problem at once, each with its key path and 1-based line', () => {
    const text = [
      'version: 2', // 1
      'colour: blue', // 2
      'gates:', // 3
      '  toy:', // 4
      '    enabled: "yes"', // 5
      '    timeoutMs: -5', // 6
      '    wrod: BAD', // 7
      '  toy-kt:', // 8
      '    word: 7', // 9
      '  nope:', // 10
      '    enabled: true', // 11
    ].join('\n');
    const problems = problemsOf(text);
    expect(problems).toEqual([
      '1 version: must be 1 (the only config version)',
      "2 colour: unknown key 'colour'",
      '5 gates.toy.enabled: Expected boolean, received string',
      '6 gates.toy.timeoutMs: Number must be greater than 0',
      "7 gates.toy.wrod: unknown key 'wrod'",
      '9 gates.toy-kt.word: Expected string, received number',
      "10 gates.nope: unknown gate 'nope' (known: toy, toy-kt)",
    ]);
  });

  it('the thrown ConfigError exits 2 and lists every problem as file:line in its message', () => {
    let err: unknown;
    try {
      parseConfig('version: 1\ngates:\n  toy:\n    timeoutMs: "x"\nextra: 1\n', '/r/loopgates.yaml', { gates: toys, commands: commandGateKind });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const e = err as ConfigError;
    expect(e.exitCode).toBe(2);
    expect(e.message).toContain('/r/loopgates.yaml:4  gates.toy.timeoutMs: Expected number, received string');
    expect(e.message).toContain("/r/loopgates.yaml:5  extra: unknown key 'extra'");
  });

  it('reports YAML syntax errors with their lines, together with schema problems', () => {
    const problems = problemsOf('version: 1\ngates:\n  toy: {enabled: true\n  toy-kt: 1\nversion: 1\n');
    expect(problems.some((p) => /^3 : YAML BAD_INDENT|^4 : YAML BAD_INDENT/.test(p))).toBe(true);
    expect(problems.some((p) => /^5 : YAML DUPLICATE_KEY/.test(p))).toBe(true);
  });

  it('a missing version is reported at the document; an empty file is a problem, not defaults', () => {
    expect(problemsOf('gates: {}\n')).toEqual(['1 version: required (must be 1)']);
    expect(problemsOf('')).toEqual(['1 version: required (must be 1)']);
    expect(problemsOf('- 1\n')).toEqual(['1 : Expected object, received array']);
  });

  it('applies defaults: enabled, the default timeout, the gate schema defaults', () => {
    const gates = parseConfig('version: 1\ngates:\n  toy-kt:\n    enabled: false\n    timeoutMs: 5000\n    allowEmpty: no Kotlin here\n', 'x', { gates: toys, commands: commandGateKind });
    expect(gates.map((g) => [g.gate.id, g.enabled, g.settings.timeoutMs, g.settings.allowEmpty, g.settings.config])).toEqual([
      ['toy', true, DEFAULT_TIMEOUT_MS, undefined, { word: 'BAD' }],
      ['toy-kt', false, 5000, 'no Kotlin here', { word: 'BAD' }],
    ]);
  });

  it('staged: introduced by default; the global value for every gate; a gate\'s own wins; command gates too', () => {
    const policies = (text: string) => parseConfig(text, 'x', { gates: toys, commands: commandGateKind }).map((g) => `${g.gate.id}=${g.settings.staged}`);
    expect(policies('version: 1\n')).toEqual(['toy=introduced', 'toy-kt=introduced']);
    expect(policies('version: 1\nstaged: all\n')).toEqual(['toy=all', 'toy-kt=all']);
    expect(policies('version: 1\nstaged: all\ngates:\n  toy-kt:\n    staged: touched\n')).toEqual(['toy=all', 'toy-kt=touched']);
    const cmd = 'commands:\n  - id: lint\n    command: ["true"]\n    loop: {runs: a, reads: b, ends: c, asks: never}\n    files: ["*.txt"]\n    selfTest: {waived: "no mutation here"}\n';
    expect(policies(`version: 1\nstaged: touched\n${cmd}`)).toEqual(['toy=touched', 'toy-kt=touched', 'lint=touched']);
    expect(policies(`version: 1\n${cmd}    staged: all\n`)).toEqual(['toy=introduced', 'toy-kt=introduced', 'lint=all']);
  });

  it('staged: an unknown value is a problem at its line, globally and per gate', () => {
    const [global, perGate] = [problemsOf('version: 1\nstaged: new\n'), problemsOf('version: 1\ngates:\n  toy:\n    staged: everything\n')];
    expect(global).toHaveLength(1);
    expect(global[0]).toMatch(/^2 staged: Invalid enum value\. Expected 'introduced' \| 'touched' \| 'all', received 'new'$/);
    expect(perGate).toHaveLength(1);
    expect(perGate[0]).toMatch(/^4 gates\.toy\.staged: Invalid enum value\. Expected 'introduced' \| 'touched' \| 'all', received 'everything'$/);
  });

  it('reads an empty section (`toy:` or `gates:`) as the defaults', () => {
    expect(parseConfig('version: 1\ngates:\n  toy:\n', 'x', { gates: toys, commands: commandGateKind }).map((g) => g.enabled)).toEqual([true, true]);
    expect(parseConfig('version: 1\ngates:\n', 'x', { gates: toys, commands: commandGateKind }).map((g) => g.enabled)).toEqual([true, true]);
  });

  it('refuses at load a gate lacking one of its four answers', () => {
    const bad: Gate<any> = { ...toyGate('half', '.txt'), loop: { runs: 'x', reads: ' ', ends: 'x', asks: '' } };
    expect(() => parseConfig('version: 1\n', 'x', { gates: [...toys, bad], commands: commandGateKind })).toThrow(LoopgatesError);
    expect(() => parseConfig('version: 1\n', 'x', { gates: [...toys, bad], commands: commandGateKind })).toThrow(/'half' lacks its four answers \(reads, asks empty\)/);
  });

  it('treats a gate schema that is not strict as strict, and reports a non-object gate schema by path', () => {
    const loose: Gate<any> = { ...toyGate('loose', '.txt'), configSchema: z.object({ n: z.number().default(1) }) };
    const refined: Gate<any> = { ...toyGate('refined', '.txt'), configSchema: z.object({ n: z.number().default(1) }).strict().refine((c) => c.n < 10, { message: 'n must be below 10', path: ['n'] }) };
    expect(problemsOf('version: 1\ngates:\n  loose:\n    m: 1\n  refined:\n    n: 12\n', [loose, refined])).toEqual([
      "4 gates.loose.m: unknown key 'm'",
      '6 gates.refined.n: n must be below 10',
    ]);
  });
});

describe('loadConfig', () => {
  it('without loopgates.yaml: every gate with defaults, found false', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopgates-cfg-'));
    try {
      const c = loadConfig(dir, { gates: toys, commands: commandGateKind });
      expect(c.found).toBe(false);
      expect(c.gates.filter((g) => g.enabled).map((g) => g.gate.id)).toEqual(['toy', 'toy-kt']);
      writeFileSync(join(dir, 'loopgates.yaml'), 'version: 1\ngates:\n  toy:\n    enabled: false\n');
      const d = loadConfig(dir, { gates: toys, commands: commandGateKind });
      expect(d.found).toBe(true);
      expect(d.gates.filter((g) => g.enabled).map((g) => g.gate.id)).toEqual(['toy-kt']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('defaultConfigText', () => {
  it('is valid for every platform, with the toy gates and with the built-in registry', () => {
    for (const gates of [toys, builtinGates]) {
      for (const p of [[], ...PLATFORMS.map((x) => [x])]) {
        const text = defaultConfigText(p, gates);
        expect(() => parseConfig(text, 'x', { gates, commands: commandGateKind })).not.toThrow();
        expect(text).toMatch(/^version: 1$/m);
      }
    }
    const text = defaultConfigText(['android'], toys);
    expect(text).toContain('# Detected platforms: android.');
    expect(text).toContain('  toy-kt:\n    enabled: true\n');
    expect(text).toContain('#   asks: never');
    // The editor schema path only where loopgates is a dependency (node_modules/loopgates); elsewhere none (fresh-user F3).
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=./node_modules/loopgates/loopgates.schema.json');
    expect(defaultConfigText(['android'], toys, new Map(), undefined, null)).not.toContain('$schema');
  });
});

describe('loopgates.schema.json', () => {
  it('is up to date with the config schema (regenerate with: npm run schema)', () => {
    const committed = readFileSync(resolve(import.meta.dirname, '..', '..', 'loopgates.schema.json'), 'utf8');
    expect(committed).toBe(configJsonSchemaText(builtinGates, commandGatesSchema));
  });

  it('describes the common keys of each gate and rejects unknown keys', () => {
    const schema = JSON.parse(configJsonSchemaText(toys, commandGatesSchema)) as { definitions: { loopgates: { additionalProperties: boolean; properties: { gates: { properties: Record<string, { properties: Record<string, unknown>; additionalProperties: boolean }> } } } } };
    const root = schema.definitions.loopgates;
    expect(root.additionalProperties).toBe(false);
    expect(Object.keys(root.properties.gates.properties.toy!.properties).sort()).toEqual(['allowEmpty', 'enabled', 'staged', 'timeoutMs', 'word']);
    expect(root.properties.gates.properties.toy!.additionalProperties).toBe(false);
  });

  it('states the staged policy globally, per gate and per command gate, as the three values', () => {
    const schema = JSON.parse(configJsonSchemaText(toys, commandGatesSchema)) as { definitions: { loopgates: { properties: Record<string, any> } } };
    const root = schema.definitions.loopgates.properties;
    const values = ['introduced', 'touched', 'all'];
    expect(root.staged.enum).toEqual(values);
    expect(root.gates.properties.toy.properties.staged.enum).toEqual(values);
    expect(root.commands.items.properties.staged.enum).toEqual(values);
  });
});

describe('platform detection (for config defaults)', () => {
  it('recognises each platform by its project files', async () => {
    const { detectPlatforms } = await import('../../core/platform.js');
    expect(detectPlatforms(['app/build.gradle.kts', 'app/src/main/AndroidManifest.xml'])).toEqual(['android']);
    expect(detectPlatforms(['App.xcodeproj/project.pbxproj', 'App/ContentView.swift'])).toEqual(['ios']);
    expect(detectPlatforms(['pubspec.yaml', 'android/build.gradle', 'ios/Podfile'])).toEqual(['android', 'ios', 'flutter']);
    const pkg = (deps: Record<string, string>) => () => JSON.stringify({ dependencies: deps });
    expect(detectPlatforms(['package.json', 'App.tsx', 'android/settings.gradle'], pkg({ 'react-native': '0.76.0' }))).toEqual(['android', 'react-native']);
    expect(detectPlatforms(['package.json', 'src/main.tsx', 'index.html'], pkg({ react: '19.0.0' }))).toEqual(['web']);
    expect(detectPlatforms(['node_modules/x/build.gradle', 'README.md'])).toEqual([]);
  });

  it('a web + Expo monorepo is both, named per package (linkwarden; was "defaults for: react-native", fresh-user-3 F15)', async () => {
    const { describePlatforms, detectPlatformDetail, detectPlatforms } = await import('../../core/platform.js');
    const manifests: Record<string, object> = {
      'package.json': { devDependencies: { vitest: '^4.1.0' } },
      'apps/mobile/package.json': { dependencies: { expo: '~54.0.0', 'react-native': '0.81.5', react: '19.1.0' } },
      'apps/web/package.json': { dependencies: { next: '15.0.0', react: '19.1.0' } },
      'apps/worker/package.json': { dependencies: { bullmq: '5.0.0' } },
    };
    const paths = [...Object.keys(manifests), 'apps/mobile/app/(tabs)/_layout.tsx', 'apps/web/pages/index.tsx', 'apps/worker/index.ts'];
    const read = (p: string) => (manifests[p] ? JSON.stringify(manifests[p]) : null);
    expect(detectPlatforms(paths, read)).toEqual(['react-native', 'web']);
    expect(describePlatforms(detectPlatformDetail(paths, read))).toBe('react-native (apps/mobile), web (apps/web)');
    // One app at the root: the platform alone.
    expect(describePlatforms(detectPlatformDetail(['package.json', 'App.tsx', 'android/settings.gradle'], () => JSON.stringify({ dependencies: { 'react-native': '0.76.0' } })))).toBe('android, react-native');
    expect(describePlatforms(detectPlatformDetail(['README.md']))).toBe('no platform detected');
  });
});

describe('a list or map used as a key', () => {
  it('is one problem at its line, and yaml prints no Node warning of its own', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      let err: unknown;
      try {
        parseConfig('version: 1\ngates:\n  [secrets]: {}\n', 'loopgates.yaml', { gates: builtinGates, commands: commandGateKind });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems.map((p) => `${p.line} ${p.message}`)).toEqual(["3 a key must be a plain name, not a list (check the indentation and the ':' of the line)"]);
      // process.emitWarning delivers on a later tick.
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });
});
