import { chmod, mkdir, unlink } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { z } from 'zod';
import type { MemoryIndex } from '../memory/indexing/memory-index.js';
import { recall, type RecallQuery, type RecallResult } from '../memory/recall/recall.js';
import {
  isPrivateDir,
  MAX_SERVICE_MESSAGE_BYTES,
  RECALL_SERVICE_PROTOCOL,
  recallServiceAddress,
  recallServiceDir,
  sameServiceKey,
  type RecallServiceAnswer,
  type RecallServiceKey,
} from './client.js';

/** After the watcher's last event, how long the server waits before refreshing ahead of the next question. */
export const REFRESH_DEBOUNCE_MS = 250;

const finite = z.number().finite();
/** A request as `askRecallService` sends it; anything else is refused (the client then recalls itself). */
const requestSchema = z.object({
  protocol: z.literal(RECALL_SERVICE_PROTOCOL),
  key: z.object({
    protocol: z.number(),
    version: z.string(),
    root: z.string(),
    indexDir: z.string(),
    layout: z.unknown(),
    maxNoteChars: z.number().optional(),
  }),
  query: z
    .object({
      text: z.string().max(1_000_000).optional(),
      project: z.string().max(300).optional(),
      k: finite.optional(),
      window: finite.optional(),
      halfLife: finite.optional(),
      noteHalfLife: finite.optional(),
      wSem: finite.optional(),
      wRec: finite.optional(),
      kinds: z.array(z.string().max(200)).max(200).optional(),
      formula: z.enum(['prior', 'memql']).optional(),
      logWeight: finite.optional(),
      globalWeight: finite.optional(),
      now: finite.optional(),
    })
    .strict(),
});

/**
 * What the server needs from the process that runs it (`agentm mcp` builds one from its context): the
 * key of the index it serves, where the socket directory is, the warm index, and the store watcher's
 * freshness. Declared here so this folder depends on nothing above the workspace.
 */
export interface RecallServiceHost {
  /** The index this server answers for (`Workspace.recallServiceKey`); undefined when it cannot serve. */
  readonly key: RecallServiceKey | undefined;
  /** The environment and home the socket directory is found from (`recallServiceDir`). */
  readonly env: NodeJS.ProcessEnv;
  readonly home: string;
  /** The warm index. */
  index(): Promise<MemoryIndex>;
  /** Calls `listener` when the store watcher sees a change; returns how to stop. */
  onChange(listener: () => void): () => void;
  /** Runs `work`, told whether to refresh the index first (a change was seen since the last refresh). */
  withFresh<T>(work: (refresh: boolean) => Promise<T>): Promise<T>;
}

/** A running recall server: where it listens, and how to stop it. */
export interface RecallSocketServer {
  readonly address: string;
  close(): Promise<void>;
}

/**
 * Answers the lexical recalls of short-lived processes of this user (`agentm recall`, the prompt hook)
 * from the server's warm index, over a local socket (see client.ts). The index is
 * refreshed shortly after the store watcher sees a change, and before an answer when it is still stale,
 * so an answer is what the asking process would have computed itself. Undefined (and a line on `log`
 * saying why) when it cannot serve: no local root, a socket directory another account could enter, a
 * socket path too long, or another server already answering for this index.
 */
export async function serveRecallSocket(
  host: RecallServiceHost,
  log: (line: string) => void,
): Promise<RecallSocketServer | undefined> {
  const key = host.key;
  if (key === undefined) return undefined;
  const dir = recallServiceDir(host.env, host.home);
  const address = recallServiceAddress(dir, key);
  if (address === undefined) {
    log(
      `agentm mcp: recall server off: the socket path under ${dir} is too long (set XDG_CACHE_HOME to a shorter path)`,
    );
    return undefined;
  }
  if (!(await privateDir(dir))) {
    log(`agentm mcp: recall server off: ${dir} must be a directory only you can enter (chmod 700 ${dir})`);
    return undefined;
  }
  const refresher = backgroundRefresher(host);
  // Half-open: the client ends its side after the request, and the answer still goes back.
  const server = createServer({ allowHalfOpen: true }, (socket) => void answerOn(socket, key, refresher));
  if (!(await listen(server, address))) {
    refresher.stop();
    log('agentm mcp: recall server off: another agentm mcp answers recalls for this store');
    return undefined;
  }
  if (process.platform !== 'win32') await chmod(address, 0o600);
  return {
    address,
    async close() {
      refresher.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (process.platform !== 'win32') await unlink(address).catch(() => undefined);
    },
  };
}

