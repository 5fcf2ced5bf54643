import { readConfigStrict, type ConfigData } from '../../config/config-file.js';
import type { HostEnv } from '../../config/host.js';
import { EXIT_USAGE } from '../../seam/errors.js';
import { HarnessError } from '../errors.js';
import { BUILTIN_TOOLS } from './builtin-tools.js';
import { SEED_ROLES, type Role } from './roles.js';

/** The config key of the planner's roster: `{"<role>": {"description": "…", "tools": ["read_file", …]}, …}`. */
export const KEY_HARNESS_ROLES = 'harness.roles';

/** Role names: what `[role:: …]` in a PLAN file refers to. */
export const ROLE_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;

const EXAMPLE =
  '{"reviewer": {"description": "Reads changes and reports problems.", "tools": ["read_file", "search_text"]}}';
const STOP_WORDS = new Set([
  'about',
  'after',
  'their',
  'there',
  'these',
  'those',
  'which',
  'while',
  'where',
  'other',
  'every',
  'being',
]);

/** `harness.roles` in the config is not a valid roster; the message names the role, the field and the fix. */
export class RolesConfigError extends HarnessError {
  override readonly exitCode: number = EXIT_USAGE;
  constructor(detail: string) {
    super(
      `config key ${KEY_HARNESS_ROLES} ${detail}. Fix it with agentm config set ${KEY_HARNESS_ROLES} --json '${EXAMPLE}', or unset it to use the built-in researcher, builder and operator`,
      {
        code: 'EROLESCONFIG',
      },
    );
  }
}

function stringList(value: unknown, where: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v.trim() !== ''))
    throw new RolesConfigError(`${where} must be a list of non-empty strings, got ${JSON.stringify(value)}`);
  return value.map((v: string) => v.trim());
}

/** Words of a description that pick the role for a step's text (see `pickSeedRole`): 5+ letters, lower-cased, once each. */
function keywordsOf(name: string, description: string): string[] {
  const words = description.toLowerCase().match(/[a-z]{5,}/g) ?? [];
  return [...new Set([name.toLowerCase(), ...words.filter((w) => !STOP_WORDS.has(w))])];
}

function roleFrom(name: string, raw: unknown): Role {
  const where = `role "${name}"`;
  if (!ROLE_NAME_PATTERN.test(name))
    throw new RolesConfigError(
      `has a role named ${JSON.stringify(name)}: a role name must match ${ROLE_NAME_PATTERN.source} (lower-case letters, digits, - and _)`,
    );
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new RolesConfigError(`${where} must be an object {"description", "tools"}, got ${JSON.stringify(raw)}`);
  const r = raw as Record<string, unknown>;
  const known = new Set(['description', 'tools', 'domains', 'keywords', 'prompt', 'name']);
  const extra = Object.keys(r).filter((k) => !known.has(k));
  if (extra.length > 0)
    throw new RolesConfigError(
      `${where} has unknown field(s) ${extra.join(', ')}: a role takes description, tools and optionally name, domains, keywords, prompt`,
    );
  if (typeof r['description'] !== 'string' || r['description'].trim() === '')
    throw new RolesConfigError(`${where} needs a "description": one sentence saying what the role does`);
  const tools = stringList(r['tools'], `${where} "tools"`);
  if (!tools || tools.length === 0)
    throw new RolesConfigError(`${where} needs "tools": a non-empty list of ${[...BUILTIN_TOOLS.keys()].join(', ')}`);
  const unknown = tools.filter((t) => !BUILTIN_TOOLS.has(t));
  if (unknown.length > 0)
    throw new RolesConfigError(
      `${where} grants unknown tool(s) ${unknown.join(', ')}; the tools are ${[...BUILTIN_TOOLS.keys()].join(', ')}`,
    );
  if (r['prompt'] !== undefined && (typeof r['prompt'] !== 'string' || r['prompt'].trim() === ''))
    throw new RolesConfigError(
      `${where} "prompt" must be a non-empty string (use {{goal}} where the step's goal goes)`,
    );
  if (r['name'] !== undefined && (typeof r['name'] !== 'string' || r['name'].trim() === ''))
    throw new RolesConfigError(`${where} "name" must be a non-empty string`);
  const description = r['description'].trim();
  const display = typeof r['name'] === 'string' ? r['name'].trim() : name.charAt(0).toUpperCase() + name.slice(1);
  return {
    slug: name,
    name: display,
    description,
    domains: stringList(r['domains'], `${where} "domains"`) ?? [],
    tools: [...new Set(tools)],
    keywords: (stringList(r['keywords'], `${where} "keywords"`) ?? keywordsOf(name, description)).map((k) =>
      k.toLowerCase(),
    ),
    prompt:
      typeof r['prompt'] === 'string'
        ? r['prompt']
        : `You are a ${name} specialist: ${description}\nYour goal: {{goal}}\nUse only the tools you are granted. Report your result to the planner in a short final answer; do not address the user.`,
  };
}

/**
 * The planner's and executor's roster from config key `harness.roles` (a JSON object: role name →
 * `{description, tools, domains?, keywords?, prompt?, name?}`), validated; the config's roles replace
 * the built-in researcher, builder and operator, in the order written. Key absent → `SEED_ROLES`.
 * Anything malformed (not an object, no roles, a bad name, a missing description, no or unknown tools)
 * → `RolesConfigError` naming the role and the fix.
 */
export function rolesFromConfig(config: ConfigData): readonly Role[] {
  const raw = config[KEY_HARNESS_ROLES];
  if (raw === undefined || raw === null) return SEED_ROLES;
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new RolesConfigError(
      `must be a JSON object of role name → {"description", "tools"}, got ${Array.isArray(raw) ? 'an array' : JSON.stringify(raw)}`,
    );
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length === 0) throw new RolesConfigError('names no role');
  return entries.map(([name, role]) => roleFrom(name, role));
}

/** The roster for a host: its config file (read strictly) → `rolesFromConfig`. */
export async function loadRoles(host: HostEnv): Promise<readonly Role[]> {
  return rolesFromConfig((await readConfigStrict(host)).data ?? {});
}
