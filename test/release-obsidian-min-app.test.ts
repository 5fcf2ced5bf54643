import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  compareVersions,
  minAppVersionProblems,
  newestSince,
  obsidianApiUses,
  PLUGIN_DIR,
  type ApiUse,
} from '../scripts/release/obsidian-api-since.mjs';

/**
 * The Obsidian plugin's minAppVersion against the `@since` tags of obsidian.d.ts (the pinned `obsidian`
 * devDependency), read through the TypeScript checker: an Obsidian the manifest admits must have every
 * API the plugin uses, or the plugin fails there.
 */
const manifest = JSON.parse(readFileSync(join(PLUGIN_DIR, 'manifest.json'), 'utf8')) as { minAppVersion: string };

/** A source that uses APIs of known versions, checked beside the plugin's own (one TypeScript program). */
const PROBE = [
  "import { Plugin, type App } from 'obsidian';",
  'export class Probe extends Plugin {',
  '  override settings = {};', // Plugin.settings: @since 1.13.0
  '  async touch(app: App) {',
  "    const file = app.vault.getFileByPath('a.md');", // Vault.getFileByPath: @since 1.5.7
  '    if (file) await app.vault.process(file, (s) => s);', // Vault.process: @since 1.1.0
  '  }',
  '}',
].join('\n');

let plugin: ApiUse[];
let probe: ApiUse[];
beforeAll(() => {
  const uses = obsidianApiUses(PLUGIN_DIR, { 'zz-probe.ts': PROBE });
  probe = uses.filter((u) => u.where.startsWith('src/zz-probe.ts'));
  plugin = uses.filter((u) => !probe.includes(u));
}, 60_000);

describe("the Obsidian plugin's minAppVersion", () => {
  it('is at least the newest Obsidian API the plugin uses', () => {
    expect(plugin.map((u) => u.api)).toEqual(expect.arrayContaining(['Plugin.addCommand', 'Vault.process']));
    expect(minAppVersionProblems(manifest.minAppVersion, plugin)).toEqual([]);
    expect(compareVersions(manifest.minAppVersion, newestSince(plugin))).toBeGreaterThanOrEqual(0);
  });

  it('is caught when a call or an override needs a newer Obsidian', () => {
    expect(probe).toEqual(
      expect.arrayContaining([
        { api: 'Plugin.settings', since: '1.13.0', where: 'src/zz-probe.ts:3 (override)' },
        { api: 'Vault.getFileByPath', since: '1.5.7', where: 'src/zz-probe.ts:5' },
        { api: 'Vault.process', since: '1.1.0', where: 'src/zz-probe.ts:6' },
      ]),
    );
    expect(minAppVersionProblems('1.5.7', probe)).toEqual([
      "src/zz-probe.ts:3 (override) uses Plugin.settings, which Obsidian has since 1.13.0, but manifest.json's minAppVersion is 1.5.7: raise minAppVersion to 1.13.0 or do without it",
    ]);
    expect(minAppVersionProblems('1.4.0', probe)).toHaveLength(2);
    expect(newestSince(probe)).toBe('1.13.0');
  });

  it('compares versions by number, not by text', () => {
    expect(compareVersions('1.10.0', '1.9.9')).toBe(1);
    expect(compareVersions('1.4.10', '1.4.10')).toBe(0);
    expect(compareVersions('0.15', '0.15.0')).toBe(0);
    expect(compareVersions('0.9.7', '1.0')).toBe(-1);
  });
});
