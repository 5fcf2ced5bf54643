/**
 * Import-direction check (DESIGN §2). Core layers import downward only:
 * seam ← protocol ← backends ← config ← selection ← routing ← state ← providers ← memory ← harness ← process-seam ← cli.
 * Core never imports vscode or obsidian; the two front ends never import each other's host API.
 */
const LAYERS = [
  'seam',
  'protocol',
  'backends',
  'config',
  'selection',
  'routing',
  'state',
  'providers',
  'memory',
  'harness',
  'process-seam',
  'cli',
];
const CORE = '^packages/core/src/';

const downwardOnly = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${layer}-imports-downward-only`,
  comment: `${layer} may import only ${LAYERS.slice(0, i + 1).join(', ')} (DESIGN §2)`,
  severity: 'error',
  from: { path: `${CORE}${layer}/` },
  to: { path: `${CORE}(${LAYERS.slice(i + 1).join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...downwardOnly,
    {
      name: 'core-never-imports-editors',
      comment: 'the core runs in every host; vscode and obsidian are handed in at the edge',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: '^(vscode|obsidian|electron)$' },
    },
    {
      name: 'seam-has-no-io',
      comment: 'the seam is contract only: no filesystem, process or network I/O',
      severity: 'error',
      from: { path: `${CORE}seam/` },
      to: {
        dependencyTypes: ['core'],
        path: '^(node:)?(fs|fs/promises|child_process|net|http|https|http2|dgram|os|worker_threads)$',
      },
    },
    {
      name: 'routing-and-state-see-only-the-seam',
      comment: 'routing and state never import a concrete backend; they see StorageBackend and Capabilities',
      severity: 'error',
      from: { path: `${CORE}(routing|state)/` },
      to: { path: `${CORE}backends/` },
    },
    {
      name: 'vscode-ext-never-imports-obsidian',
      severity: 'error',
      from: { path: '^packages/vscode-ext/' },
      to: { path: '^(obsidian)$' },
    },
    {
      name: 'obsidian-plugin-never-imports-vscode',
      severity: 'error',
      from: { path: '^packages/obsidian-plugin/' },
      to: { path: '^(vscode)$' },
    },
    {
      name: 'no-circular-in-core',
      severity: 'error',
      from: { path: CORE },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|out|node_modules)/|\\.d\\.ts$|packages/obsidian-plugin/main\\.js$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.mts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
