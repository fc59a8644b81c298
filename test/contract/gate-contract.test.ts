// The one contract every registered gate meets (core/types.ts "The rules every gate meets"), run over the registry:
// every built-in gate of gates/registry.ts and a command gate built from loopgates.yaml `commands:`. A new gate gets
// these tests by registering; a gate that breaks a rule fails the one test named after that rule.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../core/config.js';
import { missingAnswers } from '../../core/config-model.js';
import { runGate, type GateSettings } from '../../core/runner.js';
import { indexWorkspace } from '../../core/snapshot.js';
import { runTool } from '../../core/tools.js';
import type { Gate, GateContext, GateResult, SelfTestCase, Workspace } from '../../core/types.js';
import { memoryWorkspace, overlayWorkspace } from '../../core/workspace.js';
import { buildCommandGates, commandGateKind, commandSpecOf } from '../../gates/command/index.js';
import { builtinGates } from '../../gates/registry.js';
import { classifyRed } from '../../mutations/outcomes.js';
import { seededRandom } from '../../mutations/random.js';
import { runSelfTests } from '../../mutations/selftest.js';
import { isolatedGitEnv, treeAndIndexDigest, withGitRepo } from '../helpers/git-repo.js';
import { repoRoot } from '../helpers/setup-env.js';

const cacheRoot = '/tmp/loopgates-contract-cache';

/** A command gate as a team writes one: a script that refuses FIXME in notes/, with one mutation of a real file. */
const COMMAND_REPO: Record<string, string> = {
  'notes/todo.txt': 'buy milk\ncall the bank\n',
  'check-fixme.mjs': [
    "import { readdirSync, readFileSync } from 'node:fs';",
    'let bad = 0;',
    "for (const f of readdirSync('notes')) readFileSync(`notes/${f}`, 'utf8').split('\\n').forEach((l, i) => { if (l.includes('FIXME')) { console.log(`notes/${f}:${i + 1}: FIXME left in`); bad++; } });",
    'process.exit(bad ? 1 : 0);',
    '',
  ].join('\n'),
};
const COMMAND_YAML = `version: 1
commands:
  - id: no-fixme
    command: [node, check-fixme.mjs]
    loop: { runs: node check-fixme.mjs, reads: "notes/**", ends: exit 0 passes, asks: never }
    files: ["notes/**"]
    mutations:
      - file: notes/todo.txt
        append: FIXME pay rent
`;

/** The command gate, built from COMMAND_YAML in a repository of its own (beforeAll), as `loopgates selftest` builds it. */
let commandGate: Gate<any> | undefined;
let commandBase: string | undefined;

beforeAll(() => {
  commandBase = mkdtempSync(join(tmpdir(), 'loopgates-contract-'));
  const dir = join(commandBase, 'repo');
  const env = { ...process.env, ...isolatedGitEnv(join(commandBase, 'home')) };
  for (const [p, c] of Object.entries(COMMAND_REPO)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'baseline');
  const configured = parseConfig(COMMAND_YAML, join(dir, 'loopgates.yaml'), { gates: [], commands: commandGateKind });
  // Rebuilt at the repository's root, as the selftest verb does: its cases are its mutations of the real files.
  commandGate = buildCommandGates([commandSpecOf(configured[0]!.gate)!], { root: dir })[0]!;
});

const figures = new Map<string, string[]>();
afterAll(() => {
  if (commandBase) rmSync(commandBase, { recursive: true, force: true });
  // The figures the issue note quotes.
  console.log(`gate contract:\n${[...figures].map(([id, f]) => `  ${id}: ${f.join(', ')}`).join('\n')}`);
});

/** The gates under contract: every built-in gate of the registry (nothing here names one) and the command gate. */
const underContract: Array<{ kind: 'built-in' | 'command'; id: string; gate: () => Gate<any> }> = [
  ...builtinGates.map((g) => ({ kind: 'built-in' as const, id: g.id, gate: () => g })),
  { kind: 'command', id: 'no-fixme', gate: () => commandGate! },
];

