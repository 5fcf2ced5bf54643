import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { doctorLine } from '../../workspace/doctor/check.js';
import type { McpContext } from './mcp-context.js';
import { guarded, jsonResult } from './tool-result.js';

/**
 * `doctor`: the workspace's checks (what `agentm doctor` prints, the editors show), each with its
 * status, message, fix and the line as the CLI prints it. Read-only: no round trip, no `--fix`, no
 * request to a model.
 */
export function registerDoctorTool(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'doctor',
    {
      title: 'AgentM doctor',
      description:
        'Check AgentM here: which store is selected (and whether the configuration would work), the lock, leftover temp files and sync conflict copies, the model providers, the project of this repository and its plans (a dangling active-plan binding, a failed run), and the memory index. ' +
        'Each check says ok, warn, fail or info with what to do. Use it when a tool reports a problem. Writes nothing.',
      inputSchema: {},
      annotations: { title: 'AgentM doctor', readOnlyHint: true, openWorldHint: false },
    },
    () =>
      guarded(ctx, async () => {
        const checks = await ctx.ws.doctor();
        return jsonResult(checks.map((check) => ({ ...check, line: doctorLine(check) })));
      }),
  );
}
