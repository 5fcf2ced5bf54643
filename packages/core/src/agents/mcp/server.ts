import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Workspace } from '../../workspace/workspace.js';
import { agentActor } from '../actor.js';
import { registerDoctorTool } from './doctor-tool.js';
import { IndexFreshness } from './index-freshness.js';
import { recallServiceHost, type McpContext } from './mcp-context.js';
import { registerMemoryTools } from './memory-tools.js';
import { registerPlanTools } from './plan-tools.js';
import { registerResources } from './resources.js';
import { serveRecallSocket, type RecallSocketServer } from '../../recall-service/server.js';

/** What the server tells a client's model about itself (MCP `instructions`). */
export const SERVER_INSTRUCTIONS =
  "AgentM keeps this user's durable memory and plan state as Markdown in their Obsidian vault, shared by every agent and machine they use. " +
  'Recall before you decide how to do something (recall, session_context); save what a later session should know (save; evolve to supersede). ' +
  'When a plan exists (list_plans, read_plan), record your progress on it (update_step, append_progress) so a person or another agent can follow. ' +
  'Nothing here runs commands: plans are read and recorded, never executed.';

/** The largest tool argument accepted, in array elements plus object members (a runaway argument is refused whole). */
const MAX_TOOL_INPUT_ELEMENTS = 10_000;

/**
 * The AgentM MCP server over one workspace (the repository it was started in): tools for memory (recall,
 * session_context, save, evolve), plans (list_plans, read_plan, update_step, append_progress) and a
 * doctor; notes, plans and progress logs as resources. The index is kept warm for the life of the
 * process and refreshed before an answer when the store changed.
 */
export function createAgentmServer(
  ws: Workspace,
  options: { readonly version: string },
): { readonly server: McpServer; readonly context: McpContext } {
  const server = new McpServer(
    { name: 'agentm', title: 'AgentM', version: options.version },
    { instructions: SERVER_INSTRUCTIONS, maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS },
  );
  const context: McpContext = {
    ws,
    freshness: new IndexFreshness(ws.localRoot ?? ws.backend.changeFeed),
    actor: () => agentActor(server.server.getClientVersion()?.name, 'mcp-client'),
    project: async () => (await ws.project())!, // the server always has a repository
  };
  registerMemoryTools(server, context);
  registerPlanTools(server, context);
  registerDoctorTool(server, context);
  registerResources(server, context);
  return { server, context };
}

/**
 * Serves over stdio until the client goes away (stdin ends) or the process is asked to stop. Once the
 * handshake is under way, the store watcher starts and the index is opened and refreshed in the
 * background, so the first recall finds it warm, and a recall socket answers this user's hooks and
 * `agentm recall` runs from it (see recall-service/server.ts). Progress and problems go to `log` (stderr): stdout
 * is the protocol's.
 */
export async function serveStdio(
  ws: Workspace,
  options: { readonly version: string; readonly log: (line: string) => void },
): Promise<void> {
  const { server, context } = createAgentmServer(ws, options);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  const stop = () => void server.close();
  process.stdin.once('end', stop);
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  await server.connect(new StdioServerTransport());
  let recallServer: Promise<RecallSocketServer | undefined> | undefined;
  setImmediate(() => {
    context.freshness.start();
    // Short-lived processes (the prompt hook, `agentm recall`) ask this warm index instead of loading theirs.
    recallServer = serveRecallSocket(recallServiceHost(context, options.version), options.log).catch(
      (error: unknown) => {
        options.log(`agentm mcp: recall server off: ${(error as Error).message}`);
        return undefined;
      },
    );
    if (context.freshness.takeRefresh()) {
      const warm = ws.index().then(async (index) => {
        const report = await index.refresh();
        // The notes' vectors (when an embeddings endpoint is set), computed while the server waits for questions.
        if (index.embeddings?.behind()) void index.embeddings.runInBackground();
        return report;
      });
      context.freshness.track(warm); // a question asked meanwhile waits for it
      warm.then(
        (report) =>
          options.log(
            `agentm mcp: memory index ready: ${report.documents} memories${report.rebuilt ? ` (rebuilt: ${report.rebuilt})` : ''}`,
          ),
        (error: unknown) => {
          context.freshness.failed();
          options.log(`agentm mcp: the memory index could not be warmed: ${(error as Error).message}`);
        },
      );
    }
  });
  try {
    await closed;
  } finally {
    await (await recallServer)?.close();
    context.freshness.close();
    process.stdin.off('end', stop);
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
}
