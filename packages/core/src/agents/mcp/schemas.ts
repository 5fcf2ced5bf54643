import { z } from 'zod';
import { GROUP_PATTERN, NAME_PATTERN } from '../../memory/notes/validate.js';
import { DURATION_PATTERN } from '../../memory/recall/duration.js';

/**
 * Argument schemas shared by the tools, mirroring what the services validate, so a bad argument is
 * refused by the SDK before a tool runs (the services still check: they are the authority).
 */
export const nameArg = (what: string, example: string) =>
  z.string().regex(NAME_PATTERN, `${what} must be lower-case letters, digits and hyphens, e.g. ${example}`).max(120);

export const groupArg = z
  .string()
  .regex(
    GROUP_PATTERN,
    'group must be names of lower-case letters, digits and hyphens joined by /, e.g. desk/projects/agentm',
  )
  .max(300);

export const durationArg = z.string().regex(DURATION_PATTERN, 'a duration such as 30m, 12h, 7d or 2w').max(20);

/** A plan name: `foo` (PLAN-foo.md), `PLAN-foo.md`, or empty/`PLAN` for PLAN.md. Unsafe names are refused by the service. */
export const planArg = z
  .string()
  .max(200)
  .describe(
    'The plan: its name (foo for PLAN-foo.md), or PLAN for PLAN.md. Default: the active plan of this repository.',
  );

/** Text a person or model writes into a log or a note (bounded, so a runaway argument is refused whole). */
export const textArg = (max: number) => z.string().max(max);
