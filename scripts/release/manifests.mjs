// Every place that states AgentM's version, and how the version script (scripts/version.mjs) reads and
// sets each. One release has one version everywhere: the npm packages (core's is what `agentm --version`
// and the MCP server report; @agentm/cli ships it), the VS Code extension, the Obsidian plugin (its
// manifest.json and versions.json, copied byte for byte to the repository root, where the community
// directory reads them), the Claude Code plugin (plugin.json, whose version is also the @agentm/cli
// version its launcher runs through npx) and its marketplace entry.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VersionError } from './errors.mjs';

/** package.json files whose `version` ships. */
export const PACKAGE_JSONS = [
  'packages/core/package.json',
  'packages/cli/package.json',
  'packages/vscode-ext/package.json',
  'packages/obsidian-plugin/package.json',
];
export const OBSIDIAN_MANIFEST = 'packages/obsidian-plugin/manifest.json';
export const OBSIDIAN_VERSIONS = 'packages/obsidian-plugin/versions.json';
/** Root copy → the plugin's file it copies (the community directory reads the root's). */
export const ROOT_COPIES = { 'manifest.json': OBSIDIAN_MANIFEST, 'versions.json': OBSIDIAN_VERSIONS };
export const CLAUDE_PLUGIN = 'plugins/claude-code/.claude-plugin/plugin.json';
export const MARKETPLACE = '.claude-plugin/marketplace.json';
export const MARKETPLACE_ENTRY = 'agentm';

/** x.y.z only: the VS Code Marketplace and Obsidian take nothing else (no pre-release or build suffix). */
export const VERSION_PATTERN = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

export function checkVersion(version) {
  if (typeof version !== 'string' || !VERSION_PATTERN.test(version))
    throw new VersionError(
      `${JSON.stringify(version)} is not a release version: give major.minor.patch, e.g. 1.2.3 ` +
        '(the VS Code Marketplace and Obsidian accept no pre-release suffix)',
    );
  return version;
}

export function readText(root, file) {
  try {
    return readFileSync(join(root, file), 'utf8');
  } catch (error) {
    throw new VersionError(`${file} cannot be read (${error.code ?? error.message}); is ${root} the repository?`);
  }
}

export function parseJson(file, text) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new VersionError(`${file} is not valid JSON (${error.message}); fix it before setting a version`);
  }
}

/** The marketplace's entry for this plugin. */
export function marketplaceEntry(marketplace) {
  const entry = marketplace.plugins?.find((p) => p.name === MARKETPLACE_ENTRY);
  if (!entry) throw new VersionError(`${MARKETPLACE} lists no plugin named ${MARKETPLACE_ENTRY}`);
  return entry;
}

/**
 * Every stated version as [where, version]: each package.json, the Obsidian manifest, the Claude Code
 * plugin and its marketplace entry. (The root copies and versions.json are checked by `problems`.)
 */
export function statedVersions(root) {
  const read = (file) => parseJson(file, readText(root, file));
  return [
    ...PACKAGE_JSONS.map((file) => [file, read(file).version]),
    [OBSIDIAN_MANIFEST, read(OBSIDIAN_MANIFEST).version],
    [CLAUDE_PLUGIN, read(CLAUDE_PLUGIN).version],
    [`${MARKETPLACE} (plugin ${MARKETPLACE_ENTRY})`, marketplaceEntry(read(MARKETPLACE)).version],
  ];
}

/**
 * What keeps the repository from releasing `expected` (default: the version core states), each naming
 * the fix: a manifest at another version, versions.json without the version's minAppVersion, a root copy
 * that differs from the plugin's file.
 */
export function problems(root, expected) {
  const stated = statedVersions(root);
  const version = expected ?? stated[0][1];
  const fix = `run: node scripts/version.mjs ${version}`;
  const found = [];
  for (const [where, v] of stated) if (v !== version) found.push(`${where} says ${v}, not ${version}; ${fix}`);
  const manifest = parseJson(OBSIDIAN_MANIFEST, readText(root, OBSIDIAN_MANIFEST));
  const versions = parseJson(OBSIDIAN_VERSIONS, readText(root, OBSIDIAN_VERSIONS));
  if (versions[version] !== manifest.minAppVersion)
    found.push(
      `${OBSIDIAN_VERSIONS} maps ${version} to ${versions[version]}, not the manifest's minAppVersion ${manifest.minAppVersion}; ${fix}`,
    );
  for (const [copy, source] of Object.entries(ROOT_COPIES))
    if (readText(root, copy) !== readText(root, source)) found.push(`${copy} differs from ${source}; ${fix}`);
  return found;
}
