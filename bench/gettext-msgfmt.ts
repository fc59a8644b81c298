// The msgfmt differential over real PO files: `npx vite-node bench/gettext-msgfmt.ts <dir|file.po>...` prints, per
// directory, the messages judged and the disagreements between string-parity's gettext format checks and
// msgfmt -c --check-format, first on the files as they are, then on fast-check mutants of their messages (seed 15).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { differential, mutantsFile } from '../test/helpers/msgfmt-differential.js';

function poFiles(p: string): string[] {
  if (statSync(p).isFile()) return p.endsWith('.po') ? [p] : [];
  return readdirSync(p).flatMap((n) => (n === '.git' || n === 'node_modules' ? [] : poFiles(join(p, n))));
}

const perFile = Number(process.env.MUTANTS ?? 200);
for (const root of process.argv.slice(2)) {
  const t = { files: 0, masked: 0, judged: 0, bothError: 0, dis: 0, mJudged: 0, mBothError: 0, mDis: 0 };
  const shown: string[] = [];
  for (const f of poFiles(root)) {
    const text = readFileSync(f, 'utf8');
    t.files++;
    const a = differential(text);
    t.judged += a.judged;
    t.masked += a.masked;
    t.bothError += a.bothError;
    t.dis += a.disagreements.length;
    const b = differential(mutantsFile(text, perFile, 15));
    t.mJudged += b.judged;
    t.mBothError += b.bothError;
    t.mDis += b.disagreements.length;
    for (const d of [...a.disagreements, ...b.disagreements].slice(0, 3)) if (shown.length < 12) shown.push(`${f}:${d.line} msgfmt=${d.msgfmt} ours=${d.ours} [${d.flags.join(',')}] ${JSON.stringify(d.msgid)} -> ${JSON.stringify(d.msgstr)}`);
  }
  console.log(`${root}: ${t.files} PO files; as is: ${t.judged} messages judged (${t.masked} more hidden by another msgfmt error first), ${t.bothError} errors both, ${t.dis} disagreements; mutants: ${t.mJudged} judged, ${t.mBothError} errors both, ${t.mDis} disagreements`);
  for (const s of shown) console.log(`  ${s}`);
}
