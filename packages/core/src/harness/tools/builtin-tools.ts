import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { atomicWrite } from '../../write-protocol/atomic-write.js';
import { redactSecrets } from '../../text/redact.js';
import { runProcess } from '../command-exec/run-process.js';
import { ToolError } from './tool-errors.js';
import { insideProject, jsonSchemaOf, parseArgs, type ArgSpec, type Tool, type ToolContext } from './tool.js';

const MAX_READ_CHARS = 20_000;
const MAX_LIST = 500;
const MAX_MATCHES = 50;
const MAX_SEARCH_FILES = 5_000;
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'out', '.harness']);

function defineTool(
  name: string,
  description: string,
  spec: ArgSpec,
  mutates: boolean,
  run: (args: Record<string, unknown>, context: ToolContext) => Promise<string>,
): Tool {
  return {
    definition: { name, description, parameters: jsonSchemaOf(spec) },
    mutates,
    run: (rawArgs, context) => run(parseArgs(rawArgs, spec), context),
  };
}

function notFound(path: string, error: unknown): never {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT')
    throw new ToolError('not_found', `${JSON.stringify(path)} does not exist in the project`);
  throw error;
}

const readFileTool = defineTool(
  'read_file',
  'Read a text file of the project (path relative to the project root).',
  { path: { type: 'string', required: true, description: 'file path relative to the project root' } },
  false,
  async (args, ctx) => {
    const path = String(args['path']);
    const text = await readFile(insideProject(ctx.projectRoot, path), 'utf8').catch((e: unknown) => notFound(path, e));
    return text.length > MAX_READ_CHARS
      ? `${text.slice(0, MAX_READ_CHARS)}\n[truncated: ${text.length - MAX_READ_CHARS} more characters]`
      : text;
  },
);

const listFilesTool = defineTool(
  'list_files',
  'List a directory of the project (default: the project root); directories end with "/".',
  { path: { type: 'string', description: 'directory relative to the project root' } },
  false,
  async (args, ctx) => {
    const path = typeof args['path'] === 'string' ? args['path'] : '.';
    const entries = await readdir(insideProject(ctx.projectRoot, path), { withFileTypes: true }).catch((e: unknown) =>
      notFound(path, e),
    );
    const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
    return names.length > MAX_LIST
      ? `${names.slice(0, MAX_LIST).join('\n')}\n[${names.length - MAX_LIST} more]`
      : names.join('\n');
  },
);

const searchTextTool = defineTool(
  'search_text',
  'Find lines containing a text (case-insensitive) in the project files; returns path:line: text.',
  {
    query: { type: 'string', required: true, description: 'text to look for' },
    path: { type: 'string', description: 'directory to search (default: the project root)' },
  },
  false,
  async (args, ctx) => {
    const query = String(args['query']).toLowerCase();
    if (query.trim() === '') throw new ToolError('validation', 'invalid field "query": must not be empty');
    const start = insideProject(ctx.projectRoot, typeof args['path'] === 'string' ? args['path'] : '.');
    const matches: string[] = [];
    let files = 0;
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
        if (matches.length >= MAX_MATCHES || files >= MAX_SEARCH_FILES || ctx.signal.aborted) return;
        const full = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) await walk(full);
        } else if (entry.isFile() && (await stat(full)).size <= 1_000_000) {
          files++;
          const lines = (await readFile(full, 'utf8')).split(/\r\n?|\n/);
          lines.forEach((line, i) => {
            if (matches.length < MAX_MATCHES && line.toLowerCase().includes(query))
              matches.push(`${relative(ctx.projectRoot, full)}:${i + 1}: ${line.trim().slice(0, 200)}`);
          });
        }
      }
    };
    await walk(start);
    return matches.length === 0 ? 'no matches' : matches.join('\n');
  },
);

const writeFileTool = defineTool(
  'write_file',
  'Create or replace a text file of the project (atomically).',
  {
    path: { type: 'string', required: true, description: 'file path relative to the project root' },
    content: { type: 'string', required: true, description: 'the whole new content' },
  },
  true,
  async (args, ctx) => {
    const path = String(args['path']);
    const content = String(args['content']);
    await atomicWrite(insideProject(ctx.projectRoot, path), content);
    return `wrote ${Buffer.byteLength(content, 'utf8')} bytes to ${path}`;
  },
);

const runCommandTool = defineTool(
  'run_command',
  'Run a program in the project root without a shell (argv[0] is the program); returns the exit code and the output tail.',
  {
    argv: { type: 'string[]', required: true, description: 'program and arguments' },
    timeout_seconds: { type: 'integer', description: 'limit (default 120)' },
  },
  true,
  async (args, ctx) => {
    const argv = args['argv'] as string[];
    if (argv.length === 0 || argv[0]!.trim() === '')
      throw new ToolError('validation', 'invalid field "argv": must name a program');
    const seconds =
      typeof args['timeout_seconds'] === 'number' && args['timeout_seconds'] > 0 ? args['timeout_seconds'] : 120;
    // The model's commands need the same consent as a plan's: approved in this repo, allow-listed, or --yes.
    const commands = ctx.commands;
    if (!commands)
      throw new ToolError(
        'permission',
        'run_command is not available here: no command approval is set up for this run',
      );
    const verdict = await commands.gate.check({ argv, origin: `run_command in step "${commands.step}"` });
    if (!verdict.allowed) throw new ToolError('permission', verdict.reason);
    const result = await runProcess(argv, {
      cwd: ctx.projectRoot,
      env: commands.env,
      timeoutMs: seconds * 1000,
      signal: ctx.signal,
      track: commands.track,
    });
    if (result.spawnError)
      throw new ToolError('not_found', `cannot start ${JSON.stringify(argv[0])}: ${result.spawnError}`);
    if (result.timedOut) throw new ToolError('timeout', `command timed out after ${seconds} s`);
    // The model's provider is a third party: what a command printed reaches it without any key.
    return `exit ${result.exitCode ?? result.signal}\n${redactSecrets(result.tail, commands.secrets ?? [])}`;
  },
);

/** Every built-in tool by name. */
export const BUILTIN_TOOLS: ReadonlyMap<string, Tool> = new Map(
  [readFileTool, listFilesTool, searchTextTool, writeFileTool, runCommandTool].map((t) => [t.definition.name, t]),
);
