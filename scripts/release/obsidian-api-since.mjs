#!/usr/bin/env node
// Which Obsidian APIs the plugin uses, and since which Obsidian version each exists: the `@since` tags of
// obsidian.d.ts (the pinned `obsidian` devDependency), read through the TypeScript checker over the
// plugin's sources. An API newer than the manifest's minAppVersion would be missing on an Obsidian the
// manifest says is enough: the plugin would fail to load there, or a method it overrides would never be
// called. `node scripts/release/obsidian-api-since.mjs` lists them; the test suite fails on a violation.
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { ReleaseError } from './errors.mjs';

export const PLUGIN_DIR = fileURLToPath(new URL('../../packages/obsidian-plugin', import.meta.url));
const OBSIDIAN_DTS = `${sep}node_modules${sep}obsidian${sep}obsidian.d.ts`;

/** -1, 0 or 1 as version `a` is older than, equal to or newer than `b` (dotted numbers). */
export function compareVersions(a, b) {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++)
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0) ? -1 : 1;
  return 0;
}

function sinceOf(declaration) {
  const tag = ts.getJSDocTags(declaration).find((t) => t.tagName.text === 'since');
  const text = typeof tag?.comment === 'string' ? tag.comment.trim() : undefined;
  return text && /^\d+(\.\d+)*$/.test(text) ? text : undefined;
}

function apiName(declaration) {
  const own = declaration.name?.getText() ?? 'constructor';
  const owner =
    declaration.parent && (ts.isClassLike(declaration.parent) || ts.isInterfaceDeclaration(declaration.parent));
  return owner && declaration.parent.name ? `${declaration.parent.name.text}.${own}` : own;
}

/** The oldest `@since` among obsidian.d.ts's declarations of `symbol` (a use needs at least one of them). */
function obsidianSince(symbol) {
  const found = (symbol?.declarations ?? [])
    .filter((d) => resolve(d.getSourceFile().fileName).endsWith(OBSIDIAN_DTS))
    .map((d) => ({ api: apiName(d), since: sinceOf(d) }))
    .filter((d) => d.since !== undefined)
    .sort((a, b) => compareVersions(a.since, b.since));
  return found[0];
}

function program(pluginDir, extraSources) {
  const configFile = join(pluginDir, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
  );
  if (!parsed) throw new ReleaseError(`${configFile} cannot be read`);
  const src = join(pluginDir, 'src') + sep;
  const virtual = new Map(Object.entries(extraSources).map(([name, text]) => [resolve(src, name), text]));
  const host = ts.createCompilerHost(parsed.options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => virtual.has(resolve(f)) || fileExists.call(host, f);
  host.readFile = (f) => virtual.get(resolve(f)) ?? readFile.call(host, f);
  host.getSourceFile = (f, lang, ...rest) =>
    virtual.has(resolve(f))
      ? ts.createSourceFile(f, virtual.get(resolve(f)), lang, true)
      : getSourceFile.call(host, f, lang, ...rest);
  const roots = [...parsed.fileNames.filter((f) => resolve(f).startsWith(src)), ...virtual.keys()];
  return { program: ts.createProgram(roots, parsed.options, host), src };
}

/**
 * Every use of a versioned Obsidian API in the plugin's sources (`src/`, plus `extraSources`: name →
 * text, as files of src/): `{ api, since, where }`, where a use is a reference to the API or a method
 * of a class extending an Obsidian class that overrides one.
 */
export function obsidianApiUses(pluginDir = PLUGIN_DIR, extraSources = {}) {
  const { program: p, src } = program(pluginDir, extraSources);
  const checker = p.getTypeChecker();
  const uses = [];
  const record = (node, hit, kind = '') => {
    if (!hit) return;
    const file = node.getSourceFile();
    const { line } = file.getLineAndCharacterOfPosition(node.getStart());
    uses.push({ ...hit, where: `${relative(pluginDir, file.fileName)}:${line + 1}${kind}` });
  };
  const visit = (node) => {
    if (ts.isIdentifier(node)) {
      let symbol = checker.getSymbolAtLocation(node);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      record(node, obsidianSince(symbol));
    }
    if (ts.isClassLike(node))
      for (const base of node.heritageClauses?.flatMap((h) => h.types) ?? []) {
        const type = checker.getTypeAtLocation(base);
        for (const member of node.members)
          if (member.name && ts.isIdentifier(member.name))
            record(member.name, obsidianSince(type.getProperty(member.name.text)), ' (override)');
      }
    ts.forEachChild(node, visit);
  };
  for (const file of p.getSourceFiles()) if (resolve(file.fileName).startsWith(src)) visit(file);
  return uses;
}

/** Each use of an API newer than `minAppVersion`, as a message naming the API, its version and the fix. */
export function minAppVersionProblems(minAppVersion, uses) {
  return uses
    .filter((u) => compareVersions(u.since, minAppVersion) > 0)
    .map(
      (u) =>
        `${u.where} uses ${u.api}, which Obsidian has since ${u.since}, but manifest.json's minAppVersion is ` +
        `${minAppVersion}: raise minAppVersion to ${u.since} or do without it`,
    );
}

/** The newest `since` among `uses` (what minAppVersion must be at least). */
export function newestSince(uses) {
  return uses.map((u) => u.since).reduce((a, b) => (compareVersions(a, b) >= 0 ? a : b), '0.0.0');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { readFileSync } = await import('node:fs');
  const { minAppVersion } = JSON.parse(readFileSync(join(PLUGIN_DIR, 'manifest.json'), 'utf8'));
  const uses = obsidianApiUses();
  const byApi = new Map(uses.map((u) => [u.api, u]));
  for (const u of [...byApi.values()].sort((a, b) => compareVersions(b.since, a.since)))
    console.log(`${u.since.padEnd(8)} ${u.api}  (${u.where})`);
  const problems = minAppVersionProblems(minAppVersion, uses);
  for (const line of problems) console.error(line);
  console.log(`newest API used: ${newestSince(uses)}; manifest minAppVersion: ${minAppVersion}`);
  process.exitCode = problems.length ? 1 : 0;
}
