// Bundles the `agentm` command line (after tsc) into dist/cli-bundle/: loading ~350 ES modules one by one
// was most of a CLI process's start-up (issue 13.4). Dependencies are inlined; every `await import()` of
// a command's action becomes a chunk of its own, so `--help`, a recall or a hook loads only what it runs.
// The metafile beside it (meta.json) records what each chunk imports, for test/cli-startup-bundle.test.ts.
//
// Paths the bundle resolves at run time stay right from one folder below dist/: the version reads
// ../../package.json, and the index's read workers run the tsc-built dist/memory/indexing/read-worker.js.
import { rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const outdir = 'dist/cli-bundle';
// Chunk names carry a content hash: clear the last build's, or the folder keeps every chunk ever built.
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { main: 'dist/cli/main.js' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunk-[hash]',
  metafile: true,
  logLevel: 'warning',
  // Bundled CommonJS dependencies call require() for Node's modules; an ES module has none of its own.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
writeFileSync(`${outdir}/meta.json`, JSON.stringify(result.metafile));
