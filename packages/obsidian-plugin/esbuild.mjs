// Builds the three files a user copies into <vault>/.obsidian/plugins/agentm-vault/: dist/main.js (the plugin
// and @agentm/core bundled as CommonJS), dist/manifest.json and dist/styles.css. `node esbuild.mjs --dev` adds
// an inline source map.
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { build } from 'esbuild';

const dev = process.argv.includes('--dev');
await rm('dist', { recursive: true, force: true });
await mkdir('dist', { recursive: true });
await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
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
  sourcemap: dev ? 'inline' : false,
  logLevel: 'warning',
});
await copyFile('manifest.json', 'dist/manifest.json');
await copyFile('styles.css', 'dist/styles.css');
const files = (await readdir('dist')).sort().join(', ');
if (files !== 'main.js, manifest.json, styles.css')
  throw new Error(`dist/ must hold exactly main.js, manifest.json and styles.css; found ${files}`);
