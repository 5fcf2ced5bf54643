import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cliProblems, obsidianProblems, vsixProblems } from '../scripts/release/contents.mjs';
import { zipEntries, zipRead } from '../scripts/release/zip.mjs';

/** The checks scripts/release/artifacts.mjs applies to each artifact (check:release runs them on real ones). */
const CLI_FILES = [
  'LICENSE',
  'README.md',
  'bin/agentm.js',
  'dist/cli-bundle/chunk-Ab12.cjs',
  'dist/cli-bundle/main.cjs',
  'dist/memory/indexing/read-worker.js',
  'package.json',
];
const CLI_MANIFEST = { name: '@agentm/cli', version: '1.0.0', license: 'MIT', bin: { agentm: 'bin/agentm.js' } };

describe('what the npm package may hold', () => {
  it('passes the bin, the bundle, the worker and the docs', () => {
    expect(cliProblems(CLI_FILES, CLI_MANIFEST)).toEqual([]);
  });

  it.each([
    ['dist/cli-bundle/main.cjs.map', 'dist/cli-bundle/main.cjs.map is a source map'],
    ['src/cli/main.ts', 'src/cli/main.ts is TypeScript source'],
    ['test/helpers/cli.js', 'test/helpers/cli.js is a source or test folder'],
    ['dist/cli-bundle/meta.json', 'dist/cli-bundle/meta.json is build bookkeeping'],
    ['.npmrc', '.npmrc is a dot file'],
    ['node_modules/yaml/index.js', 'node_modules/yaml/index.js is an installed dependency'],
    ['notes.txt', 'the npm package holds notes.txt, which is neither the bin, the bundle nor'],
  ])('refuses %s', (extra, problem) => {
    expect(cliProblems([...CLI_FILES, extra], CLI_MANIFEST).join('\n')).toContain(problem);
  });

  it('refuses a package without its license, worker or bin, or with dependencies to install', () => {
    const files = CLI_FILES.filter((f) => f !== 'LICENSE' && !f.includes('read-worker'));
    expect(cliProblems(files, { ...CLI_MANIFEST, bin: {}, dependencies: { yaml: '2.9.1' }, scripts: {} })).toEqual([
      'the npm package lacks LICENSE',
      'the npm package lacks dist/memory/indexing/read-worker.js',
      'package.json must name bin/agentm.js as the `agentm` bin',
      'package.json has dependencies; the bundle must hold everything it runs (packages/cli/build.mjs)',
      'package.json has scripts, which only the repository uses',
    ]);
  });
});

describe('what the .vsix may hold', () => {
  const VSIX = [
    'extension.vsixmanifest',
    '[Content_Types].xml',
    'extension/package.json',
    'extension/readme.md',
    'extension/LICENSE.txt',
    'extension/changelog.md',
    'extension/dist/extension.js',
    'extension/dist/agentm.mjs',
    'extension/media/agentm.png',
    'extension/media/walkthrough/vault.md',
    'extension/syntaxes/agentm-doctor.tmLanguage.json',
  ];
  it('passes the extension vsce packs', () => expect(vsixProblems(VSIX)).toEqual([]));
  it('refuses maps, sources, node_modules and a missing license', () => {
    const found = vsixProblems([
      ...VSIX.filter((e) => e !== 'extension/LICENSE.txt'),
      'extension/dist/extension.js.map',
      'extension/src/extension.ts',
      'extension/node_modules/yaml/package.json',
    ]).join('\n');
    expect(found).toContain('the .vsix lacks extension/LICENSE.txt');
    expect(found).toContain('extension/dist/extension.js.map is a source map');
    expect(found).toContain('extension/src/extension.ts is TypeScript source');
    expect(found).toContain('extension/node_modules/yaml/package.json is an installed dependency');
  });
});

describe("the Obsidian plugin's release", () => {
  it('is exactly main.js, manifest.json and styles.css, main.js without a source map', () => {
    expect(obsidianProblems(['styles.css', 'main.js', 'manifest.json'], 'module.exports = {};\n')).toEqual([]);
    expect(obsidianProblems(['main.js', 'manifest.json'])).toEqual([
      'the Obsidian release must be exactly main.js, manifest.json, styles.css; found main.js, manifest.json',
    ]);
    expect(obsidianProblems(['main.js', 'manifest.json', 'styles.css', 'main.js.map'])).toHaveLength(1);
    expect(obsidianProblems(['main.js', 'manifest.json', 'styles.css'], 'x\n//# sourceMappingURL=data:…')).toEqual([
      'main.js carries a source map: build it without --dev (node esbuild.mjs)',
    ]);
  });
});

/** A zip as vsce writes one: local headers, then the central directory, then its end record. */
function zip(entries: Array<{ name: string; data: string; deflate: boolean }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const raw = Buffer.from(e.data);
    const body = e.deflate ? deflateRawSync(raw) : raw;
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(e.deflate ? 8 : 0, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(e.deflate ? 8 : 0, 10);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe('the zip reader the .vsix check uses', () => {
  it('lists the entries and reads stored and deflated ones', () => {
    const archive = zip([
      { name: 'extension.vsixmanifest', data: '<PackageManifest/>', deflate: false },
      { name: 'extension/package.json', data: '{"version":"1.2.3"}'.repeat(50), deflate: true },
    ]);
    const entries = zipEntries(archive);
    expect(entries.map((e) => e.name)).toEqual(['extension.vsixmanifest', 'extension/package.json']);
    expect(zipRead(archive, entries[0]!).toString()).toBe('<PackageManifest/>');
    expect(zipRead(archive, entries[1]!).toString()).toBe('{"version":"1.2.3"}'.repeat(50));
  });

  it('refuses what is not a zip', () => {
    expect(() => zipEntries(Buffer.from('not a zip at all, just text'))).toThrow('not a zip archive');
  });
});
