#!/usr/bin/env node
import { createRequire } from 'node:module';
import { flushed } from '../seam/flushed.js';
import { printable } from '../seam/printable.js';
import type { CliIo } from './context.js';
import { baselineCodeFirst, EXITS_WHEN_ANSWERED } from './one-shot.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const argv = process.argv.slice(2);
const hook = argv[0] === 'hook' && argv.length <= 2 && !argv[1]?.startsWith('-');
const oneShot = hook || EXITS_WHEN_ANSWERED.has(argv[0] ?? '');
if (oneShot) baselineCodeFirst();

/**
 * The background refresh of the memory index, `agentm reindex --background`, in a detached process (the
 * same Node, the same entry script) that outlives this one. A hook's or a one-shot read's asks for it while
 * it computes its answer, and it starts once that answer is out (`startBackground`): its start-up — a Node
 * process loading the command line — would otherwise take a core from the answer. Other commands, which
 * may go on for long after, start it at once.
 */
let backgroundWanted = false;
const background = (): void => {
  backgroundWanted = true;
  if (!oneShot) startBackground();
};

/** Starts the background refresh if an answer asked for it; synchronous, so this process may exit next. */
function startBackground(): void {
  const script = process.argv[1];
  if (!backgroundWanted || script === undefined) return;
  backgroundWanted = false;
  try {
    // Required here, synchronously (the detached child must be started before this process may exit),
    // and only when a refresh is due: a prompt hook would otherwise load child_process, net and dgram.
    const { spawn } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
    const child = spawn(process.execPath, [script, 'reindex', '--background'], {
      detached: true,
      stdio: 'ignore',
      cwd: process.cwd(),
      env: process.env,
      windowsHide: true,
    });
    child.on('error', () => undefined); // a refresh that cannot start is the next answer's to try again
    child.unref();
  } catch {
    // as above
  }
}

/**
 * What the process does, in a function rather than at top level: a module that awaits at top level keeps
 * the bundler (esbuild.mjs) from grouping shared code into main.js — a chunk that imported it back would
 * wait on it forever — and that left a hook and a recall loading three more files (~2 ms).
 */
async function run(): Promise<void> {
  // A Claude Code hook is on the session's critical path (300-500 ms budgets): it skips the command table,
  // loads only its handler, and exits as soon as its answer is written.
  if (hook) {
    const { runHookProcess } = await import('../agents/hooks/hook-process.js');
    const { coreVersion } = await import('./version.js');
    await runHookProcess(argv.slice(1), coreVersion(), background, startBackground);
  }

  // (After the hook's branch: a hook writes to fd 1 and 2 without making these streams.)
  // The reader of our output went away (`agentm recall x | head -1`): that is the reader's choice, not
  // a failure, so stop quietly instead of dying on an unhandled 'error' event with a stack trace. A
  // closed stderr is ignored the same way (there is nobody left to tell).
  const isEpipe = (error: NodeJS.ErrnoException) => error.code === 'EPIPE';
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (!isEpipe(error)) throw error;
    process.exit(0);
  });
  process.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (!isEpipe(error)) throw error;
  });

  const io: CliIo = {
    out: (text) => process.stdout.write(text),
    outRaw: (text) => process.stdout.write(process.stdout.isTTY ? printable(text) : text),
    err: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    readStdin,
    errIsTTY: process.stderr.isTTY === true,
    outIsTTY: process.stdout.isTTY === true,
    columns: process.stderr.columns ?? process.stdout.columns,
    termOut: (text) => process.stdout.write(text),
    termErr: (text) => process.stderr.write(text),
    background,
    // readline is loaded when a question is asked, not by every process.
    ...(process.stdin.isTTY && process.stderr.isTTY
      ? { ask: async (question: string) => (await import('./terminal-question.js')).askOnTerminal(question) }
      : {}),
  };

  // Imported here, not statically: a hook must not load every command first; nor a plain `agentm recall`.
  const plain = argv[0] === 'recall' ? (await import('./recall-argv.js')).plainRecall(argv.slice(1)) : undefined;
  process.exitCode = plain ? await plain(io) : await (await import('./program.js')).runCli(argv, io);

  // A one-shot read has nothing left to do once its answer is out: it starts the background refresh it asked
  // for and exits, not after V8 has finished the compiles it queued in the background and freed a heap that
  // held the index (tens of milliseconds of every `agentm recall` at 100 000 notes).
  if (oneShot) {
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    startBackground();
    process.exit();
  }
}
void run();
