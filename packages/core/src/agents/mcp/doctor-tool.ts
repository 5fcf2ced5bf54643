import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { inspectLock } from '../../protocol/vault-lock.js';
import { storagePreview } from '../../selection/storage-preview.js';
import { stateLocation } from '../../state/state-location.js';
import { listProjectPlans } from '../plan-listing.js';
import type { McpContext } from './mcp-context.js';
import { guarded, jsonResult } from './tool-result.js';

interface Row {
  readonly check: string;
  readonly status: 'ok' | 'warn' | 'fail';
  readonly line: string;
}

/** `doctor`: what `agentm doctor` says of the store, plus what this server sees of the project, plans, lock and index. Read-only. */
export function registerDoctorTool(server: McpServer, ctx: McpContext): void {
  const { ws } = ctx;
  server.registerTool(
    'doctor',
    {
      title: 'AgentM doctor',
      description:
        'Check AgentM here: which store is selected (and whether the configuration would work), the project of this repository and where its plan state lives, the active plan, whether another process holds the vault lock, and the memory index. ' +
        'Each row says ok, warn or fail with what to do. Use it when a tool reports a problem. Writes nothing.',
      inputSchema: {},
      annotations: { title: 'AgentM doctor', readOnlyHint: true, openWorldHint: false },
    },
    () =>
      guarded(ctx, async () => {
        const rows: Row[] = [];
        const preview = await storagePreview({ host: ws.host });
        rows.push({ check: 'storage', status: preview.status, line: preview.line });
        const project = await ctx.project();
        if (project.slug === undefined)
          rows.push({
            check: 'project',
            status: 'warn',
            line: `project [WARN] ${project.projectRoot} has no AgentM project: set vault_project in .harness/project.json or give it a git origin (memories are then global only)`,
          });
        else {
          const location = await stateLocation(project);
          const where =
            location.kind === 'backend'
              ? `${location.path} (through the store)`
              : `${location.dir} (in the repository)`;
          rows.push({
            check: 'project',
            status: 'ok',
            line: `project [OK] ${project.slug} (from ${project.slugSource}); plan state in ${where}`,
          });
        }
        const plans = await listProjectPlans(project);
        rows.push(
          plans.bindingError
            ? { check: 'plans', status: 'fail', line: `plans [FAIL] ${plans.bindingError}` }
            : {
                check: 'plans',
                status: 'ok',
                line: `plans [OK] ${plans.plans.length} plan file(s); active: ${plans.active?.planFile ?? 'none'}`,
              },
        );
        if (ws.localRoot !== undefined) {
          const lock = await inspectLock(ws.localRoot, { lockRoot: ws.lockRoot });
          rows.push(
            !lock.present
              ? { check: 'lock', status: 'ok', line: 'lock [OK] the vault lock is free' }
              : lock.stale
                ? {
                    check: 'lock',
                    status: 'warn',
                    line: `lock [WARN] a stale vault lock (${lock.lockDir}) will be taken over by the next writer`,
                  }
                : { check: 'lock', status: 'ok', line: 'lock [OK] a writer holds the vault lock right now' },
          );
        }
        const { findHalfDoneEvolves, halfDoneEvolvesWarning } = await import('../../memory/notes/half-done-evolves.js');
        const halfDone = await findHalfDoneEvolves(ws.backend, ws.memorySpace);
        rows.push(
          halfDone.length === 0
            ? { check: 'evolves', status: 'ok', line: 'evolves [OK] no evolve left half-done' }
            : { check: 'evolves', status: 'warn', line: halfDoneEvolvesWarning(halfDone) },
        );
        try {
          const index = await ws.index();
          rows.push({
            check: 'index',
            status: 'ok',
            line:
              `index [OK] ${index.state.docs.size} memories indexed (${index.loadStatus}); ` +
              (ctx.freshness.watching ? 'watching the store for changes' : 'refreshed before each answer (no watcher)'),
          });
        } catch (error) {
          rows.push({ check: 'index', status: 'fail', line: `index [FAIL] ${(error as Error).message}` });
        }
        return jsonResult(rows);
      }),
  );
}
