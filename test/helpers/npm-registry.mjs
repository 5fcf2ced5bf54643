// A package registry on 127.0.0.1 serving one tarball, as registry.npmjs.org serves a published package:
// the packument at `/<name, / as %2f>` with the version's `dist` (tarball URL, sha512 integrity, sha1
// shasum) and `latest`, the tarball at its URL, a 404 for anything else. npm and npx are real clients of
// it; nothing reaches the network. Used by the tests (npm-registry.ts) and bench/plugin-launcher.mjs.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';

/** Starts the registry; resolves with its URL (ends in `/`), the paths requested, and `close()`. */
export async function startRegistry(tarball, manifest) {
  const bytes = await readFile(tarball);
  const requests = [];
  const file = `/${manifest.name}/-/${manifest.name.split('/').pop()}-${manifest.version}.tgz`;
  const server = createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? '/');
    requests.push(path);
    if (path === `/${manifest.name}`) {
      const dist = {
        tarball: `http://127.0.0.1:${server.address().port}${file}`,
        integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
        shasum: createHash('sha1').update(bytes).digest('hex'),
      };
      const versions = { [manifest.version]: { ...manifest, dist } };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ name: manifest.name, 'dist-tags': { latest: manifest.version }, versions }));
    } else if (path === file) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(bytes);
    } else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"Not found"}');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A registry URL that refuses connections (the port of a server just closed): npm finds no package there. */
export async function refusingRegistry() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/`;
}
