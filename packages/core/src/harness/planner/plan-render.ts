import { yamlScalar } from '../../memory/notes/yaml-scalar.js';
import { neutralizeFields } from '../plan/inline-fields.js';
import { slugifyTitle, SuffixCounter } from '../plan/step-ids.js';
import type { DecomposedStep } from './dag.js';

/** A routed step ready to be written as a checklist item. */
export interface PlannedStep extends DecomposedStep {
  readonly id: string;
  readonly role: string;
  /** The step's idempotency key. */
  readonly stepKey: string;
  /**
   * An upgraded role's capabilities for this step (memQL's upgrade gap merged into the role's own):
   * written as `[domains:: …]` and `[tools:: …]`, read back by the executor. Absent: the role as it is.
   */
  readonly domains?: readonly string[];
  readonly tools?: readonly string[];
}

const SAFE_ID = /^[\p{L}\p{N}_.-]+$/u;

/**
 * Step ids for decomposition keys: a key that is safe in an inline field and an `after::` list is kept;
 * any other is slugified; clashes get `-2`, `-3`. Returns key → id.
 */
export function idsForKeys(keys: readonly string[]): Map<string, string> {
  const ids = new Map<string, string>();
  const suffixes = new SuffixCounter(new Set<string>());
  for (const key of keys) ids.set(key, suffixes.claim(SAFE_ID.test(key) ? key : slugifyTitle(key)));
  return ids;
}

/**
 * One line of text that cannot be misread as Markdown structure or as an inline field: whitespace
 * (line breaks included) collapsed, every `::` neutralized (see `neutralizeFields`).
 */
function oneLine(text: string): string {
  return neutralizeFields(text.replace(/\s+/g, ' ').trim());
}

/**
 * The PLAN file for a goal: frontmatter (`goal`, `status: open`, `created`), a heading, and one checklist
 * item per step with `[id:: …]`, `[after:: …]`, `[role:: …]` (with `[domains:: …]` and `[tools:: …]`
 * when the planner upgraded the role for it), `[key:: …]`, and the step's goal as an
 * indented note when it says more than the title.
 */
export function renderPlan(goal: string, steps: readonly PlannedStep[], created: Date): string {
  const lines = [
    '---',
    // The frontmatter is YAML, never read for inline fields: the goal is kept as written (one line).
    `goal: ${yamlScalar(goal.replace(/\s+/g, ' ').trim())}`,
    'status: open',
    `created: ${yamlScalar(created.toISOString(), { timestamp: true })}`,
    '---',
    '',
    `# ${oneLine(goal).slice(0, 100)}`,
    '',
  ];
  for (const s of steps) {
    const fields = [
      `[id:: ${s.id}]`,
      ...(s.dependsOn.length > 0 ? [`[after:: ${s.dependsOn.join(', ')}]`] : []),
      `[role:: ${s.role}]`,
      ...(s.domains && s.domains.length > 0 ? [`[domains:: ${s.domains.map(oneLine).join(', ')}]`] : []),
      ...(s.tools && s.tools.length > 0 ? [`[tools:: ${s.tools.map(oneLine).join(', ')}]`] : []),
      `[key:: ${s.stepKey}]`,
    ];
    lines.push(`- [ ] ${oneLine(s.title)} ${fields.join(' ')}`);
    const g = oneLine(s.goal);
    if (g !== '' && g !== oneLine(s.title)) lines.push(`  Goal: ${g}`);
  }
  return `${lines.join('\n')}\n`;
}
