import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES } from './helpers/processes.js';

const servers = new Set<Server>();
afterEach(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  servers.clear();
});

/** A server on 127.0.0.1 whose every answer is a valid embeddings/chat JSON body of about `bytes` bytes. */
async function hugeAnswerServer(bytes: number): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const head = req.url?.endsWith('/embeddings')
        ? '{"data":[{"index":0,"embedding":[0.5'
        : '{"choices":[{"message":{"role":"assistant","content":"';
      const tail = req.url?.endsWith('/embeddings') ? ']}]}' : '"}}]}';
      const unit = req.url?.endsWith('/embeddings') ? ',0.123456789'.repeat(10_000) : 'x'.repeat(120_000);
      res.write(head);
      let sent = head.length;
      const pump = () => {
        while (sent < bytes) {
          sent += unit.length;
          if (!res.write(unit)) return void res.once('drain', pump);
        }
        res.end(tail);
      };
      res.on('error', () => undefined);
      pump();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.add(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

interface Probe {
  readonly ok: boolean;
  readonly name?: string;
  readonly message?: string;
  readonly maxRss: number;
}

function probe(kind: 'embeddings' | 'chat', baseUrl: string, env: NodeJS.ProcessEnv = {}): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${FIXTURES}provider-rss.mjs`, kind, baseUrl], {
      env: { PATH: process.env['PATH'], ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as Probe);
      } catch {
        reject(new Error(`no result from the probe: ${out}\n${err}`));
      }
    });
  });
}

const MB = 1024 * 1024;

describe('provider answers are bounded', { timeout: 60_000 }, () => {
  it('an 80 MB embeddings answer is cut off at the cap: typed error naming the cap, RSS near the baseline', async () => {
    const small = await probe('embeddings', await hugeAnswerServer(1_000));
    expect(small.ok, small.message).toBe(true);
    const huge = await probe('embeddings', await hugeAnswerServer(80 * MB));
    expect(huge.ok).toBe(false);
    expect(huge.name).toBe('ProviderResponseTooLargeError');
    expect(huge.message).toMatch(/larger than 32 MiB/);
    expect(huge.message).toContain('AGENTM_PROVIDER_MAX_RESPONSE_BYTES');
    const grew = (huge.maxRss - small.maxRss) / MB;
    // Buffering 80 MB and parsing it cost ~1 GB; reading up to the 32 MiB cap costs a fraction of that.
    expect(grew, `peak RSS grew by ${grew.toFixed(0)} MB over the baseline`).toBeLessThan(150);
  });

  it('the cap is configurable (AGENTM_PROVIDER_MAX_RESPONSE_BYTES) and applies to chat answers too', async () => {
    const url = await hugeAnswerServer(3 * MB);
    expect((await probe('chat', url)).ok).toBe(true);
    const capped = await probe('chat', url, { AGENTM_PROVIDER_MAX_RESPONSE_BYTES: String(MB) });
    expect(capped).toMatchObject({ ok: false, name: 'ProviderResponseTooLargeError' });
    expect(capped.message).toMatch(/larger than 1 MiB \(AGENTM_PROVIDER_MAX_RESPONSE_BYTES=1048576\)/);
  });
});
