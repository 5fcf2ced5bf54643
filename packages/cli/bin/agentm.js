#!/usr/bin/env node
// The `agentm` command of the npm package: core's bundled command line (build.mjs copies it into dist/).
import '../dist/cli-bundle/main.js';
