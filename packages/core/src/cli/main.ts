#!/usr/bin/env node
import { printable } from '../seam/printable.js';
import { runCli } from './program.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

process.exitCode = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  outRaw: (text) => process.stdout.write(process.stdout.isTTY ? printable(text) : text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  readStdin,
});
