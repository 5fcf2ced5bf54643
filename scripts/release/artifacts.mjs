#!/usr/bin/env node
// Builds every release artifact from the built checkout and checks what each holds: what the release
// workflow publishes is exactly what this script made, and `npm test` runs it (check:release) the same way.
//   <out>/agentm-cli-<v>.tgz          the npm package @agentm/cli (scripts/release/cli-tarball.mjs)
//   <out>/agentm-vscode-<v>.vsix      the VS Code extension (packages/vscode-ext/scripts/package.mjs)
//   <out>/obsidian/{main.js,manifest.json,styles.css}   the Obsidian plugin's release files
// Every manifest must state one version (scripts/version.mjs --check) and each artifact must carry it.
//
// usage: node scripts/release/artifacts.mjs [--out <dir>] [--only cli,vsix,obsidian]
// Needs the build first (npx --yes pnpm@10.34.8 run build); exits 1 naming every problem found.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packCli, REPO } from './cli-tarball.mjs';
import { cliProblems, OBSIDIAN_FILES, obsidianProblems, vsixProblems } from './contents.mjs';
import { problems as versionProblems, statedVersions } from './manifests.mjs';
import { zipEntries, zipRead } from './zip.mjs';

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

function cli(out, version) {
  const { tarball, files, bytes, manifest } = packCli(out);
  const found = cliProblems(files, manifest);
  if (manifest.version !== version) found.push(`${basename(tarball)} is version ${manifest.version}, not ${version}`);
  return { artifact: tarball, summary: `${files.length} files, ${kib(bytes)}`, problems: found };
}

async function vsix(out, version) {
  const { packageExtension } = await import('../../packages/vscode-ext/scripts/package.mjs');
  const made = packageExtension().vsix;
  const target = join(out, basename(made));
  renameSync(made, target);
  const zip = readFileSync(target);
  const entries = zipEntries(zip);
  const byName = new Map(entries.map((e) => [e.name, e]));
  const found = vsixProblems(entries.map((e) => e.name));
  const read = (name) => (byName.has(name) ? zipRead(zip, byName.get(name)).toString('utf8') : undefined);
  const manifest = JSON.parse(read('extension/package.json') ?? '{}');
  if (manifest.version !== version)
    found.push(`the .vsix's package.json is version ${manifest.version}, not ${version}`);
  if (read('extension/LICENSE.txt') !== readFileSync(join(REPO, 'LICENSE'), 'utf8'))
    found.push("the .vsix's LICENSE.txt differs from the repository's LICENSE: copy LICENSE to packages/vscode-ext/");
  return { artifact: target, summary: `${entries.length} entries, ${kib(zip.length)}`, problems: found };
}

function obsidian(out, version) {
  const dist = join(REPO, 'packages', 'obsidian-plugin', 'dist');
  const files = existsSync(dist) ? readdirSync(dist) : [];
  const target = join(out, 'obsidian');
  mkdirSync(target, { recursive: true });
  const shipped = OBSIDIAN_FILES.filter((f) => files.includes(f));
  for (const f of shipped) copyFileSync(join(dist, f), join(target, f));
  const text = (f) => (shipped.includes(f) ? readFileSync(join(dist, f), 'utf8') : '');
  const found = obsidianProblems(files, text('main.js'));
  const manifest = text('manifest.json');
  if (manifest && JSON.parse(manifest).version !== version)
    found.push(`the Obsidian plugin's manifest.json is version ${JSON.parse(manifest).version}, not ${version}`);
  if (manifest !== readFileSync(join(REPO, 'manifest.json'), 'utf8'))
    found.push("the Obsidian plugin's manifest.json differs from the root manifest.json the community directory reads");
  const bytes = shipped.reduce((n, f) => n + statSync(join(target, f)).size, 0);
  return { artifact: target, summary: `${shipped.join(', ')}, ${kib(bytes)}`, problems: found };
}

const BUILDERS = { cli, vsix, obsidian };

/**
 * Builds the artifacts named in `only` (all by default) into `out`; resolves with each one's path, a
 * summary and its problems, and the problems of the manifests' versions (as `versions`).
 */
export async function buildArtifacts(out, only = Object.keys(BUILDERS)) {
  const version = statedVersions(REPO)[0][1];
  mkdirSync(out, { recursive: true });
  const results = { versions: { artifact: 'manifests', summary: version, problems: versionProblems(REPO, version) } };
  for (const name of Object.keys(BUILDERS).filter((n) => only.includes(n)))
    results[name] = await BUILDERS[name](out, version);
  return results;
}

async function main(argv) {
  const at = (flag) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const out = resolve(at('--out') ?? join(REPO, '.test-artifacts', 'release'));
  const only = at('--only')?.split(',');
  rmSync(out, { recursive: true, force: true });
  const results = await buildArtifacts(out, only);
  let problems = 0;
  for (const [name, r] of Object.entries(results)) {
    console.log(`release ${name}: ${r.problems.length === 0 ? 'ok' : 'FAILED'} · ${r.artifact} · ${r.summary}`);
    for (const p of r.problems) console.error(`  ✗ ${p}`);
    problems += r.problems.length;
  }
  console.log(`release: ${Object.keys(results).length} checked, ${problems} problems`);
  return problems === 0 ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await main(process.argv.slice(2));
