/**
 * Import-direction check (DESIGN §2). Core layers import downward only:
 *
 *   text ← seam ← write-protocol ← backends ← config ← selection ← routing ← state ← providers ← memory ← harness
 *        ← recall-service ← workspace ← process-seam ← agents ← cli
 *
 * - text: pure string functions (the secret redactor and the personal-data scrubber) that every layer may
 *   use; it imports nothing of core and does no I/O.
 * - seam: the storage contract (Locator, StorageBackend with its optional localRoot, registry type); no I/O.
 * - backends: the concrete stores. Above them only `backends/builtins.ts` is imported (register the built-ins
 *   into a registry someone passes, a scratch in-memory store): nothing above names a concrete backend class.
 * - providers: the one chat and one embeddings interface, the OpenAI-compatible clients, provider settings.
 * - memory, then harness: the services. Inside each, folders are ordered too (MEMORY_ORDER, HARNESS_ORDER).
 * - recall-service: both ends of the local socket over which `agentm mcp` answers short-lived processes'
 *   recalls (client.ts: address, key, wire version, one ask; server.ts: the server, given a host it declares).
 * - workspace: the one object a context builds (config, backend, layout, providers, index, recall, plans).
 * - process-seam, agents, cli: thin callers of the workspace (agents: the MCP server and Claude Code's hooks;
 *   agents/mcp and agents/hooks never import each other).
 *
 * Core never imports vscode or obsidian; the two front ends never import each other's host API, and reach
 * core only through its public entries (`@agentm/core` and the subpaths package.json declares): what the
 * workspace owns (plan listing, step transitions, the doctor, recall's query resolution) cannot be
 * re-derived from core's internals in an editor.
 */
const LAYERS = [
  'text',
  'seam',
  'write-protocol',
  'backends',
  'config',
  'selection',
  'routing',
  'state',
  'providers',
  'memory',
  'harness',
  'recall-service',
  'workspace',
  'process-seam',
  'agents',
  'cli',
];
const CORE = '^packages/core/src/';
const EDITORS = '^packages/(vscode-ext|obsidian-plugin)/';
/** Core's public entries as built (`exports` in packages/core/package.json): the main entry and its subpaths. */
const CORE_ENTRIES =
  '^packages/core/dist/(index|config|memory|harness|providers|write-protocol|backends|testing)\\.(js|d\\.ts)$';

