// "N syntax error(s) recovered" (issue 15, item 12): the bundled Kotlin and Swift grammars (tree-sitter-wasms 0.1.13,
// the newest on npm; @tree-sitter-grammars/tree-sitter-kotlin 1.x renames the node types the extractor reads, and
// tree-sitter-swift ships no wasm) recover from valid code such as Kotlin `fun interface` and Swift
// `(@Sendable (T) -> Void).self`, and every run said so though nothing could be hidden. A note now names only recovered
// regions holding a string literal. Shapes from element-x-android (SystemClock.kt) and IceCubesApp
// (NotificationService.swift).
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import type { GateResult } from '../../core/types.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { hardcodedStringsGate } from '../../gates/hardcoded-strings/index.js';

const run = (files: Record<string, string>): Promise<GateResult> =>
  runGate({ gate: hardcodedStringsGate, config: hardcodedStringsGate.configSchema.parse({}), timeoutMs: 30_000 }, { ws: memoryWorkspace({ files, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' });
const recovered = (r: GateResult) => r.notes.filter((n) => n.includes('recovered'));

describe('recovered syntax errors: said only where a literal could hide', () => {
  it('red: valid Kotlin `fun interface` gives no note (was "1 syntax error(s) recovered" on every run)', async () => {
    const kt = 'package a\n\n/**\n * Reads the current time.\n */\nfun interface SystemClock {\n    fun epochMillis(): Long\n}\n\n@Composable\nfun Title() {\n    Text("Now playing")\n}\n';
    const r = await run({ 'app/src/main/java/a/SystemClock.kt': kt });
    expect(recovered(r)).toEqual([]);
    expect(r.findings.map((f) => `${f.file}:${f.line} ${f.rule}`)).toEqual(['app/src/main/java/a/SystemClock.kt:12 hardcoded-text']);
  });
  it('red: valid Swift `unsafeBitCast(x, to: (@Sendable (T) -> Void).self)` gives no note', async () => {
    const swift = 'import SwiftUI\n\nfunc run(contentHandler: @escaping (String) -> Void) {\n  let casted = unsafeBitCast(\n    contentHandler,\n    to: (@Sendable (String) -> Void).self)\n  casted("x")\n}\n\nstruct Title: View {\n  var body: some View { Text("Now playing") }\n}\n';
    const r = await run({ 'App/Title.swift': swift });
    expect(recovered(r)).toEqual([]);
    expect(r.findings.map((f) => `${f.file}:${f.line} ${f.rule}`)).toEqual(['App/Title.swift:11 missing-catalog-key']);
  });
  it('green: a broken region that holds a string literal is still said, at its place', async () => {
    const kt = 'package a\n\n@Composable\nfun Title() {\n    Text("Now playing")\n}\n\nval broken = listOf(\n    "Pause" ) ) ) (\n';
    const r = await run({ 'app/src/main/java/a/Title.kt': kt });
    expect(recovered(r)).toHaveLength(1);
    expect(recovered(r)[0]).toMatch(/^app\/src\/main\/java\/a\/Title\.kt:\d+:\d+: \d+ syntax error\(s\) recovered; literals inside them may be missed$/);
  });
});