/** Creates `dir` (0700) or tightens one this user owns; true when it is then private. */
async function privateDir(dir: string): Promise<boolean> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (await isPrivateDir(dir)) return true;
  await chmod(dir, 0o700).catch(() => undefined); // refused when another account owns it
  return isPrivateDir(dir);
}

/**
 * Listens on `address`; a socket left by a server that died (nothing accepts on it) is replaced. False
 * when a live server is there.
 */
async function listen(server: Server, address: string): Promise<boolean> {
  const attempt = () =>
    new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      server.once('error', resolve);
      server.listen(address, () => {
        server.off('error', resolve);
        resolve(undefined);
      });
    });
  let error = await attempt();
  if (error?.code === 'EADDRINUSE' && !(await answers(address))) {
    await unlink(address).catch(() => undefined);
    error = await attempt();
  }
  if (error === undefined) return true;
  if (error.code === 'EADDRINUSE') return false;
  throw error;
}

/** Whether something accepts connections at `address`. */
function answers(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(address);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** Reads one request (the client ends its half after it), answers it, closes. */
async function answerOn(socket: Socket, key: RecallServiceKey, refresher: BackgroundRefresher): Promise<void> {
  socket.on('error', () => socket.destroy());
  const chunks: Buffer[] = [];
  let size = 0;
  const text = await new Promise<string | undefined>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_SERVICE_MESSAGE_BYTES) resolve(undefined);
      else chunks.push(chunk);
    });
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('close', () => resolve(undefined));
  });
  if (text === undefined || socket.destroyed) return void socket.destroy();
  const answer = await answerRequest(text, key, refresher);
  socket.end(`${JSON.stringify(answer)}\n`);
}

async function answerRequest(
  text: string,
  key: RecallServiceKey,
  refresher: BackgroundRefresher,
): Promise<RecallServiceAnswer> {
  let request;
  try {
    request = requestSchema.parse(JSON.parse(text));
  } catch {
    return { ok: false, error: 'not a recall request of this version' };
  }
  if (!sameServiceKey(request.key as RecallServiceKey, key)) return { ok: false, error: 'another index' };
  try {
    const result = await refresher.recall(request.query as RecallQuery);
    return { ok: true, result, server: `agentm mcp, pid ${process.pid}` };
  } catch (error) {
    // The client recalls itself and meets the same error there, typed, with its own message.
    return { ok: false, error: (error as Error)?.message ?? String(error) };
  }
}

interface BackgroundRefresher {
  recall(query: RecallQuery): Promise<RecallResult>;
  stop(): void;
}

/**
 * Keeps the index fresh ahead of questions: a refresh `REFRESH_DEBOUNCE_MS` after the watcher's last
 * event, and a question that finds it stale still refreshes first (`host.withFresh`). The warnings of
 * the last refresh (folders skipped, notes cut) come with every answer, as a refresh in the asking
 * process would have reported them.
 */
function backgroundRefresher(host: RecallServiceHost): BackgroundRefresher {
  let warnings: readonly string[] = [];
  let timer: NodeJS.Timeout | undefined;
  const refresh = async (due: boolean) => {
    if (!due) return;
    warnings = (await (await host.index()).refresh()).warnings;
  };
  const unsubscribe = host.onChange(() => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      void host.withFresh(refresh).catch(() => undefined); // the next question retries, and reports
    }, REFRESH_DEBOUNCE_MS);
    timer.unref();
  });
  return {
    recall: (query) =>
      host.withFresh(async (due) => {
        await refresh(due);
        const result = await recall({ state: (await host.index()).state }, query);
        return { ...result, warnings: [...warnings, ...result.warnings] };
      }),
    stop() {
      clearTimeout(timer);
      unsubscribe();
    },
  };
}
