#!/usr/bin/env node
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const argv = process.argv.slice(2);
// A Claude Code hook is on the session's critical path (300-500 ms budgets): it skips the command table,
// loads only its handler, and exits as soon as its answer is written.
if (argv[0] === 'hook' && argv.length <= 2 && !argv[1]?.startsWith('-')) {
  const { runHookProcess } = await import('../agents/hooks/hook-process.js');
  await runHookProcess(argv.slice(1));
}

// Imported here, not statically: a hook must not load every command first.
const { runCli } = await import('./program.js');
process.exitCode = await runCli(argv, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  readStdin,
});
