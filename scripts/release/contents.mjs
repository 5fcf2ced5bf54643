// What each release artifact must hold, as pure checks over its file list: each returns the problems found
// (an empty list when the artifact is right), every problem naming the file and what to change.

const SOURCE_OR_DEV = [
  [/\.map$/, 'a source map'],
  [/\.(ts|tsx|mts|cts)$/, 'TypeScript source'],
  [/(^|\/)(src|test|tests|__tests__|out)\//, 'a source or test folder'],
  [/(^|\/)node_modules\//, 'an installed dependency'],
  [/\.tsbuildinfo$|(^|\/)meta\.json$/, 'build bookkeeping'],
  [/(^|\/)\.[^/]+$/, 'a dot file'],
];

function unwanted(files, strip = (f) => f) {
  return files.flatMap((file) => {
    const hit = SOURCE_OR_DEV.find(([re]) => re.test(strip(file)));
    return hit ? [`${file} is ${hit[1]}; it does not belong in a release`] : [];
  });
}

const missing = (files, required, where) =>
  required.filter((f) => !files.includes(f)).map((f) => `${where} lacks ${f}`);

/**
 * The npm package @agentm/cli: its bin, the bundle and the read worker, package.json, README.md and LICENSE;
 * nothing else at the top; no sources, tests or maps; a manifest with the bin and no dependencies to
 * install (everything is bundled, so `npm i -g` needs no registry but the one that serves the tarball).
 */
export function cliProblems(files, manifest) {
  const problems = [
    ...missing(
      files,
      [
        'package.json',
        'README.md',
        'LICENSE',
        'bin/agentm.js',
        'dist/cli-bundle/main.cjs',
        'dist/memory/indexing/read-worker.js',
      ],
      'the npm package',
    ),
    ...unwanted(files),
  ];
  for (const file of files)
    if (!/^(package\.json|README\.md|LICENSE|bin\/agentm\.js|dist\/.+\.c?js)$/.test(file))
      problems.push(`the npm package holds ${file}, which is neither the bin, the bundle nor the package's docs`);
  if (manifest.bin?.agentm !== 'bin/agentm.js')
    problems.push('package.json must name bin/agentm.js as the `agentm` bin');
  for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies'])
    if (manifest[field] && Object.keys(manifest[field]).length > 0)
      problems.push(`package.json has ${field}; the bundle must hold everything it runs (packages/cli/build.mjs)`);
  for (const field of ['scripts', 'devDependencies'])
    if (manifest[field]) problems.push(`package.json has ${field}, which only the repository uses`);
  if (manifest.license !== 'MIT') problems.push(`package.json's license is ${manifest.license}, not MIT`);
  return problems;
}

const VSIX_REQUIRED = [
  'extension.vsixmanifest',
  '[Content_Types].xml',
  'extension/package.json',
  'extension/readme.md',
  'extension/LICENSE.txt',
  'extension/dist/extension.js',
];

/**
 * The VS Code extension's .vsix: the manifest, readme, license and bundle vsce writes; beyond those only
 * bundled scripts, media, grammars and the changelog; no sources, tests, maps or node_modules.
 */
export function vsixProblems(entries) {
  const problems = [...missing(entries, VSIX_REQUIRED, 'the .vsix'), ...unwanted(entries)];
  for (const entry of entries) {
    const allowed =
      VSIX_REQUIRED.includes(entry) ||
      /^extension\/(changelog\.md|dist\/[^/]+\.m?js|media\/.+\.(png|svg|md)|syntaxes\/[^/]+\.json)$/.test(entry);
    if (!allowed) problems.push(`the .vsix holds ${entry}; add it to .vscodeignore's exclusions or to this list`);
  }
  return problems;
}

export const OBSIDIAN_FILES = ['main.js', 'manifest.json', 'styles.css'];

/** The Obsidian plugin's release: exactly main.js, manifest.json and styles.css, main.js without a source map. */
export function obsidianProblems(files, mainJs = '') {
  const problems = [];
  const names = [...files].sort();
  if (names.join(',') !== OBSIDIAN_FILES.join(','))
    problems.push(
      `the Obsidian release must be exactly ${OBSIDIAN_FILES.join(', ')}; found ${names.join(', ') || 'nothing'}`,
    );
  if (/\/\/# sourceMappingURL=/.test(mainJs))
    problems.push('main.js carries a source map: build it without --dev (node esbuild.mjs)');
  return problems;
}
