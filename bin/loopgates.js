#!/usr/bin/env node
import("../dist/cli.js").then((m) => m.runFromProcess(), (e) => { console.error("loopgates: cannot start (" + e.message + "); run: npm install && npm run build"); process.exitCode = 2; });
