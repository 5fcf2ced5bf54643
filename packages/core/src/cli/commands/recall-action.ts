import type { CliContext } from '../context.js';
import { CliError, EXIT_CHECK_FAILED, EXIT_OK, EXIT_USAGE } from '../errors.js';
import { cliWorkspace, parseDuration, parsePositiveInt } from '../workspace-cli.js';
import type { IndexProgress } from '../../memory/indexing/index-types.js';
import { ProgressBar } from '../ui/progress-bar.js';
import { requireRecallText } from '../../memory/recall/recall-text.js';

/** The options of `agentm recall`, as commander gives them (and `recall-argv.ts`, without commander). */
export interface RecallFlags {
  project?: string;
  allProjects?: boolean;
  k?: string;
  limit?: string;
  kinds?: string;
  window?: string;
  halfLife?: string;
  json?: boolean;
  refresh?: boolean;
}

/** What `agentm recall <text> [options]` does. */
export async function recallAction(ctx: CliContext, text: string, flags: RecallFlags): Promise<void> {
  requireRecallText(text);
  if (flags.limit !== undefined && flags.k !== undefined && flags.limit !== flags.k)
    throw new CliError(
      `--limit ${flags.limit} and --k ${flags.k} disagree: give one (--k is the old spelling)`,
      EXIT_USAGE,
    );
  const k = parsePositiveInt(flags.limit ?? flags.k ?? '10', flags.limit !== undefined ? '--limit' : '--k');
  const window = flags.window ? parseDuration(flags.window, '--window') : undefined;
  const halfLife = flags.halfLife ? parseDuration(flags.halfLife, '--half-life') : undefined;
  const kinds = flags.kinds
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const ws = await cliWorkspace(ctx, { verify: 'structure' });
  const project = flags.allProjects ? undefined : (flags.project ?? (await ws.project())?.slug);
  // The first recall builds the index (minutes on a large vault): a terminal sees how far it is.
  const progress = new ProgressBar(ctx.term.err, 'building the memory index');
  // The first hybrid recall on a terminal embeds the notes first (later ones: in the background).
  const embedding = new ProgressBar(ctx.term.err, 'embedding notes for semantic recall');
  let result;
  try {
    result = await ws.recall(
      { text, project, k, window, halfLife, kinds },
      {
        refresh: flags.refresh !== false,
        onBuildProgress: (p: IndexProgress) => progress.update({ ...p, unit: 'files', counted: p.phase === 'reading' }),
        ...(ctx.term.err.tty
          ? { onEmbedProgress: (p: IndexProgress) => embedding.update({ ...p, unit: 'notes' }) }
          : {}),
      },
    );
  } finally {
    progress.done();
    embedding.done();
  }
  const warnings = result.warnings;
  for (const w of warnings) ctx.io.err(`agentm: warning: ${w}\n`);
  if (flags.json) {
    ctx.io.out(
      `${JSON.stringify({ project: project ?? null, mode: result.mode, warnings, items: result.items }, null, 2)}\n`,
    );
  } else if (result.items.length === 0) {
    ctx.io.err(
      `agentm: no memory matches ${JSON.stringify(text)}${project ? ` in project ${project} (or the global notes)` : ''}\n`,
    );
  } else {
    result.items.forEach((item, i) => {
      ctx.io.out(`${i + 1}. ${item.title}  [${item.kind}] ${item.locator}\n`);
      ctx.io.out(
        `   score ${item.score.toFixed(3)} (similarity ${item.similarity.toFixed(3)}, recency ${item.recency.toFixed(3)})\n`,
      );
      if (item.snippet) ctx.io.out(`   ${item.snippet}\n`);
    });
  }
  ctx.exitCode = result.items.length > 0 ? EXIT_OK : EXIT_CHECK_FAILED;
}
