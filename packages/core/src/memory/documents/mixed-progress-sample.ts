/**
 * A progress log that mixes every form of bookkeeping AgentM recognizes with the entries that are
 * memory, for the tests of every front end (core, CLI, MCP, hooks, VS Code, Obsidian): each asserts
 * that none of the bookkeeping reaches the agent or the person, and that the memories show their human
 * titles. Exported from `@agentm/core/testing` only.
 */

/** Today's observation head of step `build` at second `s` (the harness's own form, see progress-format.ts). */
const head = (s: number, kind: string, extra = '') =>
  `- 2026-05-01T12:00:${String(s).padStart(2, '0')}.000Z [kind:: ${kind}] [step:: build] [attempt:: 0] [actor:: 4242@box]${extra}`;

export const MIXED_PROGRESS_LOG = [
  '# Progress',
  '',
  // Today's harness: a claim, a bare result, a release, a breadcrumb, a lost claimant; and two memories.
  `${head(1, 'transition', ' [from:: ready] [to:: running]')} — ready → running`,
  `${head(2, 'tool_result')} — step "build" completed (2 tool call(s))`,
  `${head(3, 'transition', ' [from:: running] [to:: done]')} — running → done`,
  `${head(4, 'note', ' [event:: pre_compact] [trigger:: auto]')} — breadcrumb: Claude Code compacted its context (auto); re-read the plan`,
  `${head(5, 'error', ' [reason:: claimant_gone]')} — claimant 77@gone of step "build" is gone (its process ended mid-step); retrying as attempt 1`,
  `${head(6, 'note')} — the esbuild cache directory is shared between the read workers`,
  `${head(7, 'tool_result')} — step "build" completed (3 tool call(s)): bundled the extension with esbuild in 840 ms`,
  '',
  // An older AgentM's bracketed kinds.
  '- 2026-05-01T13:00:00Z [transition] s2: ready → running',
  '- 2026-05-01T13:00:05Z [claim] s2 claimed by 4242@box',
  '- 2026-05-01T13:10:00Z [note] the artifact mirror rejects uploads over two gigabytes',
  '',
  // agentm's dated free-form sections.
  '## 2026-05-02 09:00',
  '',
  'Claimed step `docs`.',
  '',
  '## 2026-05-02 11:00',
  '',
  'The documentation site builds with mkdocs in strict mode.',
  '',
  // A person's own lines.
  '- 14:05 started docs',
  '- docs → done ✅',
  '- Status: docs blocked',
  '- released docs',
  '- Pinned mkdocs to 1.6 because 1.7 broke the navigation sidebar',
  '',
].join('\n');

/** The titles the log's memories show (and nothing else of the log is a memory). */
export const MIXED_PROGRESS_MEMORIES: readonly string[] = [
  'build: the esbuild cache directory is shared between the read workers',
  'build done: bundled the extension with esbuild in 840 ms',
  'the artifact mirror rejects uploads over two gigabytes',
  'The documentation site builds with mkdocs in strict mode.',
  'Pinned mkdocs to 1.6 because 1.7 broke the navigation sidebar',
];

/** Queries that share words with the bookkeeping (step names, status words) as much as with the memories. */
export const MIXED_PROGRESS_QUERIES: readonly string[] = [
  'build docs running done claimed released',
  'step build completed tool calls',
  'docs blocked started mkdocs',
  'esbuild mirror uploads',
];

/** Text of the log that only its bookkeeping holds: none of it may be shown as (or in) a memory. */
export const BOOKKEEPING_TEXT =
  /\[kind::|\[step::|\[actor::|\[attempt::|ready → running|running → done|\[transition\]|\[claim\]|Claimed step|claimed by|breadcrumb|claimant 77@gone|completed \(2 tool call|started docs|docs → done|Status: docs blocked|released docs/;
