#!/usr/bin/env node
// The `agentm` command of the npm package: core's bundled command line (build.mjs copies it into dist/).
import { createRequire } from 'node:module';

// CommonJS (esbuild.mjs says why), required rather than imported: Node's ES module loader would parse it for
// its exports first.
createRequire(import.meta.url)('../dist/cli-bundle/main.cjs');
