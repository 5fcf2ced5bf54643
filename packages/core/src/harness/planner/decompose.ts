import type { ChatProvider } from '../../providers/chat.js';
import { DEFAULT_RETRY_POLICY, executeWithRetry, type RetryPolicy } from '../inner-loop/retry.js';
import type { Role } from '../tools/roles.js';
import { DecomposeValidationError, type DecomposedStep } from './dag.js';

/** The decomposition prompt (memQL `decomposeGoal`): a small DAG as one JSON object. */
export function decomposePrompt(goal: string, roles: readonly Role[]): string {
  return [
    'You are a planner. Break the goal below into a short plan: 1 to 8 concrete steps forming a DAG.',
    'Each step has a unique "key" (short, like s1), a "title" (one line, imperative), a "goal" (what done looks like),',
    '"dependsOn" (keys of steps that must finish first; [] if none) and a "roleHint", one of: ' +
      roles.map((r) => `${r.slug} (${r.description})`).join('; ') +
      '.',
    'Steps that do not depend on each other may run in parallel.',
    `Answer with only a JSON object of the form {"steps":[{"key":"s1","title":"…","goal":"…","dependsOn":[],"roleHint":${JSON.stringify(roles[0]?.slug ?? 'researcher')}}]}.`,
    '',
    `Goal: ${goal}`,
  ].join('\n');
}

/** Reads a decomposition from model output: the JSON object (inside a ``` fence or not) with a `steps` array. */
export function parseDecomposition(text: string): DecomposedStep[] {
  const unfenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1] ?? text;
  const start = unfenced.indexOf('{');
  const end = unfenced.lastIndexOf('}');
  if (start < 0 || end < start) throw new DecomposeValidationError('the model did not answer with a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(unfenced.slice(start, end + 1));
  } catch (error) {
    throw new DecomposeValidationError(`the model's JSON does not parse: ${(error as Error).message}`);
  }
  const steps = (value as { steps?: unknown }).steps;
  if (!Array.isArray(steps)) throw new DecomposeValidationError('the model\'s JSON has no "steps" array');
  return steps.map((s, i) => {
    if (s === null || typeof s !== 'object') throw new DecomposeValidationError(`step ${i} is not an object`);
    const o = s as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
    const deps = Array.isArray(o['dependsOn'])
      ? o['dependsOn'].map(str)
      : typeof o['dependsOn'] === 'string'
        ? [o['dependsOn']]
        : [];
    return {
      key: str(o['key']),
      title: str(o['title']),
      goal: str(o['goal']),
      dependsOn: deps,
      roleHint: str(o['roleHint']),
    };
  });
}

/** How long planning waits for the model in all, unless the provider has a timeout of its own. */
export const PLANNER_BUDGET_MS = 60_000;

/**
 * The planner's model policy: one total budget — the provider's configured timeout (`timeout_ms`), else
 * 60 s — shared by at most two attempts, so a quick failure is retried but a hung endpoint costs the
 * budget once. Planning falls back to a single step when the model fails, so waiting long buys little:
 * the tool loop's 120 s × 3 attempts once kept `agentm plan` silent for six minutes, and 60 s per call
 * × 2 kept it 120 s while it printed "gives up after 60 s" (issue 20).
 */
export function plannerRetry(provider?: Pick<ChatProvider, 'timeoutMs'>): RetryPolicy {
  const own = provider?.timeoutMs;
  const budget = own !== undefined && own > 0 ? own : PLANNER_BUDGET_MS;
  return Object.freeze({ ...DEFAULT_RETRY_POLICY, perCallTimeoutMs: budget, maxAttempts: 2, totalBudgetMs: budget });
}

/** Asks the model for a decomposition (with the planner's retry policy); throws on any failure. */
export async function decomposeGoal(
  provider: ChatProvider,
  goal: string,
  roles: readonly Role[],
  retry: RetryPolicy = plannerRetry(provider),
  signal?: AbortSignal,
): Promise<DecomposedStep[]> {
  const answer = await executeWithRetry(
    (s) =>
      provider.chat(
        {
          messages: [
            { role: 'system', content: 'You turn goals into small, valid step DAGs and answer in JSON.' },
            { role: 'user', content: decomposePrompt(goal, roles) },
          ],
          json: true,
          temperature: 0,
        },
        s,
      ),
    retry,
    signal,
  );
  if (!answer.ok)
    throw new DecomposeValidationError(`the model call failed: ${answer.error.type}: ${answer.error.message}`);
  return parseDecomposition(answer.value.content);
}
