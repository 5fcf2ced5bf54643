// One writer process of bench/postgres.mjs. argv: <role> <store JSON> <count> <writer index>
//   role save:  writes <count> new 2 KB notes (a save: "only if absent")
//   role own:   <count> read–increment–CAS cycles on the writer's own note (a lost race is retried)
//   role shared: the same on one note all writers share
//   role claim: a reconciler ticking one plan until it is done; each step is claimed (lease on postgres,
//               a CAS on the vault), "run" (nothing to do) and recorded; prints the steps it claimed
// Waits for "go" on stdin after it is ready, then prints {start, end, done} as JSON.
import { contentHash } from '@agentm/core/write-protocol';
import { PostgresBackend, VaultBackend } from '@agentm/core/backends';
import { Reconciler } from '../packages/core/dist/harness/reconciler/reconciler.js';
import { BackendPlanFiles } from '../packages/core/dist/harness/reconciler/backend-plan-files.js';
import { dispatcherFrom } from '../packages/core/dist/harness/reconciler/dispatcher.js';

const [role, storeJson, countText, writer] = process.argv.slice(2);
const store = JSON.parse(storeJson);
const count = Number(countText);
const backend =
  store.kind === 'vault'
    ? new VaultBackend({ root: store.root, lockRoot: store.lockRoot, lockTimeoutMs: 300_000 })
    : new PostgresBackend({ url: store.url, schema: store.schema, leaseMs: 60_000 });
const pad = 'lorem ipsum dolor sit amet '.repeat(74);

async function save() {
  for (let i = 0; i < count; i++)
    await backend.write(backend.resolve('bench', `w${writer}`, `note-${i}.md`), `# note ${i}\n\n${pad}\n`, {
      expectHash: null,
    });
  return count;
}

/**
 * Read–increment–CAS cycles: on the writer's own note (`own`), or all writers on one shared counter
 * (`shared`); a lost compare-and-swap is retried from a fresh read, as every caller of the seam does.
 */
async function cycles(shared) {
  const counter = backend.resolve('bench', shared ? 'counter.md' : `counter-${writer}.md`);
  for (let i = 0; i < count; i++) {
    for (;;) {
      const text = (await backend.exists(counter)) ? await backend.read(counter) : null;
      const value = text === null ? 0 : Number.parseInt(text, 10);
      try {
        await backend.write(counter, `${value + 1}\n${pad}\n`, {
          expectHash: text === null ? null : contentHash(text),
        });
        break;
      } catch (error) {
        if (error?.code !== 'ECONFLICT') throw error;
      }
    }
  }
  return count;
}

async function claim() {
  const files = new BackendPlanFiles(
    backend,
    backend.resolve('bench', 'PLAN.md'),
    backend.resolve('bench', 'progress.md'),
  );
  const reconciler = new Reconciler({
    files,
    dispatcher: dispatcherFrom(async () => ({ status: 'done', summary: '', toolCalls: 0, tokens: 0 })),
    maxConcurrent: 2,
    claimant: { pid: process.pid, host: `bench-${writer}` },
  });
  let claimed = 0;
  for (;;) {
    // As the run loop does: a tick that lost too many races in a row is tried again.
    const report = await reconciler.tick({ wait: true }).catch((error) => {
      if (error?.code !== 'ECONFLICT') throw error;
      return { claimed: [], terminal: '' };
    });
    claimed += report.claimed.length;
    if (report.terminal !== '' || report.skipped) break;
    if (report.claimed.length === 0) await new Promise((r) => setTimeout(r, 5)); // others hold the rest
  }
  return claimed;
}

const work = { save, own: () => cycles(false), shared: () => cycles(true), claim }[role];
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const start = performance.timeOrigin + performance.now();
const done = await work();
const end = performance.timeOrigin + performance.now();
process.stdout.write(`${JSON.stringify({ start, end, done })}\n`);
process.stdin.destroy();
await backend.close?.();
