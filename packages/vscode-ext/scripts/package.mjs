// pnpm --filter agentm-vscode package: production bundle (esbuild) → `vsce package --no-dependencies`.
// vsce comes from the VS Code e2e tool cache (test/vscode/setup.mjs installs it, pinned, on first use).
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cleanEnv } from '../../../test/vscode/env.mjs';
import { ensureAll } from '../../../test/vscode/setup.mjs';

export const EXTENSION_DIR = fileURLToPath(new URL('..', import.meta.url));
export const MAX_VSIX_BYTES = 1.5 * 1024 * 1024;

function run(command, args, env = {}) {
  const r = spawnSync(command, args, { cwd: EXTENSION_DIR, stdio: 'inherit', env: cleanEnv(process.env, env) });
  if (r.status !== 0) throw new Error(`${[command, ...args].join(' ')} failed (exit ${r.status}) in ${EXTENSION_DIR}`);
}

/** Builds and packages the extension; resolves with the .vsix path and size. Throws when over 1.5 MB. */
export function packageExtension() {
  const paths = ensureAll(['tools']);
  const { name, version } = JSON.parse(readFileSync(join(EXTENSION_DIR, 'package.json'), 'utf8'));
  const vsix = join(EXTENSION_DIR, `${name}-${version}.vsix`);
  run(process.execPath, ['esbuild.mjs'], { NODE_ENV: 'production' });
  run(process.execPath, [paths.vsce, 'package', '--no-dependencies', '--out', vsix]);
  const bytes = statSync(vsix).size;
  if (bytes > MAX_VSIX_BYTES) throw new Error(`${vsix} is ${bytes} bytes, over the 1.5 MB budget; check .vscodeignore`);
  return { vsix, bytes };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { vsix, bytes } = packageExtension();
  console.log(`packaged ${vsix} (${(bytes / 1024).toFixed(1)} KiB)`);
}