const downwardOnly = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${layer}-imports-downward-only`,
  comment: `${layer} may import only ${LAYERS.slice(0, i + 1).join(', ')} (DESIGN §2)`,
  severity: 'error',
  from: { path: `${CORE}${layer}/` },
  to: { path: `${CORE}(${LAYERS.slice(i + 1).join('|')})/` },
}));

/**
 * Inside memory/: notes (the note format) ← documents (what the index holds, the layout, the ranking
 * contract) ← indexing (the derived index) ← similarity.ts (the one similarity module, over the indexing
 * analyzer) ← recall ← consolidation. `memory/errors.ts` is shared by all.
 */
const MEMORY_ORDER = [
  ['notes', 'notes/'],
  ['documents', '(documents/|note-documents\\.ts$)'],
  ['indexing', 'indexing/'],
  ['similarity', 'similarity\\.ts$'],
  ['recall', 'recall/'],
  ['consolidation', 'consolidation/'],
];

/**
 * Inside harness/: plan (the PLAN format) ← observations (the progress log) ← command-exec (how a command is
 * split, approved, given an environment without secrets, spawned and recorded: the trust model) ← tools
 * (what a step can do, their typed errors) ← inner-loop (the hardened tool loop) ← reconciler ← executors
 * (how a step is dispatched) ← planner ← trace (trace, replay, eval). `harness/errors.ts` is shared by all.
 */
const HARNESS_ORDER = [
  ['plan', 'plan/'],
  ['observations', 'observations/'],
  ['command-exec', 'command-exec/'],
  ['tools', 'tools/'],
  ['inner-loop', 'inner-loop/'],
  ['reconciler', 'reconciler/'],
  ['executors', 'executors/'],
  ['planner', 'planner/'],
  ['trace', 'trace/'],
];

function ordered(area, order) {
  return order.slice(0, -1).map(([name, path], i) => ({
    name: `${area}-${name}-imports-downward-only`,
    comment: `${area}/${name} may import only ${order
      .slice(0, i + 1)
      .map(([n]) => n)
      .join(', ')} within ${area}/`,
    severity: 'error',
    from: { path: `${CORE}${area}/${path}` },
    to: {
      path: `${CORE}${area}/(${order
        .slice(i + 1)
        .map(([, p]) => p)
        .join('|')})`,
    },
  }));
}

module.exports = {
  forbidden: [
    ...downwardOnly,
    ...ordered('memory', MEMORY_ORDER),
    ...ordered('harness', HARNESS_ORDER),
    {
      name: 'no-concrete-backend-above-the-backends',
      comment:
        'above the backends, code sees StorageBackend (and its localRoot) only; the built-ins are registered through backends/builtins.ts',
      severity: 'error',
      from: { path: CORE, pathNot: `${CORE}(backends/|index\\.ts$|testing\\.ts$|backends\\.ts$)` },
      to: { path: `${CORE}backends/`, pathNot: `${CORE}backends/builtins\\.ts$` },
    },
    {
      name: 'agents-mcp-and-hooks-apart',
      comment: 'the MCP server and the hooks share agents/*.ts only (a hook must never load the MCP SDK)',
      severity: 'error',
      from: { path: `${CORE}agents/(mcp|hooks)/` },
      to: { path: `${CORE}agents/(mcp|hooks)/`, pathNot: `${CORE}agents/$1/` },
    },
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
      name: 'crypto-loads-lazily',
      comment:
        "node:crypto costs a new process ~7 ms to load: core reaches it through write-protocol/content-hash.ts's nodeCrypto(), on first use",
      severity: 'error',
      from: { path: '^packages/core/src/', pathNot: '^packages/core/src/write-protocol/content-hash\\.ts$' },
      to: { dependencyTypes: ['core'], path: '^(node:)?crypto$' },
    },
    {
      name: 'text-is-pure',
      comment: 'text holds pure string functions: no filesystem, process or network I/O',
      severity: 'error',
      from: { path: `${CORE}text/` },
      to: {
        dependencyTypes: ['core'],
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
      name: 'editors-reach-core-through-its-public-entries',
      comment:
        'the editors import @agentm/core and its declared subpaths (config, memory, harness, providers, write-protocol, backends, testing), never core/src or core/dist internals',
      severity: 'error',
      from: { path: EDITORS },
      to: { path: '^packages/core/', pathNot: CORE_ENTRIES },
    },
    {
      name: 'editors-import-only-declared-core-subpaths',
      comment:
        'an @agentm/core/<path> that package.json does not export (src/…, dist/…) does not resolve: refuse it by name',
      severity: 'error',
      from: { path: EDITORS },
      to: {
        couldNotResolve: true,
        path: '^@agentm/core/',
        pathNot: '^@agentm/core/(config|memory|harness|providers|write-protocol|protocol|backends|testing)$',
      },
    },
    {
      name: 'no-circular-in-core',
      severity: 'error',
      from: { path: CORE },
      to: { circular: true },
    },
  ],
  options: {
    // Core's built entries are where @agentm/core resolves (the editors' imports are checked against them),
    // but nothing inside dist/ is followed.
    doNotFollow: { path: ['node_modules', '^packages/core/dist/'] },
    exclude: {
      path: '(^|/)(out|node_modules)/|^packages/(vscode-ext|obsidian-plugin)/dist/|^test/fixtures/import-rules/|^(?!packages/core/dist/).*\\.d\\.ts$|packages/obsidian-plugin/main\\.js$',
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.mts', '.js', '.mjs', '.cjs', '.json'],
      // Resolve package imports as Node and TypeScript do: through `exports`, so an undeclared subpath does not resolve.
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'require', 'node', 'default'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
