#!/usr/bin/env node
// Stable entry for the `agentm` bin: it exists before the first build, so pnpm can link it at install time.
import '../dist/cli/main.js';
