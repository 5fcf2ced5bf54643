import { join } from 'node:path';
import { rmSync, existsSync } from 'node:fs';
import { tokenize, DeviceLocalBackend, walkSources, mapLimit, IndexState, noteDefaults, classifySource, encodeSnapshot, decodeSnapshot, MemoryIndex, Locator, recall } from '@agentm/core';
import { writeVault } from './lib/corpus.mjs';
const dir = process.argv[2];
const root = join(dir, 'vault');
if (!existsSync(root)) writeVault(root, Number(process.argv[3] ?? 10000), 42);
const backend = new DeviceLocalBackend({ root });
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const m = async (name, fn) => { const c = cpu(), t = performance.now(); const r = await fn(); console.log(name.padEnd(12), 'wall', (performance.now() - t).toFixed(0).padStart(6), 'cpu', (cpu() - c).toFixed(0).padStart(6)); return r; };
const floor = async () => { const dirs = [new Locator('memory'), new Locator('desk/projects')]; while (dirs.length) { const ch = await backend.list(dirs.shift()); for (const c of ch) if (!c.name.endsWith('.md')) dirs.push(c); await mapLimit(ch.filter((c) => c.name.endsWith('.md')), 32, (f) => backend.read(f)); } };
await floor();
await m('floor', floor);
const walk = await m('walk', () => walkSources(backend));
const texts = await m('read', () => mapLimit(walk.files, 32, (f) => backend.read(f.locator)));

await m('tokenize', () => texts.forEach((t) => tokenize(t)));
function toDocument(locator, text, info) {
  const end = text.indexOf('\n---\n', 4);
  const front = end > 0 ? text.slice(4, end) : '';
  const body = end > 0 ? text.slice(end + 5) : text;
  return noteDefaults(locator, body, info, classifySource(locator.key), /^fingerprint: (.*)$/m.exec(front)?.[1]);
}
const state = new IndexState();
await m('putFile', () => walk.files.forEach((f, i) => state.putFile({ key: f.locator.key, mtimeMs: f.mtimeMs, size: f.size, hash: 'x' }, [toDocument(f.locator, texts[i], f)])));
const bytes = await m('encode', () => encodeSnapshot(state, { root: '/', snapshotId: 'x', builtMs: 0 }));
await m('decode', () => decodeSnapshot(bytes));
rmSync(join(dir, 'cache'), { recursive: true, force: true });
const opts = { backend, toDocument, indexRoot: join(dir, 'cache'), lockRoot: join(dir, 'locks') };
const index = await m('cold', async () => { const i = await MemoryIndex.open(opts); await i.refresh(); return i; });
const loaded = await m('load', () => MemoryIndex.open(opts));
await m('100 recalls', async () => { for (let i = 0; i < 100; i++) await recall(loaded, { text: texts[i].split(' ').slice(20, 23).join(' '), project: `project-${i % 40}` }); });
