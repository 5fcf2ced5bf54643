// One writer for bench/crash.mjs: appends its own entries to a shared ledger note through a store
// (vault or device-local), each by read–append–compare-and-swap (a lost swap is retried from a fresh
// read), and prints `acked <n>` only after the write returned: an acknowledged entry must survive any
// kill. Runs until killed.  argv: <vault|device-local> <root> <lockRoot> <writerId>
import { ConcurrentModificationError, contentHash } from '@agentm/core/write-protocol';
import { DeviceLocalBackend, VaultBackend } from '@agentm/core/backends';
import { ledger, ledgerEntries } from './lib/ledger.mjs';

const [kind, root, lockRoot, id] = process.argv.slice(2);
const Backend = kind === 'vault' ? VaultBackend : DeviceLocalBackend;
const backend = new Backend({ root, lockRoot, lockStaleMs: 2_000, lockTimeoutMs: 60_000 });
const target = backend.resolve('desk', 'ledger.md');
process.stdout.write('ready\n');
for (let n = 0; ; n++) {
  for (;;) {
    const text = (await backend.exists(target)) ? await backend.read(target) : null;
    const entries = text === null ? [] : ledgerEntries(text);
    if (entries === undefined) throw new Error('torn ledger read');
    try {
      await backend.write(target, ledger([...entries, `${id}:${n}`]), {
        expectHash: text === null ? null : contentHash(text),
      });
      break;
    } catch (error) {
      if (!(error instanceof ConcurrentModificationError)) throw error;
    }
  }
  process.stdout.write(`acked ${n}\n`);
}
