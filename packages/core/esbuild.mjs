// Bundles the `agentm` command line (after tsc) into dist/cli-bundle/: loading ~350 ES modules one by one
// was most of a CLI process's start-up (issue 13.4). Two steps:
// 1. esbuild bundles dist/cli/main.js with its dependencies (CommonJS ones converted), code-split: every
//    `await import()` of a command's action starts a chunk of its own, so `--help`, a recall or a hook
//    loads only what it runs.
// 2. rollup merges esbuild's chunks. esbuild splits off every set of modules shared by a different set of
//    entry points, which left `--help` loading 19 files (each costs a resolution, a read and a link); rollup
//    knows that what the importer of a dynamic import has already loaded is there, and joins the rest by
//    who needs it. No code is changed in that step (no tree-shaking): it only regroups modules.
//    It writes them as CommonJS (`.cjs`): Node 20's loader of ES modules resolves every import statement
//    of every file on its own (a URL, a stat, a job and promises each), where require() resolves a path
//    once, synchronously — ~15-25 ms of a recall's or a hook's start-up at 10 000 notes (A/B, 41 rounds).
//    The bin (bin/agentm.js, an ES module) requires main.cjs.
// meta.json beside the bundle names the source modules each file holds (test/cli-startup-modules.test.ts).
//
// Paths the bundle resolves at run time stay right from one folder below dist/: the version reads
// ../../package.json, and the index's read workers run the tsc-built dist/memory/indexing/read-worker.js.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { rollup } from 'rollup';

const outdir = 'dist/cli-bundle';

/**
 * commander requires node:child_process as it loads, for subcommands that are executables of their own
 * (agentm has none), and child_process brings net and dgram: ~6 ms of every command's start-up. Its
 * require gets a stand-in that loads the module when a property is first read.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) ? { path: 'node:child_process', namespace: 'lazy' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};
// Real path: rollup names modules by it, and the metafile's paths must match (a symlinked tmp on macOS).
const chunks = realpathSync(mkdtempSync(join(tmpdir(), 'agentm-cli-chunks-')));
try {
  const { metafile } = await build({
    entryPoints: { main: 'dist/cli/main.js' },
    outdir: chunks,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    metafile: true,
    logLevel: 'warning',
    plugins: [lazyChildProcess],
    // Bundled CommonJS dependencies call require() for Node's modules: the CommonJS files rollup writes
    // have Node's own (an ES module would need one made with createRequire).
  });
  /** Source modules (relative to this package) of each esbuild chunk, by the chunk's absolute path. */
  const sources = new Map(Object.entries(metafile.outputs).map(([file, o]) => [resolve(file), Object.keys(o.inputs)]));

  const bundle = await rollup({
    input: join(chunks, 'main.js'),
    treeshake: false,
    external: (id) => id.startsWith('node:') || builtinModules.includes(id),
    onwarn(warning, warn) {
      // esbuild's chunks import each other both ways; a helper import esbuild left unused is harmless.
      if (warning.code !== 'CIRCULAR_DEPENDENCY' && warning.code !== 'UNUSED_EXTERNAL_IMPORT') warn(warning);
    },
  });
  // Chunk names carry a content hash: clear the last build's, or the folder keeps every chunk ever built.
  rmSync(outdir, { recursive: true, force: true });
  const { output } = await bundle.write({
    dir: outdir,
    format: 'cjs',
    entryFileNames: '[name].cjs',
    chunkFileNames: 'chunk-[hash].cjs',
  });
  await bundle.close();

  const outputs = {};
  for (const file of output) {
    if (file.type !== 'chunk') continue;
    const inputs = Object.keys(file.modules).flatMap((m) => sources.get(m) ?? [relative('.', m)]);
    outputs[`${outdir}/${file.fileName}`] = {
      bytes: Buffer.byteLength(file.code),
      inputs: Object.fromEntries(inputs.map((i) => [i, {}])),
      imports: [
        ...file.imports.map((i) => ({ path: `${outdir}/${i}`, kind: 'import-statement' })),
        ...file.dynamicImports.map((i) => ({ path: `${outdir}/${i}`, kind: 'dynamic-import' })),
      ],
    };
  }
  writeFileSync(`${outdir}/meta.json`, JSON.stringify({ outputs }));
} finally {
  rmSync(chunks, { recursive: true, force: true });
}
