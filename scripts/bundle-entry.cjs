'use strict';
// dist/loopgates.cjs (copied here by scripts/bundle.mjs, which fills in the bundle's digest): what the stored hook
// runs. It compiles the CLI bundle (dist/loopgates.bundle.cjs) with a V8 code cache kept in the repository's
// loopgates cache dir, so a commit does not recompile 2 MB of JavaScript each time. The cache is only an
// optimisation: a missing, unreadable, corrupt or foreign one (another node, arch or loopgates build) is ignored and
// rewritten; nothing here can change a verdict or fail a commit. Outside a hook run (no LOOPGATES_HOOK_FACTS) or
// with LOOPGATES_CODE_CACHE=off, the bundle is simply required.
const fs = require('node:fs');
const path = require('node:path');

const BUNDLE_DIGEST = '@@BUNDLE_DIGEST@@';
const bundle = path.join(__dirname, 'loopgates.bundle.cjs');
// First line of a cache file; the sha1 of the V8 data follows it, so a torn or flipped file is never handed to V8
// (release builds of V8 do not checksum code caches themselves).
const MAGIC = 'loopgates-v8-cache 1';

/** `<git common dir>/loopgates/cache/v8`, from the facts the stored hook handed over; undefined when there are none. */
function cacheDir() {
  if (process.env.LOOPGATES_CODE_CACHE === 'off') return undefined;
  const facts = process.env.LOOPGATES_HOOK_FACTS;
  if (!facts) return undefined;
  // "<rev-parse status>\n<top>\n<git dir>\n<common dir>\n…" (hooks/pre-commit; core/git.ts handedFacts checks it
  // again before trusting it for anything that matters).
  const common = facts.split('\n')[3];
  if (!common || !path.isAbsolute(common)) return undefined;
  try {
    if (!fs.statSync(path.join(common, 'objects')).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  return path.join(common, 'loopgates', 'cache', 'v8');
}

/** The verified V8 data of `file`, or undefined (absent, another format, checksum mismatch). */
function readCache(file) {
  let bytes;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  const header = Buffer.from(`${MAGIC}\n`);
  const sumEnd = header.length + 41;
  if (bytes.length <= sumEnd || !bytes.subarray(0, header.length).equals(header) || bytes[sumEnd - 1] !== 10) return undefined;
  const data = bytes.subarray(sumEnd);
  const sum = require('node:crypto').createHash('sha1').update(data).digest('hex');
  return sum === bytes.toString('latin1', header.length, sumEnd - 1) ? data : undefined;
}

/** Write `data` as `file` (temp file + rename: a reader never sees half of it) and drop every other cache file. */
function writeCache(dir, file, data) {
  try {
    fs.mkdirSync(dir, { recursive: true });
    const sum = require('node:crypto').createHash('sha1').update(data).digest('hex');
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.concat([Buffer.from(`${MAGIC}\n${sum}\n`), data]));
    fs.renameSync(tmp, file);
    for (const name of fs.readdirSync(dir)) {
      if (name !== path.basename(file)) fs.rmSync(path.join(dir, name), { force: true });
    }
  } catch {
    /* a cache we cannot write is a cache we do not have */
  }
}

function run() {
  const dir = cacheDir();
  if (!dir) return void require(bundle);
  const vm = require('node:vm');
  const { createRequire } = require('node:module');
  const file = path.join(dir, `${process.version}-${process.arch}-${BUNDLE_DIGEST.slice(0, 16)}.bin`);
  const cachedData = readCache(file);
  // latin1: the bundle is ASCII (scripts/bundle.mjs checks it), so this is the utf8 text without the utf8 decoding.
  const source = fs.readFileSync(bundle, 'latin1');
  // Node's own CommonJS wrapper, so the bundle sees what `require` would give it.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
    // The packages the bundle leaves in node_modules are ES modules it reaches with `import()` (scripts/bundle.mjs
    // LAZY_PACKAGES), which code compiled here rejects without a loader: node's own where it has the constant
    // (20.12+), else an import() from this file (beside the bundle, so a name resolves to the same package).
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER ?? ((specifier) => import(specifier)),
  });
  if (!cachedData || script.cachedDataRejected) {
    // V8 keys a code cache by its flags: a run that changes them (core/tree-sitter.ts sets wasm flags for the
    // hardcoded-strings parsers) would write a cache every later run rejects, and rewrites. Such a run writes none;
    // the next run that leaves the flags alone does.
    const v8 = require('node:v8');
    const setFlags = v8.setFlagsFromString;
    let flagsChanged = false;
    v8.setFlagsFromString = function setFlagsFromString(...args) {
      flagsChanged = true;
      return setFlags.apply(this, args);
    };
    // At exit, so the functions the run compiled lazily are in the cache too.
    process.once('exit', () => {
      if (!flagsChanged) writeCache(dir, file, script.createCachedData());
    });
  }
  const mod = { exports: {}, filename: bundle, id: bundle, loaded: false };
  script.runInThisContext()(mod.exports, createRequire(bundle), mod, bundle, __dirname);
}

run();
