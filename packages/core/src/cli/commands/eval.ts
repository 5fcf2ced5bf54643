import type { Command } from 'commander';
import type { EvalThreshold } from '../../harness/trace/eval.js';
import type { CliContext } from '../context.js';
import { CliError, EXIT_CHECK_FAILED, EXIT_OK, EXIT_USAGE } from '../errors.js';

const KEYS: Readonly<Record<string, keyof EvalThreshold>> = {
  pass_rate: 'minPassRate',
  min_pass_rate: 'minPassRate',
  success_rate: 'minSuccessRate',
  min_success_rate: 'minSuccessRate',
  tool_calls: 'maxTotalToolCalls',
  max_tool_calls: 'maxTotalToolCalls',
  tokens: 'maxTotalTokens',
  max_tokens: 'maxTotalTokens',
};

/** `pass_rate=1 success_rate=0.5 tool_calls=16 tokens=600` over `base` (the default threshold); 0 disables a check. */
export function parseThresholds(pairs: readonly string[], base: EvalThreshold): EvalThreshold {
  const t: { -readonly [K in keyof EvalThreshold]: number } = { ...base };
  for (const pair of pairs) {
    const m = /^([a-z_]+)=(.+)$/.exec(pair.trim());
    const key = m ? KEYS[m[1]!] : undefined;
    if (!m || !key)
      throw new CliError(
        `bad --threshold ${JSON.stringify(pair)}: use key=value with key one of ${Object.keys(KEYS).join(', ')}`,
        EXIT_USAGE,
      );
    const value = Number(m[2]);
    if (!Number.isFinite(value) || value < 0)
      throw new CliError(`bad --threshold ${pair}: the value must be a non-negative number`, EXIT_USAGE);
    t[key] = value;
  }
  return t;
}

export function registerEval(program: Command, ctx: CliContext): void {
  program
    .command('eval')
    .description('run the harness fixture plans through the reconciler and check them against thresholds')
    .option('--threshold <key=value...>', 'pass_rate, success_rate (floors), tool_calls, tokens (caps); 0 disables one')
    .option('--json', 'print the report as JSON')
    .action(async (opts: { threshold?: string[]; json?: boolean }) => {
      // The harness runs here, in the action: `agentm --help` never loads it.
      const { checkThreshold, DEFAULT_THRESHOLD, runEval } = await import('../../harness/trace/eval.js');
      const { DEFAULT_FIXTURES } = await import('../../harness/trace/eval-fixtures.js');
      const { goDuration } = await import('../../harness/trace/render.js');
      const threshold = parseThresholds(opts.threshold ?? [], DEFAULT_THRESHOLD);
      const report = await runEval(DEFAULT_FIXTURES);
      const verdict = checkThreshold(report, threshold);
      if (opts.json) ctx.io.out(`${JSON.stringify({ ...report, threshold, ...verdict }, null, 2)}\n`);
      else {
        for (const s of report.scores) {
          ctx.io.out(
            `${s.passed ? 'PASS' : 'FAIL'} ${s.name.padEnd(17)} success=${s.success} dispatches=${s.stepDispatches} order=${s.order.join(',')} toolCalls=${s.toolCalls} tokens=${s.tokens}${s.reasons.length ? ` -- ${s.reasons.join('; ')}` : ''}\n`,
          );
        }
        const passRate = report.total === 0 ? 0 : report.passedCount / report.total;
        ctx.io.out(
          `passed ${report.passedCount}/${report.total} (pass rate ${passRate.toFixed(3)}), success rate ${report.successRate.toFixed(3)}, tool calls ${report.totalToolCalls}, tokens ${report.totalTokens}, wall ${goDuration(report.totalWallClockMs)}\n`,
        );
      }
      for (const v of verdict.violations) ctx.io.err(`agentm eval: threshold violated: ${v}\n`);
      ctx.exitCode = verdict.passed ? EXIT_OK : EXIT_CHECK_FAILED;
    });
}
