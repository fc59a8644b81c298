// hardcoded-strings in --staged mode on a real temporary git repository: the index is judged (not the working
// tree), the unstaged base catalog is context for the suggested key, and nothing is written to the tree or index.
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { indexWorkspace } from '../../core/snapshot.js';
import { configSchema, hardcodedStringsGate } from '../../gates/hardcoded-strings/index.js';
import { treeAndIndexDigest, withGitRepo } from '../helpers/git-repo.js';

const LAYOUT = (extra: string) => `<?xml version="1.0" encoding="utf-8"?>
<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android"
    android:layout_width="match_parent"
    android:layout_height="wrap_content">
    <ImageButton
        android:id="@+id/butPlay"${extra}
        android:src="@drawable/ic_play" />
</LinearLayout>
`;
const STRINGS = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="play_label">Play</string>
</resources>
`;
const layout = 'app/src/main/res/layout/player.xml';

async function staged(dir: string) {
  const ws = await indexWorkspace(dir, {});
  return runGate({ gate: hardcodedStringsGate, config: configSchema.parse({}), timeoutMs: 60_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
}

describe('hardcoded-strings --staged', () => {
  it('fails on the staged literal with the unstaged base catalog key, and writes nothing', async () => {
    await withGitRepo({ [layout]: LAYOUT(''), 'app/src/main/res/values/strings.xml': STRINGS }, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '-m', 'init');
      repo.write(layout, LAYOUT('\n        android:contentDescription="Play"'));
      repo.git('add', layout);
      // The working tree is fixed again but not staged: the commit would still carry the literal.
      repo.write(layout, LAYOUT('\n        android:contentDescription="@string/play_label"'));
      const before = treeAndIndexDigest(repo.dir);
      const r = await staged(repo.dir);
      expect(treeAndIndexDigest(repo.dir)).toBe(before);
      expect(r.verdict).toBe('fail');
      expect(r.counts).toEqual({ files: 1, items: 1, filtered: 0, suppressed: 0, findings: 1 });
      expect(r.findings.map((f) => `${f.file}:${f.line}:${f.column}`)).toEqual([`${layout}:7:36`]);
      expect(r.findings[0]!.message).toMatch(/use @string\/play_label$/);
    });
  });

  it('passes once the fix is staged, and skips a commit that stages nothing it reads', async () => {
    await withGitRepo({ [layout]: LAYOUT(''), 'app/src/main/res/values/strings.xml': STRINGS, 'README.md': 'x\n' }, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '-m', 'init');
      repo.write(layout, LAYOUT('\n        android:contentDescription="@string/play_label"'));
      repo.git('add', layout);
      const green = await staged(repo.dir);
      expect(green.verdict).toBe('pass');
      expect(green.counts).toEqual({ files: 1, items: 0, filtered: 0, suppressed: 0, findings: 0 });
      repo.git('commit', '-q', '-m', 'fix');
      repo.write('README.md', 'y\n');
      repo.git('add', 'README.md');
      const skip = await staged(repo.dir);
      expect(skip.verdict).toBe('skip');
    });
  });

  // fresh6 F11: the build-output excludes matched anywhere, so a Kotlin package named build/dist/Pods/DerivedData was
  // never read and its hard-coded text landed ("no files for inspection"). Output folders beside src/ stay skipped.
  it('judges a Kotlin package named build, dist, Pods or DerivedData under src/, and still skips app/build/generated', async () => {
    const compose = (pkg: string) => `package com.acme.${pkg}\n\n@Composable\nfun Zz() { Text("Delete your account now") }\n`;
    const sources = ['build', 'dist', 'Pods', 'DerivedData'].map((pkg) => `app/src/main/kotlin/com/acme/${pkg}/Config.kt`);
    const generated = 'app/build/generated/source/buildConfig/debug/com/acme/Generated.kt';
    await withGitRepo({ 'app/build.gradle.kts': 'plugins { }\n', 'README.md': 'x\n' }, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '-m', 'init');
      for (const f of sources) repo.write(f, compose(f.split('/')[5]!));
      repo.write(generated, compose('generated'));
      repo.git('add', '-A');
      const r = await staged(repo.dir);
      expect(r.verdict).toBe('fail');
      expect(r.counts).toMatchObject({ files: 4, findings: 4 });
      expect(r.findings.map((f) => `${f.file}:${f.line}`)).toEqual(sources.map((f) => `${f}:4`).sort());
      repo.git('rm', '-q', '--cached', ...sources);
      const skip = await staged(repo.dir);
      expect([skip.verdict, skip.counts.files]).toEqual(['skip', 0]);
    });
  });
});
