/**
 * The recall service: a long-lived process (`agentm mcp`) keeps the memory index warm and answers the
 * lexical recalls of short-lived ones (`agentm recall`, Claude Code's prompt hook) over a local socket,
 * so a hook does not walk and load a large index inside its 300 ms budget. This module is both ends'
 * shared part and the client: where the socket is, what identifies the index it serves, and one ask.
 * The server end is server.ts beside it; `agentm mcp` starts it with its warm index and store watcher.
 *
 * The answer is the same as without the service: the server ranks with the query the client resolved
 * (its half-lives and settings), over an index built from the same root, layout and limits, refreshed
 * before it answers when its watcher saw a change. A client whose index would differ (another root or
 * layout, another AgentM version, an embedder: hybrid recall stays in-process) finds no socket or a
 * refusal, and recalls in-process: the service is only ever faster, never different.
 *
 * Security: the socket lives in a directory only this user can enter (created 0700, checked on both
 * ends: owner and mode), next to the lock root, never in the vault. A directory that fails the check is
 * not used: recall runs in-process rather than trust an answer another account could forge.
 */
import { existsSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConfigData } from '../config/config-file.js';
import { defaultIndexRoot, indexDirFor } from '../memory/indexing/location.js';
import { memorySettingsFromConfig } from '../memory/memory-config.js';
import type { RecallQuery, RecallResult } from '../memory/recall/recall.js';
import { contentHash } from '../write-protocol/content-hash.js';

/** Bumped when the request or answer changes shape: an old server and a new client then miss each other. */
export const RECALL_SERVICE_PROTOCOL = 2;

/** The longest Unix socket path (sun_path is 108 bytes on Linux, 104 on macOS, with the terminator). */
const MAX_SOCKET_PATH = 103;

/** The largest request or answer accepted, in bytes (an answer of 50 results is a few tens of kilobytes). */
export const MAX_SERVICE_MESSAGE_BYTES = 8 * 1024 * 1024;

/** What the index a server holds is made from; a client asks only a server whose index it would build itself. */
export interface RecallServiceKey {
  readonly protocol: number;
  /** The AgentM version (a ranking change between versions must not leak into the other's answers). */
  readonly version: string;
  /** The store's directory (the memory root). */
  readonly root: string;
  /** The index directory. */
  readonly indexDir: string;
  /** The layout's spaces, as configured. */
  readonly layout: unknown;
  /** `memory.index.max_note_chars`, when set. */
  readonly maxNoteChars: number | undefined;
}

/** What of a workspace names the index a recall server holds (see `serviceKeyFor`). */
export interface RecallServiceSubject {
  /** The store's directory on this machine; undefined: no server can answer for it. */
  readonly root: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly home: string;
  /** The configured index root, when one is set. */
  readonly indexRoot: string | undefined;
  readonly layout: unknown;
  readonly config: ConfigData;
}

/**
 * What identifies the index a recall server of AgentM `version` must hold to answer `subject`'s lexical
 * recalls: undefined when the store has no directory on this machine. Throws what the config's memory
 * keys throw.
 */
export function serviceKeyFor(subject: RecallServiceSubject, version: string): RecallServiceKey | undefined {
  const { root } = subject;
  if (root === undefined) return undefined;
  return {
    protocol: RECALL_SERVICE_PROTOCOL,
    version,
    root,
    indexDir: indexDirFor(root, subject.indexRoot ?? defaultIndexRoot(subject.env, subject.home)),
    layout: subject.layout,
    maxNoteChars: memorySettingsFromConfig(subject.config).maxNoteChars,
  };
}

/** How long a recall waits for a running server (which may be refreshing a large index) before recalling itself. */
const RECALL_SERVICE_TIMEOUT_MS = 10_000;

/** The answer of a recall server running for `subject`'s index, when one runs; else undefined. */
export async function askServiceFor(
  subject: RecallServiceSubject,
  version: string,
  query: RecallQuery,
): Promise<RecallResult | undefined> {
  const key = serviceKeyFor(subject, version);
  if (key === undefined) return undefined;
  const dir = recallServiceDir(subject.env, subject.home);
  const address = recallServiceAddress(dir, key);
  if (address === undefined) return undefined;
  const request = { protocol: RECALL_SERVICE_PROTOCOL, key, query: resolveRecallQuery(subject.config, query) };
  return askRecallService(dir, address, request, RECALL_SERVICE_TIMEOUT_MS);
}

