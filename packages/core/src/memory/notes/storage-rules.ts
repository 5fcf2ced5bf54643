import { parse as parseYaml } from 'yaml';
import { StorageRulesError } from './errors.js';
import type { Vocabulary } from './vocabulary.js';

/**
 * agentm's filing contract: the fenced ```` ```storage-rules ```` YAML block of a `storage-rules.md`
 * (the prose around it is for people; the block is what programs read). Only the registers filing
 * uses are read and checked here — `memory_types`, `record_kinds`, `deprecations`, `default_type` —
 * with agentm's rules for them; other keys (classes, routing, thresholds, …) are left to agentm.
 */

/** The block as agentm's parser finds it: a line opening the fence, everything up to a closing fence line. */
const BLOCK = /^```storage-rules[ \t]*\r?\n([\s\S]*?)^```[ \t]*(?:\r?\n|$(?![\s\S]))/m;
const KEBAB = /^[a-z0-9-]+$/;

function stringList(data: Record<string, unknown>, key: string, fail: (problem: string) => never): string[] {
  const value = data[key];
  if (value === undefined || value === null) fail(`the rules block is missing required key \`${key}\``);
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string'))
    fail(`\`${key}\` must be a list of names`);
  const seen = new Set<string>();
  for (const name of value) {
    if (!KEBAB.test(name)) fail(`\`${key}\` value ${JSON.stringify(name)} is not kebab-case (^[a-z0-9-]+$)`);
    if (seen.has(name)) fail(`\`${key}\` names ${JSON.stringify(name)} twice`);
    seen.add(name);
  }
  return value;
}

/**
 * The vocabulary of a rules file's text; `source` names the file in errors. Throws `StorageRulesError`
 * when the block is missing, is not valid YAML, or its registers are malformed: a memory type list that
 * is empty or not kebab-case, a name in both registers, a retired name that is itself current or whose
 * replacement no register carries, a `default_type` that is no memory type.
 */
export function parseStorageRules(text: string, source: string): Vocabulary {
  const fail = (problem: string, cause?: unknown): never => {
    throw new StorageRulesError(source, problem, cause);
  };
  const block = BLOCK.exec(text);
  if (!block)
    fail('no ```storage-rules fenced block found (prose alone is not a rules file; the block is what filing reads)');
  let parsed: unknown;
  try {
    // Failsafe: every scalar is text, as agentm's parser decodes the registers into string lists.
    parsed = parseYaml(block![1]!, { schema: 'failsafe', uniqueKeys: true });
  } catch (error) {
    fail(`the rules block is not valid YAML: ${(error as Error).message.split('\n')[0]}`, error);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    fail('the rules block is not a YAML mapping (key: value lines)');
  const data = parsed as Record<string, unknown>;
  const types = stringList(data, 'memory_types', fail);
  if (types.length === 0) fail('the rules block is missing required key `memory_types` (it names no type)');
  const recordKinds = stringList(data, 'record_kinds', fail);
  const both = recordKinds.filter((k) => types.includes(k));
  if (both.length > 0) fail(`${both.join(', ')} ${both.length === 1 ? 'is' : 'are'} in both registers`);
  const deprecations = data['deprecations'];
  if (deprecations === undefined || deprecations === null)
    fail('the rules block is missing required key `deprecations`');
  if (typeof deprecations !== 'object' || Array.isArray(deprecations))
    fail('`deprecations` must map each retired name to its replacement');
  const retired: Record<string, string> = {};
  for (const [from, to] of Object.entries(deprecations as Record<string, unknown>)) {
    if (typeof to !== 'string') fail(`the replacement of retired ${JSON.stringify(from)} must be a name`);
    if (types.includes(from) || recordKinds.includes(from))
      fail(`${JSON.stringify(from)} is listed as retired or current, but it cannot be both`);
    if (!types.includes(to as string) && !recordKinds.includes(to as string))
      fail(`retired ${JSON.stringify(from)} maps to ${JSON.stringify(to)}, which no register carries`);
    retired[from] = to as string;
  }
  const defaultType = data['default_type'];
  if (defaultType !== undefined && (typeof defaultType !== 'string' || !types.includes(defaultType)))
    fail(`default_type ${JSON.stringify(defaultType)} is not a memory type`);
  return {
    types,
    recordKinds,
    retired,
    ...(typeof defaultType === 'string' ? { defaultType } : {}),
  };
}
