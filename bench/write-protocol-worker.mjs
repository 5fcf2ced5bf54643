// One contending writer for bench/write-protocol.mjs: waits for "go" on stdin, then runs `cycles`
// locked read–increment–CAS-write cycles on the shared counter and prints its timing as JSON.
import { contentHash } from '@agentm/core/write-protocol';
import { VaultBackend } from '@agentm/core/backends';

const [root, lockRoot, cycles] = process.argv.slice(2);
const backend = new VaultBackend({ root, lockRoot, lockTimeoutMs: 120_000 });
const counter = backend.resolve('bench', 'counter.md');
const pad = 'x'.repeat(2000);

process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const start = performance.timeOrigin + performance.now();
for (let i = 0; i < Number(cycles); i++) {
  await backend.withLock(async () => {
    const text = (await backend.exists(counter)) ? await backend.read(counter) : null;
    const value = text === null ? 0 : Number.parseInt(text, 10);
    await backend.write(counter, `${value + 1}\n${pad}\n`, { expectHash: text === null ? null : contentHash(text) });
  });
}
const end = performance.timeOrigin + performance.now();
process.stdout.write(`${JSON.stringify({ start, end, cycles: Number(cycles) })}\n`);
process.stdin.destroy();
