// The npm package @agentm/cli as the tarball `npm publish` uploads. packages/cli's build (bin, dist) is
// staged with the repository's LICENSE and a manifest for users — no `scripts`, no `devDependencies`: the
// workspace link to @agentm/core means nothing outside this repository, and the package has no
// dependencies at all (everything it runs is bundled) — then packed by npm itself. The release workflow
// publishes exactly this file; test/release-cli.process.test.ts installs it.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from '../../test/vscode/env.mjs';
import { ReleaseError } from './errors.mjs';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const CLI_DIR = join(REPO, 'packages', 'cli');

/** The manifest users get: packages/cli's, without what only this repository uses. */
export function publishedManifest(manifest) {
  const published = { ...manifest };
  delete published.scripts;
  delete published.devDependencies;
  return published;
}

/**
 * An npm child's environment: this process's without pnpm's `npm_config_*` (npm would read them as its
 * own config), no update check, no funding or audit chatter.
 */
export function npmEnv(extra = {}) {
  return cleanEnv(process.env, {
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    ...extra,
  });
}

/**
 * Packs @agentm/cli into `outDir`; returns the tarball's path, its file list (paths inside the package)
 * and the manifest packed. Needs the build (`pnpm run build`); throws ReleaseError naming the fix.
 */
export function packCli(outDir, { repo = REPO } = {}) {
  const cliDir = join(repo, 'packages', 'cli');
  if (!existsSync(join(cliDir, 'dist', 'cli-bundle', 'main.cjs')))
    throw new ReleaseError(`${cliDir}/dist is not built; run \`npx --yes pnpm@10.34.8 run build\` first`);
  const stage = mkdtempSync(join(tmpdir(), 'agentm-cli-pack-'));
  try {
    for (const part of ['bin', 'dist', 'README.md']) cpSync(join(cliDir, part), join(stage, part), { recursive: true });
    cpSync(join(repo, 'LICENSE'), join(stage, 'LICENSE'));
    const manifest = publishedManifest(JSON.parse(readFileSync(join(cliDir, 'package.json'), 'utf8')));
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    mkdirSync(outDir, { recursive: true });
    const r = spawnSync('npm', ['pack', '--json', '--pack-destination', resolve(outDir)], {
      cwd: stage,
      env: npmEnv(),
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new ReleaseError(`npm pack failed in ${stage}: ${(r.stderr || r.stdout || '').trim()}`);
    const [packed] = JSON.parse(r.stdout);
    return {
      tarball: join(resolve(outDir), packed.filename),
      files: packed.files.map((f) => f.path).sort(),
      bytes: packed.size,
      manifest,
    };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
