// Builds the npm package @agentm/cli from @agentm/core's build (run after it: core is a devDependency, so
// `pnpm -r run build` orders them). The package has no dependencies: everything it runs is inside it.
//   dist/cli-bundle/                 core's bundled command line (core's esbuild.mjs; every npm dependency
//                                    inlined), without meta.json, which only core's start-up test reads
//   dist/memory/indexing/read-worker.js  the index's read worker, bundled with what it imports (yaml): the
//                                    bundle starts it at ../memory/indexing/read-worker.js beside itself
// The paths match core's dist/ on purpose: the bundle finds its package.json (the version) two folders up
// and the worker one folder over, in core and here alike. scripts/release/cli-tarball.mjs packs the package
// (with the repository's LICENSE).
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';

const CORE_DIST = '../core/dist';
const BUNDLE = 'dist/cli-bundle';

const sources = await readdir(join(CORE_DIST, 'cli-bundle')).catch(() => []);
if (!sources.includes('main.cjs'))
  throw new Error(`${CORE_DIST}/cli-bundle/main.cjs is missing: build @agentm/core first (npx pnpm@10.34.8 run build)`);

await rm('dist', { recursive: true, force: true });
await mkdir(BUNDLE, { recursive: true });
for (const file of sources.filter((f) => f.endsWith('.cjs')))
  await copyFile(join(CORE_DIST, 'cli-bundle', file), join(BUNDLE, file));
await build({
  entryPoints: [join(CORE_DIST, 'memory/indexing/read-worker.js')],
  outfile: 'dist/memory/indexing/read-worker.js',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // yaml is CommonJS under Node's conditions and calls require() for Node's modules (as in core's bundle).
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
