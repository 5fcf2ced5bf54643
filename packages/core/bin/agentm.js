#!/usr/bin/env node
// Stable entry for the `agentm` bin: it exists before the first build, so pnpm can link it at install time.
// It runs the bundled CLI (esbuild.mjs): one file and the chunks a command needs, not ~350 modules.
import { createRequire } from 'node:module';

// CommonJS (esbuild.mjs says why), required rather than imported: Node's ES module loader would parse it for
// its exports first.
createRequire(import.meta.url)('../dist/cli-bundle/main.cjs');
