#!/usr/bin/env node
// Stable entry for the `agentm` bin: it exists before the first build, so pnpm can link it at install time.
// It runs the bundled CLI (esbuild.mjs): one file and the chunks a command needs, not ~350 modules.
import '../dist/cli-bundle/main.js';
