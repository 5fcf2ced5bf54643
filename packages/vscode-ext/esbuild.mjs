// Bundles the extension (and @agentm/core with it) into one CommonJS file for the extension host, core's
// `agentm` command line into dist/agentm.mjs (the MCP server definition runs it), and the integration
// tests (test/integration/*.ts) into out/test/integration/ for the test runners.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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

// The CLI as one ES module (its entry awaits at top level). Core reads its version from its package.json
// beside dist/; bundled, that file is not there, so the version is written in at build time.
const core = dirname(createRequire(import.meta.url).resolve('@agentm/core/package.json'));
const coreVersion = JSON.parse(readFileSync(join(core, 'package.json'), 'utf8')).version;
await build({
  ...common,
  format: 'esm',
  entryPoints: [join(core, 'dist', 'cli', 'main.js')],
  outfile: 'dist/agentm.mjs',
  minify: production,
  // Bundled CommonJS dependencies call require() for Node's modules; an ES module has none of its own.
  banner: {
    js: "import { createRequire as agentmRequire } from 'node:module'; const require = agentmRequire(import.meta.url);",
  },
  plugins: [
    {
      name: 'core-version',
      setup(b) {
        b.onLoad({ filter: /[\\/]cli[\\/]version\.js$/ }, () => ({
          contents: `export function coreVersion() { return ${JSON.stringify(coreVersion)}; }`,
          loader: 'js',
        }));
      },
    },
  ],
});

const tests = readdirSync('test/integration').filter((f) => f.endsWith('.ts'));
await build({
  ...common,
  entryPoints: tests.map((f) => `test/integration/${f}`),
  outdir: 'out/test/integration',
  external: ['vscode', 'mocha'],
  sourcemap: 'inline',
});
