/**
 * Roles a step can be routed to (memQL's seed roles, catalog order matters for ties), each granting a
 * deliberately scoped tool set: piling every tool onto one agent degrades the model.
 */
export interface Role {
  readonly slug: string;
  readonly name: string;
  readonly description: string;
  readonly domains: readonly string[];
  /** Names of the tools a step with this role may call. */
  readonly tools: readonly string[];
  /** Substrings that pick this role for a step text (see `pickSeedRole`). */
  readonly keywords: readonly string[];
  /** System prompt; `{{goal}}` is replaced by the step's goal. */
  readonly prompt: string;
}

const REPORT =
  'Use only the tools you are granted. Report your result to the planner in a short final answer; do not address the user.';

export const SEED_ROLES: readonly Role[] = [
  {
    slug: 'researcher',
    name: 'Researcher',
    description: 'Gathers, reads, and synthesizes information to answer a question or inform a decision.',
    domains: ['research-methods'],
    tools: ['read_file', 'list_files', 'search_text'],
    keywords: [
      'research',
      'find',
      'investigate',
      'analyze',
      'summarize',
      'compare',
      'gather',
      'read',
      'search',
      'learn',
      'explain',
      'understand',
      'review',
      'evaluate',
    ],
    prompt: `You are a research specialist. Your goal: {{goal}}\nRead and search the project to answer it precisely. ${REPORT}`,
  },
  {
    slug: 'builder',
    name: 'Builder',
    description: 'Produces and modifies artifacts -- code, files, documents -- in the sandboxed workbench.',
    domains: ['workbench', 'software-engineering'],
    tools: ['read_file', 'list_files', 'search_text', 'write_file'],
    keywords: [
      'build',
      'write',
      'create',
      'implement',
      'generate',
      'code',
      'draft',
      'make',
      'produce',
      'compose',
      'edit',
      'modify',
      'refactor',
      'fix',
      'develop',
    ],
    prompt: `You are a builder specialist. Your goal: {{goal}}\nCreate or change the project's files to reach it. ${REPORT}`,
  },
  {
    slug: 'operator',
    name: 'Operator',
    description: "Acts on the user's own systems and UI -- drives applications, runs commands on the user's machine.",
    domains: ['workbench', 'computer-use'],
    tools: ['read_file', 'list_files', 'run_command'],
    keywords: [
      'operate',
      'run',
      'execute',
      'deploy',
      'configure',
      'install',
      'navigate',
      'click',
      'automate',
      'control',
      'drive',
      'use',
      'open',
      'launch',
    ],
    prompt: `You are an operator specialist. Your goal: {{goal}}\nRun programs in the project to reach it; be conservative with irreversible actions. ${REPORT}`,
  },
];

/** The role named `slug` in `catalog` (default: the seed roles), if any. */
export function findRole(slug: string | undefined, catalog: readonly Role[] = SEED_ROLES): Role | undefined {
  const wanted = slug?.trim().toLowerCase();
  return wanted ? catalog.find((r) => r.slug.toLowerCase() === wanted) : undefined;
}

/** The role's system prompt for a goal (every `{{goal}}` replaced). */
export function rolePrompt(role: Role, goal: string): string {
  return role.prompt.split('{{goal}}').join(goal);
}

/**
 * The seed role for a step (memQL `PickSeedRole`): a hint naming a role's slug wins; otherwise the role
 * with the most keywords occurring as substrings of the lower-cased text (ties → earlier in the
 * catalog); no match anywhere → the first role (researcher). Substring matching is deliberate
 * ("findings" matches find).
 */
export function pickSeedRole(hint: string | undefined, text: string, catalog: readonly Role[] = SEED_ROLES): Role {
  const roles = catalog.length > 0 ? catalog : SEED_ROLES;
  const named = findRole(hint, roles);
  if (named) return named;
  const lower = text.toLowerCase();
  let best = roles[0]!;
  let bestScore = 0;
  for (const role of roles) {
    const score = role.keywords.filter((k) => lower.includes(k)).length;
    if (score > bestScore) {
      best = role;
      bestScore = score;
    }
  }
  return best;
}

function fieldList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

/**
 * The role as one step uses it: its own domains and tools plus those the step's `[domains:: …]` and
 * `[tools:: …]` add (the planner writes them when it upgrades a partly fitting role for the step).
 * Only tools the caller knows are added: a name nobody implements grants nothing.
 */
export function roleForStep(
  role: Role,
  fields: Readonly<Record<string, string>>,
  knownTools: ReadonlySet<string>,
): Role & { readonly upgraded: boolean } {
  const addDomains = fieldList(fields['domains']).filter((d) => !role.domains.includes(d));
  const addTools = fieldList(fields['tools']).filter((t) => knownTools.has(t) && !role.tools.includes(t));
  return {
    ...role,
    domains: [...role.domains, ...addDomains],
    tools: [...role.tools, ...addTools],
    upgraded: addDomains.length > 0 || addTools.length > 0,
  };
}
