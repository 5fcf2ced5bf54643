// The esbuild options of the plugin's main.js, shared by the build (esbuild.mjs) and the benchmark that
// measures what minifying buys (bench/obsidian-plugin.mjs). As the Obsidian sample plugin does, a production
// build is minified and has no source map; a development build is readable and maps to the sources inline.
import { builtinModules } from 'node:module';

/** @param {{ production: boolean }} options */
export function buildOptions({ production }) {
  return {
    entryPoints: [new URL('src/main.ts', import.meta.url).pathname],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'es2022',
    external: [
      'obsidian',
      'electron',
      '@codemirror/*',
      '@lezer/*',
      ...builtinModules,
      ...builtinModules.map((m) => `node:${m}`),
    ],
    minify: production,
    treeShaking: true,
    sourcemap: production ? false : 'inline',
    logLevel: 'warning',
  };
}
