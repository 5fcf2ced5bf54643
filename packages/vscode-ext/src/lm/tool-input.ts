import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { ExtensionError } from '../errors';

/** A tool was called with input its JSON schema refuses; nothing ran. */
export class ToolInputError extends ExtensionError {
  override name = 'ToolInputError';
}

/** Wrapper errors ("property x does not match") that only repeat what a leaf error says. */
const WRAPPERS = new Set(['properties', 'false', 'items', 'allOf', 'if', 'then']);

function describe(unit: OutputUnit): string {
  const where = unit.instanceLocation === '#' ? 'input' : unit.instanceLocation.replace(/^#\//, '').replace(/\//g, '.');
  if (unit.keyword === 'additionalProperties') {
    const name = /Property "([^"]*)"/.exec(unit.error)?.[1];
    return `${where} has a property the tool does not take${name ? `: "${name}"` : ''}`;
  }
  return `${where}: ${unit.error}`;
}

/**
 * Checks a tool's input against the JSON schema the tool declares in package.json (the schema the model
 * sees), before anything runs. Throws `ToolInputError` listing every problem and how to fix it.
 */
export function toolInputChecker<T>(tool: string, schema: object): (input: unknown) => T {
  const validator = new Validator(schema as Schema, '7', false);
  return (input: unknown): T => {
    const result = validator.validate(input);
    if (result.valid) return input as T;
    const problems = [...new Set(result.errors.filter((e) => !WRAPPERS.has(e.keyword)).map(describe))];
    throw new ToolInputError(
      `invalid input for ${tool}: ${(problems.length ? problems : ['it does not match the schema']).join('; ')}. ` +
        `Call ${tool} again with input matching its schema.`,
    );
  };
}
