#!/usr/bin/env node
import { runCli } from './program.js';
import { askOnTerminal } from './terminal-question.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

process.exitCode = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  readStdin,
  errIsTTY: process.stderr.isTTY === true,
  ...(process.stdin.isTTY && process.stderr.isTTY ? { ask: askOnTerminal } : {}),
});
