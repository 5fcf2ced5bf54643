import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** A package registry on 127.0.0.1 serving one tarball, as the npm registry serves a published package. */
export interface LocalRegistry {
  /** The registry URL (ends in `/`), for `npm_config_registry`. */
  readonly url: string;
  /** Every path requested, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

const open = new Set<Server>();
afterEach(async () => {
  await Promise.all([...open].map((s) => new Promise((resolve) => s.close(resolve))));
  open.clear();
});

/**
 * Serves `tarball` (an `npm pack` of `manifest`) the way registry.npmjs.org does: the packument at
 * `/<name, / as %2f>` with the version's `dist` (tarball URL, sha512 integrity, sha1 shasum) and `latest`,
 * the tarball at its URL; anything else is a 404. npm and npx are real clients of it; no network is used.
 */
export async function serveTarball(
  tarball: string,
  manifest: { name: string; version: string },
): Promise<LocalRegistry> {
  const bytes = await readFile(tarball);
  const requests: string[] = [];
  const file = `/${manifest.name}/-/${manifest.name.split('/').pop()}-${manifest.version}.tgz`;
  const server = createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? '/');
    requests.push(path);
    if (path === `/${manifest.name}`) {
      const { port } = server.address() as AddressInfo;
      const dist = {
        tarball: `http://127.0.0.1:${port}${file}`,
        integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
        shasum: createHash('sha1').update(bytes).digest('hex'),
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          name: manifest.name,
          'dist-tags': { latest: manifest.version },
          versions: { [manifest.version]: { ...manifest, dist } },
        }),
      );
    } else if (path === file) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(bytes);
    } else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"Not found"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.add(server);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise((resolve) => {
        open.delete(server);
        server.close(() => resolve());
      }),
  };
}

/** A registry URL that refuses connections (the port of a server just closed): npm and npx find no package. */
export async function refusingRegistry(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/`;
}
