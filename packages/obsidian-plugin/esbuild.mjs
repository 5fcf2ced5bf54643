// Bundles the plugin (and @agentm/core with it) into main.js, the file Obsidian loads.
import { builtinModules } from 'node:module';
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'main.js',
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
  sourcemap: process.env.NODE_ENV === 'production' ? false : 'inline',
  minify: process.env.NODE_ENV === 'production',
  logLevel: 'warning',
});
