import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp.js';
import { DeviceLocalBackend } from '../../src/backends/device-local.js';
import { MemoryIndex } from '../../src/memory/indexing/memory-index.js';
import { recall } from '../../src/memory/recall/recall.js';
import { noteToDocument } from '../../src/memory/note-documents.js';
import { localDate } from '../../src/memory/notes/format.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** A vault of agentm notes written through the filesystem, each with its mtime; indexed with the real mapper. */
async function indexOf(notes: Record<string, { text: string; mtimeMs: number }>) {
  const dir = await tempDir();
  const root = join(dir, 'Vault', 'Agent');
  for (const [key, { text, mtimeMs }] of Object.entries(notes)) {
    await mkdir(join(root, key, '..'), { recursive: true });
    await writeFile(join(root, key), text);
    await utimes(join(root, key), mtimeMs / 1000, mtimeMs / 1000);
  }
  const index = await MemoryIndex.open({
    backend: new DeviceLocalBackend({ root }),
    toDocument: noteToDocument,
    indexRoot: join(dir, 'cache'),
    lockRoot: join(dir, 'locks'),
  });
  await index.refresh();
  return { index, root };
}

/** agentm's note format (DESIGN §12): date-only `created`/`updated`. */
function agentmNote(body: string, updatedMs: number, extra = ''): string {
  const day = localDate(new Date(updatedMs));
  return (
    `---\ntype: convention\nstatus: active\naltitude: artifact\ncreated: ${day}\nupdated: ${day}\ntags: [a]\n` +
    `group: memory\nslug: x\nfingerprint: f\nalways_load: false\n${extra}---\n\n${body}\n`
  );
}

describe('recency of notes', () => {
  it('of two otherwise identical notes, the one saved a minute ago outranks the one saved a month ago, with recency ≥ 0.9', async () => {
    // A fixed afternoon, so "a minute ago" is hours after the day began (the date-only frontmatter's time).
    const now = new Date(2026, 5, 30, 15, 0, 0).getTime();
    const body = 'Run the release checklist before tagging.';
    const { index } = await indexOf({
      'memory/convention/release-a.md': { text: agentmNote(body, now - 30 * DAY), mtimeMs: now - 30 * DAY },
      'memory/convention/release-b.md': { text: agentmNote(body, now - MINUTE), mtimeMs: now - MINUTE },
    });
    const r = await recall(index, { text: 'release checklist', now });
    expect(r.items.map((i) => i.id)).toEqual(['memory/convention/release-b.md', 'memory/convention/release-a.md']);
    expect(r.items[0]!.recency).toBeGreaterThanOrEqual(0.9);
    expect(r.items[0]!.updatedMs).toBe(now - MINUTE);
    expect(r.items[1]!.recency).toBeCloseTo(0.5, 2);
  });

  it("takes the file's time only when it falls on the frontmatter's date, and a date-time as written", async () => {
    const now = new Date(2026, 5, 30, 15, 0, 0).getTime();
    const copied = agentmNote('copied elsewhere later', now - 10 * DAY);
    const stamped = agentmNote('stamped', now - 10 * DAY).replace(/updated: .*/, 'updated: 2026-06-20T09:30:00Z');
    const { index } = await indexOf({
      'memory/convention/copied.md': { text: copied, mtimeMs: now - MINUTE },
      'memory/convention/stamped.md': { text: stamped, mtimeMs: now - MINUTE },
    });
    const day = new Date(now - 10 * DAY);
    expect(index.state.docs.get('memory/convention/copied.md')!.updatedMs).toBe(
      new Date(day.getFullYear(), day.getMonth(), day.getDate()).getTime(),
    );
    expect(index.state.docs.get('memory/convention/stamped.md')!.updatedMs).toBe(Date.UTC(2026, 5, 20, 9, 30));
  });
});

