#!/usr/bin/env node
import("../dist/cli.js").then((m) => m.runFromProcess().catch((e) => { console.error("loopgates: internal error: " + (e && e.stack ? e.stack : String(e)) + "\n  fix: report this with the output of: loopgates doctor"); process.exitCode = 2; }), (e) => { console.error("loopgates: cannot start (" + e.message + "); run: npm install && npm run build"); process.exitCode = 2; });