/** A gate's settings: its config from a case, else the defaults; a command gate's config is its spec. */
function settingsFor(gate: Gate<any>, c?: SelfTestCase): GateSettings<any> {
  const spec = commandSpecOf(gate);
  return { gate, config: spec ?? gate.configSchema.parse(c?.config ?? {}), timeoutMs: 60_000 };
}

function staged(ws: Workspace, targets: readonly string[], changes: ReadonlyMap<string, string> = new Map()): Workspace {
  return { ...overlayWorkspace(ws, changes, targets), mode: 'staged' };
}

function ctxFor(settings: GateSettings<any>, ws: Workspace): GateContext<any> {
  return { ws, config: settings.config, signal: new AbortController().signal, runTool, cacheDir: join(cacheRoot, settings.gate.id), log: () => {} };
}

/** Keys `filters` declares that are no array of `config`. */
function notArrays(gate: Gate<any>, config: unknown): string[] {
  const f = gate.filters ?? {};
  return [...(f.candidates ?? []), ...(f.inputs ?? []), ...(f.includes ?? [])].filter((key) => {
    let node: unknown = config;
    for (const k of key.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[k] : undefined;
    return !Array.isArray(node);
  });
}

const committedSchema = JSON.parse(readFileSync(join(repoRoot, 'loopgates.schema.json'), 'utf8')) as {
  definitions: { loopgates: { properties: { gates: { properties: Record<string, { additionalProperties?: boolean }> }; commands?: unknown } } };
};

const note = (id: string, what: string) => figures.set(id, [...(figures.get(id) ?? []), what]);

describe('gate contract', () => {
  it('covers every built-in gate of the registry, once each, and a command gate', () => {
    const ids = builtinGates.map((g) => g.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(underContract.map((g) => g.id)).toEqual([...ids, 'no-fixme']);
  });

  for (const entry of underContract) {
    describe(`${entry.kind} gate ${entry.id}`, () => {
      it('has its four answers and a kebab-case id', () => {
        const gate = entry.gate();
        expect(missingAnswers(gate)).toEqual([]);
        expect(gate.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      });

      it('config: strict, defaults from {}, declared filters name arrays, in the committed JSON Schema', () => {
        const gate = entry.gate();
        const defaults = gate.configSchema.safeParse({});
        expect(defaults.success, 'configSchema.parse({}) must give the defaults').toBe(true);
        expect(gate.configSchema.safeParse({ contractUnknownKey: 1 }).success, 'unknown keys must be rejected (.strict())').toBe(false);
        // A command gate's config, as the engines see it, is its spec.
        expect(notArrays(gate, commandSpecOf(gate) ?? defaults.data), 'filters must name array keys of the config').toEqual([]);
        if (entry.kind === 'command') expect(committedSchema.definitions.loopgates.properties.commands).toBeDefined();
        else {
          const section = committedSchema.definitions.loopgates.properties.gates.properties[gate.id];
          expect(section, `loopgates.schema.json lacks gates.${gate.id}: run npm run schema`).toBeDefined();
          expect(section!.additionalProperties).toBe(false);
        }
      });

      it('ships green and red cases, and selftest proves it: each green passes, each red is caught at its line', async () => {
        const gate = entry.gate();
        const cases = await gate.selfTest();
        const greens = cases.filter((c) => c.kind === 'green').length;
        const reds = cases.length - greens;
        expect(greens, 'no green case').toBeGreaterThan(0);
        expect(reds, 'no red case: decoration').toBeGreaterThan(0);
        const report = await runSelfTests([settingsFor(gate)], { cacheRoot });
        const st = report.gates[0]!;
        expect(st.cases.filter((c) => c.outcome !== 'caught' && c.outcome !== 'clean').map((c) => `${c.kind} ${c.name}: ${c.outcome} ${c.detail}`)).toEqual([]);
        expect(st.proof).toBe('PROVEN');
        note(entry.id, `${greens} green + ${reds} red cases ${st.proof}`);
      });

      it('reports counts: every green case reads a file and names what it judged', async () => {
        const gate = entry.gate();
        for (const c of (await gate.selfTest()).filter((x) => x.kind === 'green')) {
          const ws = memoryWorkspace({ files: c.files, mode: 'staged', ...(c.targets ? { targets: c.targets } : {}) });
          const r = await runGate(settingsFor(gate, c), { ws, cacheRoot });
          expect(r.verdict, c.name).toBe('pass');
          for (const k of ['files', 'items', 'filtered', 'suppressed', 'findings'] as const) expect(Number.isInteger(r.counts[k]), `${c.name}: counts.${k}`).toBe(true);
          expect(r.counts.files, `${c.name}: files read`).toBeGreaterThan(0);
          expect(r.itemUnit, `${c.name}: itemUnit`).not.toBe('');
        }
      });

      it('mutate: each operator, applied to the gate\'s own green cases, makes a mutant the gate kills', async () => {
        const gate = entry.gate();
        expect(gate.mutations.length, 'no mutation operator: decoration').toBeGreaterThan(0);
        const greens = (await gate.selfTest()).filter((c) => c.kind === 'green');
        const outcomes: string[] = [];
        for (const op of gate.mutations) {
          let outcome = `${op.id}: finds no place in any shipped green case whose file passes alone`;
          search: for (const c of greens) {
            const base = memoryWorkspace({ files: c.files, mode: 'all' });
            const s = settingsFor(gate, c);
            for (const path of Object.keys(c.files).sort()) {
              if (!op.appliesTo(path)) continue;
              const facts = op.facts ? await op.facts(ctxFor(s, base), path) : undefined;
              const mutant = op.mutate(path, c.files[path]!, seededRandom(1), facts);
              if (!mutant) continue;
              // The unmutated file must pass first, as mutate requires: an input already red proves nothing.
              if ((await runGate(s, { ws: staged(base, [path]), cacheRoot })).verdict !== 'pass') continue;
              const red: GateResult = await runGate(s, { ws: staged(base, [path], new Map([[path, mutant.content]])), cacheRoot });
              const r = classifyRed(path, mutant, red);
              outcome = `${op.id}: ${r.outcome}${r.outcome === 'killed' ? '' : ` (${path}:${mutant.line} ${mutant.description}: ${r.detail})`}`;
              break search;
            }
          }
          outcomes.push(outcome);
        }
        expect(outcomes).toEqual(gate.mutations.map((op) => `${op.id}: killed`));
        note(entry.id, `${gate.mutations.length}/${gate.mutations.length} operators killed on its green cases`);
      });

      it('zero inputs: skip when staged, vacuous in --all (the runner decides)', async () => {
        const gate = entry.gate();
        for (const [mode, want] of [['staged', 'skip'], ['all', 'vacuous']] as const) {
          const r = await runGate(settingsFor(gate), { ws: memoryWorkspace({ files: {}, mode }), cacheRoot });
          expect(r.verdict, mode).toBe(want);
        }
      });

      it('writes nothing: its first green case, staged in a real repository, passes there and leaves tree and index as they were', async () => {
        const gate = entry.gate();
        const first = (await gate.selfTest()).find((c) => c.kind === 'green')!;
        await withGitRepo(first.files, async (repo) => {
          repo.git('add', '-A');
          const before = treeAndIndexDigest(repo.dir);
          const r = await runGate(settingsFor(gate, first), { ws: await indexWorkspace(repo.dir, {}), cacheRoot });
          expect(treeAndIndexDigest(repo.dir)).toBe(before);
          expect(r.verdict, r.reason ?? r.error?.message ?? r.findings.map((f) => `${f.file}:${f.line} ${f.rule}`).join(', ')).toBe('pass');
        });
      });
    });
  }
});