describe('what recall returns of a note', () => {
  it('finds a note by the words of its file name (slug), which its text may not contain: `stdlib` finds pick-stdlib.md', async () => {
    const now = Date.now();
    const { index } = await indexOf({
      'memory/convention/pick-stdlib.md': { text: agentmNote('Body line one\r\nline two', now), mtimeMs: now },
      'memory/convention/other.md': { text: agentmNote('Nothing about libraries.', now), mtimeMs: now },
    });
    const r = await recall(index, { text: 'stdlib', now });
    expect(r.items.map((i) => i.id)).toEqual(['memory/convention/pick-stdlib.md']);
  });

  it('never returns a note another live note supersedes (by its key or a vault-relative path), and returns it again when that note goes', async () => {
    const now = new Date(2026, 5, 30, 15, 0, 0).getTime();
    const at = now - DAY;
    const { index, root } = await indexOf({
      'desk/projects/p/reference/ports.md': { text: agentmNote('The dev server port is 8080.', at), mtimeMs: at },
      'desk/projects/p/reference/ports-revised.md': {
        text: agentmNote('The dev server port is 9090.', at, 'supersedes: desk/projects/p/reference/ports.md\n'),
        mtimeMs: at,
      },
      'memory/reference/proxy.md': { text: agentmNote('The proxy port is 3128.', at), mtimeMs: at },
      'memory/reference/proxy-2.md': {
        // agentm writes vault-relative paths: the memory root here is the vault's `Agent/` folder.
        text: agentmNote('The proxy port is 3129.', at, 'supersedes: Agent/memory/reference/proxy\n'),
        mtimeMs: at,
      },
    });
    const ids = async () => (await recall(index, { text: 'port', now, k: 10 })).items.map((i) => i.id).sort();
    expect(await ids()).toEqual(['desk/projects/p/reference/ports-revised.md', 'memory/reference/proxy-2.md']);
    await rm(join(root, 'desk/projects/p/reference/ports-revised.md'));
    await index.refresh();
    expect(await ids()).toEqual(['desk/projects/p/reference/ports.md', 'memory/reference/proxy-2.md']);
    const reopened = await MemoryIndex.open({ ...indexOptions(index), backend: index.backend });
    expect((await recall(reopened, { text: 'proxy', now })).items.map((i) => i.id)).toEqual([
      'memory/reference/proxy-2.md',
    ]);
  });

  it('an evolve killed between its writes (renamed successor beside the old note) shows one current version', async () => {
    const now = new Date(2026, 5, 30, 15, 0, 0).getTime();
    const archive = 'memory/_archive/memory/fix/lock.md.20260630.md';
    const { index, root } = await indexOf({
      // The old note, still holding the archived text; the successor names its archive, not the note.
      'memory/fix/lock.md': {
        text: agentmNote('Take the lock before the rename.', now - 3 * DAY),
        mtimeMs: now - 3 * DAY,
      },
      'memory/fix/lock-v2.md': {
        text: agentmNote('Take the lock, re-check, then rename.', now - MINUTE, `supersedes: ${archive}\n`),
        mtimeMs: now - MINUTE,
      },
    });
    const ids = async () => (await recall(index, { text: 'lock rename', now, k: 10 })).items.map((i) => i.id).sort();
    expect(await ids()).toEqual(['memory/fix/lock-v2.md']);
    // A note saved at the old path after the rename is a new note: it shows.
    await writeFile(join(root, 'memory/fix/lock.md'), agentmNote('Lock files live in the cache.', now));
    await utimes(join(root, 'memory/fix/lock.md'), now / 1000, now / 1000);
    await index.refresh();
    expect(await ids()).toEqual(['memory/fix/lock-v2.md', 'memory/fix/lock.md']);
  });

  it("ranks the project's own note above an equally matching, equally recent global note", async () => {
    const now = new Date(2026, 5, 30, 15, 0, 0).getTime();
    const at = now - 3 * DAY;
    const { index } = await indexOf({
      'memory/workflow/deploy.md': { text: agentmNote('Deploy with the blue green script.', at), mtimeMs: at },
      'desk/projects/p/workflow/deploy.md': { text: agentmNote('Deploy with the blue green script.', at), mtimeMs: at },
    });
    const r = await recall(index, { text: 'deploy blue green', project: 'p', now });
    expect(r.items.map((i) => i.id)).toEqual(['desk/projects/p/workflow/deploy.md', 'memory/workflow/deploy.md']);
    expect((await recall(index, { text: 'deploy blue green', now })).items[0]!.score).toBe(r.items[0]!.score);
  });
});

function indexOptions(index: MemoryIndex) {
  return {
    toDocument: noteToDocument,
    indexDir: index.dir,
    memoryRoot: index.root,
    lockRoot: join(index.dir, '..', '..', 'locks'),
  };
}
