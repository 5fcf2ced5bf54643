// Builds the three files a user copies into <vault>/.obsidian/plugins/agentm-vault/: dist/main.js (the plugin
// and @agentm/core bundled as CommonJS, minified), dist/manifest.json and dist/styles.css.
// `node esbuild.mjs --dev` builds a readable main.js with an inline source map instead.
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { build } from 'esbuild';
import { buildOptions } from './build-options.mjs';

const dev = process.argv.includes('--dev');
await rm('dist', { recursive: true, force: true });
await mkdir('dist', { recursive: true });
await build({ ...buildOptions({ production: !dev }), outfile: 'dist/main.js' });
await copyFile('manifest.json', 'dist/manifest.json');
await copyFile('styles.css', 'dist/styles.css');
const files = (await readdir('dist')).sort().join(', ');
if (files !== 'main.js, manifest.json, styles.css')
  throw new Error(`dist/ must hold exactly main.js, manifest.json and styles.css; found ${files}`);