/** What a client sends: the key it expects and the query, already resolved (half-lives included). */
export interface RecallServiceRequest {
  readonly protocol: number;
  readonly key: RecallServiceKey;
  readonly query: RecallQuery;
}

/** What a server answers: the recall result, or why it would not (the client then recalls in-process). */
export type RecallServiceAnswer =
  | { readonly ok: true; readonly result: RecallResult; readonly server: string }
  | { readonly ok: false; readonly error: string };

/**
 * The query as ranked: notes age by the config's `memory.recall.note_half_life` and recency weighs as
 * its `memory.recall.formula` says, unless the query says otherwise (a `halfLife` given alone applies
 * to notes too). Resolved by the client, so a server with
 * another config ranks as the client would.
 */
export function resolveRecallQuery(config: ConfigData, query: RecallQuery): RecallQuery {
  const settings = memorySettingsFromConfig(config);
  const noteHalfLife = query.noteHalfLife ?? query.halfLife ?? settings.noteHalfLife;
  const formula = query.formula ?? settings.formula;
  return { ...query, noteHalfLife, ...(formula !== undefined ? { formula } : {}) };
}

/** `<XDG_CACHE_HOME or ~/.cache>/agentm/run`: beside the lock root, per user, never synced. */
export function recallServiceDir(env: NodeJS.ProcessEnv, home: string): string {
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg !== undefined && xdg !== '' ? xdg : join(home, '.cache'), 'agentm', 'run');
}

/**
 * The socket of the server for `key`: a named pipe on Windows, else `<dir>/<hash of key>.sock`.
 * Undefined when the path would be too long for a Unix socket (a very deep home): no service then.
 */
export function recallServiceAddress(dir: string, key: RecallServiceKey): string | undefined {
  const hash = contentHash(JSON.stringify(key)).slice(0, 24);
  if (process.platform === 'win32') return `\\\\?\\pipe\\agentm-recall-${hash}`;
  // Short: sun_path is small, and a home under a temp directory is already long.
  const path = join(dir, `${hash}.sock`);
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH ? path : undefined;
}

/**
 * Whether `dir` is a real directory owned by this user that no one else can enter (mode 0700 or
 * stricter). On Windows, named pipes have no directory: true.
 */
export async function isPrivateDir(dir: string): Promise<boolean> {
  if (process.platform === 'win32') return true;
  try {
    const stat = await lstat(dir);
    return stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** Two keys name the same index (compared as the server does, field by field through JSON). */
export function sameServiceKey(a: RecallServiceKey, b: RecallServiceKey): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Asks the server at `address` for a recall. Undefined when there is no usable answer — no server, a
 * directory that is not private, a refusal, a malformed answer, or no answer within `timeoutMs` — and
 * the caller recalls in-process. Never throws.
 */
export async function askRecallService(
  dir: string,
  address: string,
  request: RecallServiceRequest,
  timeoutMs: number,
): Promise<RecallResult | undefined> {
  if (!(await isPrivateDir(dir))) return undefined;
  // No socket, no server (a named pipe on Windows cannot be looked for): answered without loading net,
  // which costs a hook that answers itself several milliseconds.
  if (process.platform !== 'win32' && !existsSync(address)) return undefined;
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(address);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: RecallResult | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    socket.on('error', () => finish(undefined));
    socket.on('connect', () => socket.end(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_SERVICE_MESSAGE_BYTES) return finish(undefined);
      chunks.push(chunk);
    });
    socket.on('end', () => finish(parseAnswer(Buffer.concat(chunks).toString('utf8'))));
    socket.on('close', () => finish(undefined));
  });
}

/** The result in a server's answer, when it is one (shape checked: a wrong answer is no answer). */
function parseAnswer(text: string): RecallResult | undefined {
  try {
    const answer = JSON.parse(text) as Partial<{ ok: unknown; result: Partial<RecallResult>; server: unknown }>;
    const result = answer.result;
    if (answer.ok !== true || typeof result !== 'object' || result === null) return undefined;
    if (!Array.isArray(result.items) || !Array.isArray(result.warnings) || typeof result.mode !== 'string')
      return undefined;
    return { ...(result as RecallResult), servedBy: typeof answer.server === 'string' ? answer.server : 'a server' };
  } catch {
    return undefined;
  }
}
