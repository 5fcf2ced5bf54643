import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildNote } from '@agentm/core';
import { afterEach, describe, expect, it } from 'vitest';
import { shownNotices, unloadPlugin } from './fake-obsidian/testing.js';
import { startWithPlugin } from './helpers/plugin.js';
import { until } from './helpers/until.js';

const note = (kind: string, slug: string, body: string, group: string) => {
  const n = buildNote({ kind, slug, body, group }, { now: new Date(2026, 0, 10) });
  return { [n.locator.key]: n.content };
};

describe('recall with the config agents use (issue 12: spaces)', () => {
  it('finds a note that lives only under the configured memory space', async () => {
    const s = await startWithPlugin(
      note('fix', 'flaky-watcher', '# Debounce the watcher\n\nWatchers fire twice on rename.', 'knowledge/notes'),
      { before: (v) => v.writeConfig({ 'plugins.obsidian-vault.spaces': { memory: 'knowledge/notes' } }) },
    );
    const hits = await s.plugin.services!.recall('watchers rename');
    expect(hits.map((h) => h.path)).toEqual(['knowledge/notes/fix/flaky-watcher.md']);
    unloadPlugin(s.plugin);
  });

  it('follows a change of agentm’s config: the workspace is rebuilt with the new spaces', async () => {
    const s = await startWithPlugin(
      note('fix', 'flaky-watcher', '# Debounce the watcher\n\nWatchers fire twice on rename.', 'knowledge/notes'),
    );
    expect(await s.plugin.services!.recall('watchers rename')).toEqual([]); // `memory` is the memory space
    await s.v.writeConfig({ 'plugins.obsidian-vault.spaces': { memory: 'knowledge/notes' } });
    const hits = await s.plugin.services!.recall('watchers rename');
    expect(hits.map((h) => h.path)).toEqual(['knowledge/notes/fix/flaky-watcher.md']);
    unloadPlugin(s.plugin);
  });
});

/** The embedding of a text: 4 dimensions, one per topic word it mentions (cars, lock, watcher, tests). */
function embed(text: string): number[] {
  const t = text.toLowerCase();
  return [/car|automobile|vehicle/, /lock/, /watcher/, /test/].map((re) => (re.test(t) ? 1 : 0));
}

/** A real OpenAI-compatible /v1/embeddings endpoint on 127.0.0.1; `down` makes it answer 503. */
async function embeddingServer(): Promise<{
  baseUrl: string;
  calls: string[][];
  down: boolean;
  close(): Promise<void>;
}> {
  const state = { calls: [] as string[][], down: false };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string[] };
      state.calls.push(body.input);
      if (state.down || req.url !== '/v1/embeddings') {
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"down"}');
        return;
      }
      const data = body.input.map((text, index) => ({ index, embedding: embed(text) }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push(server);
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

const open: Server[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

describe('recall with the configured providers (issue 14: the editors recall like the CLI)', () => {
  const NOTES = {
    ...note('reference', 'automobile', '# Automobile\n\nThe automobile is parked outside.', 'memory'),
    ...note('fix', 'lock-timeout', '# Lock timeout\n\nWait and retry when the lock is held.', 'memory'),
  };

  it('embeds the notes through providers.embeddings.* and finds a note by meaning, not words', async () => {
    const server = await embeddingServer();
    const s = await startWithPlugin(NOTES, {
      before: (v) =>
        v.writeConfig({
          'providers.embeddings.base_url': server.baseUrl,
          'providers.embeddings.model': 'test-embed',
        }),
    });
    // The first recall answers by words at once; the vectors are computed in the background meanwhile.
    expect(await s.plugin.services!.recall('lock held')).toEqual([
      expect.objectContaining({ path: 'memory/fix/lock-timeout.md' }),
    ]);
    // `vehicle`: no note holds it and the thesaurus does not link it to automobile (it does car).
    const hits = await until(async () => {
      const found = await s.plugin.services!.recall('vehicle');
      if (found.length === 0) throw new Error('not embedded yet');
      return found;
    }, 'the notes embedded');
    expect(hits.map((h) => h.path)).toEqual(['memory/reference/automobile.md']);
    expect(server.calls.flat()).toContain('vehicle'); // the query was embedded too
    unloadPlugin(s.plugin);
  });

  it('falls back to lexical recall when the endpoint fails', async () => {
    const server = await embeddingServer();
    server.down = true;
    const s = await startWithPlugin(NOTES, {
      before: (v) =>
        v.writeConfig({
          'providers.embeddings.base_url': server.baseUrl,
          'providers.embeddings.model': 'test-embed',
        }),
    });
    expect((await s.plugin.services!.recall('lock held')).map((h) => h.path)).toEqual(['memory/fix/lock-timeout.md']);
    await until(() => expect(server.calls.length).toBeGreaterThan(0), 'a call to the endpoint'); // it was tried
    const warned = () => shownNotices().filter((n) => n.includes('recall is lexical until it answers again'));
    // The next answer tells of the failure, once; the ones after it do not again.
    await until(async () => {
      expect(await s.plugin.services!.recall('vehicle')).toEqual([]); // no meaning without embeddings
      expect(warned()).toHaveLength(1);
    }, 'the one warning');
    expect(await s.plugin.services!.recall('vehicle')).toEqual([]);
    expect(await s.plugin.services!.recall('lock held')).toHaveLength(1);
    expect(warned()).toHaveLength(1);
    unloadPlugin(s.plugin);
  });
});
