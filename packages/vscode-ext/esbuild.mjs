// Bundles the extension (and @agentm/core with it) into one CommonJS file for the extension host, and
// the integration tests (test/integration/*.ts) into out/test/integration/ for the test runners.
import { readdirSync } from 'node:fs';
import { build } from 'esbuild';

const production = process.env.NODE_ENV === 'production';
const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' };

await build({
  ...common,
  entryPoints: ['src/extension.ts'],
  outfile: 'dist/extension.js',
  external: ['vscode'],
  sourcemap: !production,
  minify: production,
  // The first and last statements of the bundle: activation time is measured from here (src/perf.ts).
  banner: { js: 'require("node:perf_hooks").performance.mark("agentm:module");' },
  footer: { js: 'require("node:perf_hooks").performance.mark("agentm:module:end");' },
});

const tests = readdirSync('test/integration').filter((f) => f.endsWith('.ts'));
await build({
  ...common,
  entryPoints: tests.map((f) => `test/integration/${f}`),
  outdir: 'out/test/integration',
  external: ['vscode', 'mocha'],
  sourcemap: 'inline',
});
