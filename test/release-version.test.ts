import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CLAUDE_PLUGIN,
  MARKETPLACE,
  OBSIDIAN_MANIFEST,
  OBSIDIAN_VERSIONS,
  PACKAGE_JSONS,
  ROOT_COPIES,
  problems,
  statedVersions,
} from '../scripts/release/manifests.mjs';
import { run } from './helpers/packed-cli.js';
import { fileSnapshot, tempDir } from './helpers/temp.js';

/** scripts/version.mjs, run on a copy of the repository's manifests (and the plugin's launcher). */
const REPO = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = join(REPO, 'scripts', 'version.mjs');
const LAUNCHER = 'plugins/claude-code/scripts/agentm.mjs';
const FILES = [
  ...PACKAGE_JSONS,
  OBSIDIAN_MANIFEST,
  OBSIDIAN_VERSIONS,
  ...Object.keys(ROOT_COPIES),
  CLAUDE_PLUGIN,
  MARKETPLACE,
  LAUNCHER,
];

async function copy(): Promise<string> {
  const root = await tempDir('agentm-version-');
  for (const file of FILES) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    cpSync(join(REPO, file), join(root, file));
  }
  return root;
}

const version = (root: string, ...args: string[]) =>
  run(process.execPath, [SCRIPT, ...args, '--root', root], { env: process.env, cwd: root });

const lines = (text: string) => text.split('\n');

describe('one version everywhere (scripts/version.mjs)', () => {
  it('knows every package that ships, and the repository agrees with itself', () => {
    const packages = readdirSync(join(REPO, 'packages')).map((p) => `packages/${p}/package.json`);
    expect([...PACKAGE_JSONS].sort()).toEqual(packages.sort());
    expect(problems(REPO)).toEqual([]);
  });

  it('sets a version in every manifest, versions.json and the root copies, changing only version lines', async () => {
    const root = await copy();
    const before = Object.fromEntries(FILES.map((f) => [f, readFileSync(join(root, f), 'utf8')]));
    const r = await version(root, '2.3.4');
    expect(r.code, r.stderr).toBe(0);
    expect(new Set(statedVersions(root).map(([, v]) => v))).toEqual(new Set(['2.3.4']));
    expect(problems(root, '2.3.4')).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(root, OBSIDIAN_MANIFEST), 'utf8')) as { minAppVersion: string };
    const versions = JSON.parse(readFileSync(join(root, 'versions.json'), 'utf8')) as Record<string, string>;
    expect(versions).toEqual({ ...JSON.parse(before['versions.json']!), '2.3.4': manifest.minAppVersion });
    expect(readFileSync(join(root, 'manifest.json'), 'utf8')).toBe(readFileSync(join(root, OBSIDIAN_MANIFEST), 'utf8'));
    for (const file of FILES.filter((f) => f.endsWith('.json') && !f.endsWith('versions.json'))) {
      const after = lines(readFileSync(join(root, file), 'utf8'));
      const changed = after.filter((line, i) => line !== lines(before[file]!)[i]);
      expect(after, file).toHaveLength(lines(before[file]!).length);
      expect(changed, file).toEqual([expect.stringMatching(/^\s*"version": "2\.3\.4",?$/)]);
    }
    // The launcher runs @agentm/cli at the plugin's version: the version script moves that pin too.
    const launcher = (await import(pathToFileURL(join(root, LAUNCHER)).href)) as { pluginVersion(): string };
    expect(launcher.pluginVersion()).toBe('2.3.4');
  });

  it('refuses a version the marketplaces cannot take, and writes nothing', async () => {
    const root = await copy();
    const before = await fileSnapshot(root);
    for (const bad of ['1.2', 'v1.2.3', '1.2.3-beta.1', '01.2.3', '']) {
      const r = await version(root, bad);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain('is not a release version: give major.minor.patch');
    }
    expect(await fileSnapshot(root)).toEqual(before);
  });

  it('refuses a manifest it cannot set safely, naming it, and writes nothing', async () => {
    const root = await copy();
    const file = join(root, 'packages/vscode-ext/package.json');
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, `${JSON.stringify({ ...pkg, badge: { version: pkg['version'] } }, null, 2)}\n`);
    const before = await fileSnapshot(root);
    const r = await version(root, '2.3.4');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('packages/vscode-ext/package.json: "version": "');
    expect(r.stderr).toContain('appears more than once; set it by hand');
    expect(await fileSnapshot(root)).toEqual(before);
  });

  it('--check names each manifest that disagrees and the command that fixes it', async () => {
    const root = await copy();
    const current = statedVersions(root)[0]![1];
    expect((await version(root, '--check')).code).toBe(0);
    expect((await version(root, '--check', current)).code).toBe(0);
    const tag = await version(root, '--check', '9.9.9');
    expect(tag.code).toBe(1);
    expect(tag.stderr).toContain(
      `packages/cli/package.json says ${current}, not 9.9.9; run: node scripts/version.mjs 9.9.9`,
    );
    const plugin = join(root, CLAUDE_PLUGIN);
    writeFileSync(plugin, readFileSync(plugin, 'utf8').replace(`"version": "${current}"`, '"version": "0.0.9"'));
    writeFileSync(join(root, 'manifest.json'), '{}\n');
    const drift = await version(root, '--check');
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain(`${CLAUDE_PLUGIN} says 0.0.9, not ${current}`);
    expect(drift.stderr).toContain(`manifest.json differs from ${OBSIDIAN_MANIFEST}`);
  });
});
