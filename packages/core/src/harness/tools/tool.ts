import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ToolDefinition } from '../../providers/chat.js';
import type { StepRunRecords } from '../command-exec/run-records.js';
import { ToolError } from './tool-errors.js';
import type { CommandGate } from '../command-exec/command-gate.js';

/** What a tool that starts programs must go through: the same approval and environment as a step's command. */
export interface ToolCommands {
  readonly gate: CommandGate;
  /** The environment commands get (no secrets). */
  readonly env: Readonly<Record<string, string>>;
  /** Where its process groups are recorded while they run. */
  readonly track?: StepRunRecords | undefined;
  /** Known secrets, redacted (with key-shaped strings) from the output the model gets. */
  readonly secrets?: readonly string[] | undefined;
  /** The step the model works on (named when a person is asked). */
  readonly step: string;
}

export interface ToolContext {
  /** The only directory tools may touch. */
  readonly projectRoot: string;
  readonly signal: AbortSignal;
  /** Absent: no program may be started (run_command refuses). */
  readonly commands?: ToolCommands;
}

/**
 * A tool the model can call. `run` takes the call's raw JSON arguments and returns the text result, or
 * throws (a `ToolError` when it can say why: bad arguments are `validation`).
 */
export interface Tool {
  readonly definition: ToolDefinition;
  /** Whether a call changes something (its successful results are then never re-executed for the same idempotency key). */
  readonly mutates: boolean;
  run(rawArgs: string, context: ToolContext): Promise<string>;
}

type FieldType = 'string' | 'integer' | 'boolean' | 'string[]';

/** A tiny argument schema: field → type, required or not. Produces the JSON Schema the model sees. */
export interface ArgSpec {
  readonly [field: string]: { readonly type: FieldType; readonly required?: boolean; readonly description: string };
}

export function jsonSchemaOf(spec: ArgSpec): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(spec)) {
    properties[name] =
      f.type === 'string[]'
        ? { type: 'array', items: { type: 'string' }, description: f.description }
        : { type: f.type, description: f.description };
  }
  const required = Object.entries(spec)
    .filter(([, f]) => f.required)
    .map(([n]) => n);
  return { type: 'object', properties, required, additionalProperties: false };
}

/** Parses and checks a call's raw JSON arguments against the spec; a mismatch is a `validation` ToolError. */
export function parseArgs(raw: string, spec: ArgSpec): Record<string, unknown> {
  let value: unknown;
  try {
    value = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    throw new ToolError('validation', `arguments are not valid JSON: ${JSON.stringify(raw.slice(0, 80))}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ToolError('validation', 'arguments must be a JSON object');
  const args = value as Record<string, unknown>;
  for (const key of Object.keys(args))
    if (!(key in spec))
      throw new ToolError(
        'validation',
        `additional property "${key}" is not allowed (allowed: ${Object.keys(spec).join(', ')})`,
      );
  for (const [name, f] of Object.entries(spec)) {
    const v = args[name];
    if (v === undefined) {
      if (f.required) throw new ToolError('validation', `missing required field "${name}"`);
      continue;
    }
    const ok =
      f.type === 'string'
        ? typeof v === 'string'
        : f.type === 'integer'
          ? Number.isInteger(v)
          : f.type === 'boolean'
            ? typeof v === 'boolean'
            : Array.isArray(v) && v.every((x) => typeof x === 'string');
    if (!ok)
      throw new ToolError(
        'validation',
        `invalid field "${name}": must be ${f.type === 'string[]' ? 'an array of strings' : `a ${f.type}`}`,
      );
  }
  return args;
}

function realpathOfNearest(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realpathOfNearest(parent), basename(path));
  }
}

/**
 * The absolute path of a project-relative path, refusing anything that leaves the project root
 * (absolute paths, `..`, symlinks pointing out) with a `permission` ToolError.
 */
export function insideProject(projectRoot: string, path: string): string {
  const root = realpathOfNearest(resolve(projectRoot));
  const target = resolve(root, path);
  const real = realpathOfNearest(target);
  const rel = relative(root, real);
  if (isAbsolute(path) || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) {
    throw new ToolError(
      'permission',
      `path ${JSON.stringify(path)} is out of scope: tools may only use paths relative to, and inside, the project root`,
    );
  }
  return target;
}
