import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePlan } from '@agentm/core';
import { effectiveStatus } from '@agentm/core/harness';
import { agentmWorld, vaultConfig, type AgentmWorld } from './helpers/agentm-world.js';
import { runAgentm } from './helpers/cli.js';
import { connectMcp, resultJson } from './helpers/mcp-client.js';

/**
 * Plan depth costs no call stack (issue 20 §1): a plan nested 3 000 levels deep once stopped
 * `agentm run` with "Maximum call stack size exceeded" (a recursive walk over the dependencies that
 * nesting makes: a parent waits on its children). A dependency chain of 10 000 steps is the same
 * depth to every walk over the graph; nesting 10 000 levels needs a 50 MB file (each level indents
 * one more column), so nesting is taken at the depth that failed.
 */
const CHAIN = 10_000;
const NESTED = 3_000;

const plan = (steps: string[]) => ['---', 'goal: deep', '---', '', '# Deep', '', ...steps, ''].join('\n');

/**
 * `s0` waits on `s1`, which waits on `s2` … on `s9999`, each step a command: listed against the order
 * they run in, so a walk from the first step listed goes the whole depth at once (as from a nesting's
 * outermost level).
 */
const chain = plan(
  Array.from(
    { length: CHAIN },
    (_, i) => `- [ ] step ${i} [id:: s${i}]${i < CHAIN - 1 ? ` [after:: s${i + 1}]` : ''} [cmd:: true]`,
  ),
);

/**
 * Each level the only child of the one above, one column deeper (any deeper indent nests; one column
 * keeps the file at 4.5 MB); the innermost is the one command.
 */
const nested = plan(
  Array.from(
    { length: NESTED },
    (_, i) => `${' '.repeat(i)}- [ ] level ${i} [id:: n${i}]${i === NESTED - 1 ? ' [cmd:: true]' : ''}`,
  ),
);

async function world(): Promise<AgentmWorld> {
  const w = await agentmWorld();
  await w.writeConfig(vaultConfig(w));
  await writeFile(join(w.harness, 'PLAN-chain.md'), chain);
  await writeFile(join(w.harness, 'PLAN-nested.md'), nested);
  return w;
}

const agentm = (w: AgentmWorld, args: string[]) => runAgentm(args, { home: w.home, cwd: w.repo });

describe('a deep plan through every path (no recursion on plan depth)', () => {
  it.each([
    ['chain', `s${CHAIN - 1}`, `s${CHAIN - 2}`],
    ['nested', `n${NESTED - 1}`, `n${NESTED - 2}`],
  ])('agentm run --once on the %s plan runs the first step and makes the next one ready', async (name, first, next) => {
    const w = await world();
    const r = await agentm(w, ['run', '--plan', name, '--once', '--yes', '--quiet']);
    expect(r.stderr).not.toMatch(/call stack/i);
    expect(r.code, r.stderr).toBe(0);
    const doc = parsePlan(await readFile(join(w.harness, `PLAN-${name}.md`), 'utf8'));
    const status = (id: string) =>
      effectiveStatus(
        doc,
        doc.steps.find((s) => s.id === id)!,
      );
    expect([status(first), status(next)]).toEqual(['done', 'ready']);
    // What the VS Code plan view computes for every step (core's parsePlan and effectiveStatus).
    expect(doc.steps.filter((s) => effectiveStatus(doc, s) === 'pending')).toHaveLength(doc.steps.length - 2);
  });

  it.each(['chain', 'nested'])('agentm trace and plans show the %s plan', async (name) => {
    const w = await world();
    const trace = await agentm(w, ['trace', '--plan', name]);
    expect(trace.code, trace.stderr).toBe(0);
    expect(trace.stdout).toContain(name === 'chain' ? `s${CHAIN - 1} (step ${CHAIN - 1})` : `n0 (level 0)`);
    const plans = await agentm(w, ['plans', '--json']);
    expect(plans.code, plans.stderr).toBe(0);
    expect(plans.stdout).toContain(`PLAN-${name}.md`);
  });

  it('the MCP server reads the 10 000-step plan and records a step on it', async () => {
    const w = await world();
    const mcp = await connectMcp(w);
    const read = await mcp.call('read_plan', { plan: 'chain', recent: 1 });
    expect(read.isError, JSON.stringify(read.content)).toBeFalsy();
    const summary = resultJson<{ steps: { id: string; status: string }[] }>(read);
    expect(summary.steps).toHaveLength(CHAIN);
    expect(summary.steps.find((s) => s.status === 'ready')).toMatchObject({ id: `s${CHAIN - 1}` });
    const start = await mcp.call('update_step', { plan: 'chain', step: `s${CHAIN - 1}`, action: 'start' });
    expect(start.isError, JSON.stringify(start.content)).toBeFalsy();
  });
});
