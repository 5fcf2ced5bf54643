#!/usr/bin/env node
// Sets AgentM's version everywhere it is stated (scripts/release/manifests.mjs lists where), or checks that
// every manifest agrees. As the Obsidian sample plugin's version-bump.mjs does, versions.json gains
// "<version>": "<the manifest's minAppVersion>"; then manifest.json and versions.json are copied to the
// repository root for the community directory.
//
//   node scripts/version.mjs 1.2.3           set 1.2.3 everywhere (npm run set-version -- 1.2.3)
//   node scripts/version.mjs --check [1.2.3] exit 1 listing each manifest that disagrees (the release
//                                            workflow checks the tag this way)
//   --root <dir>                             another checkout (the tests run it on a copy)
//
// Every file is read and its new text computed and verified before the first write: bad input changes
// nothing. Only the version text changes; each file keeps its formatting.
import { renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ReleaseError, VersionError } from './release/errors.mjs';
import {
  checkVersion,
  CLAUDE_PLUGIN,
  MARKETPLACE,
  marketplaceEntry,
  OBSIDIAN_MANIFEST,
  OBSIDIAN_VERSIONS,
  PACKAGE_JSONS,
  parseJson,
  problems,
  readText,
  ROOT_COPIES,
  statedVersions,
} from './release/manifests.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/**
 * `text` with its one `"version": "<old>"` set to `version`, verified: the result parses to `json` with
 * only `pick(json).version` changed.
 */
function withVersion(file, text, json, pick, version) {
  const old = pick(json).version;
  if (typeof old !== 'string') throw new VersionError(`${file} has no "version" to set; add one`);
  const pattern = new RegExp(`("version"\\s*:\\s*)"${old.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`, 'g');
  const next = text.replace(pattern, `$1"${version}"`);
  const expected = structuredClone(json);
  pick(expected).version = version;
  if (JSON.stringify(parseJson(file, next)) !== JSON.stringify(expected))
    throw new VersionError(`${file}: "version": "${old}" appears more than once; set it by hand`);
  return next;
}

/** Every file's new text for `version`, computed and verified; nothing is written. */
export function plan(root, version) {
  checkVersion(version);
  const writes = new Map();
  const edit = (file, pick = (j) => j) => {
    const text = readText(root, file);
    writes.set(file, withVersion(file, text, parseJson(file, text), pick, version));
  };
  for (const file of PACKAGE_JSONS) edit(file);
  edit(OBSIDIAN_MANIFEST);
  edit(CLAUDE_PLUGIN);
  edit(MARKETPLACE, marketplaceEntry);
  const { minAppVersion } = parseJson(OBSIDIAN_MANIFEST, writes.get(OBSIDIAN_MANIFEST));
  if (typeof minAppVersion !== 'string') throw new VersionError(`${OBSIDIAN_MANIFEST} has no minAppVersion`);
  const versions = parseJson(OBSIDIAN_VERSIONS, readText(root, OBSIDIAN_VERSIONS));
  writes.set(OBSIDIAN_VERSIONS, `${JSON.stringify({ ...versions, [version]: minAppVersion }, null, 2)}\n`);
  for (const [copy, source] of Object.entries(ROOT_COPIES)) writes.set(copy, writes.get(source));
  return writes;
}

/** Sets `version` in every manifest of the checkout at `root`; returns the files written. */
export function setVersion(root, version) {
  const writes = plan(root, version);
  for (const [file, text] of writes) {
    const target = join(root, file);
    const temp = `${target}.${process.pid}.tmp`;
    writeFileSync(temp, text);
    renameSync(temp, target);
  }
  return [...writes.keys()];
}

function main(argv) {
  const rootAt = argv.indexOf('--root');
  const root = rootAt >= 0 ? resolve(argv[rootAt + 1] ?? '.') : REPO;
  const args = rootAt < 0 ? argv : argv.filter((_, i) => i !== rootAt && i !== rootAt + 1);
  if (args[0] === '--check') {
    const expected = args[1] === undefined ? undefined : checkVersion(args[1]);
    const found = problems(root, expected);
    for (const p of found) console.error(`version: ${p}`);
    if (found.length === 0) console.log(`version: every manifest says ${expected ?? statedVersions(root)[0][1]}`);
    return found.length === 0 ? 0 : 1;
  }
  if (args.length !== 1) {
    console.error('usage: node scripts/version.mjs <major.minor.patch> | --check [<major.minor.patch>] [--root <dir>]');
    return 2;
  }
  for (const file of setVersion(root, args[0])) console.log(`version: ${file} → ${args[0]}`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    console.error(`version: ${error.message}`);
    process.exitCode = 2;
  }
}
