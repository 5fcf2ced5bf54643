import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll } from 'vitest';

/** A TCP relay to a server, for tests that cut or freeze a client's connection without touching the server. */
export interface Relay {
  readonly port: number;
  /** Connections relayed so far. */
  readonly opened: number;
  /** Stops forwarding on every open connection, without closing it (a half-open link: nothing arrives, nothing fails). */
  freeze(): void;
  /** Drops every connection and refuses new ones. */
  cut(): void;
}

const servers: Server[] = [];
afterAll(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A relay listening on `host` (a free port) to `target`; new connections are forwarded normally. */
export function tcpRelay(host: string, target: { host: string; port: number }): Promise<Relay> {
  const pairs = new Set<[Socket, Socket]>();
  let opened = 0;
  const server = createServer((inbound) => {
    opened++;
    const outbound = connect(target.port, target.host);
    const pair: [Socket, Socket] = [inbound, outbound];
    pairs.add(pair);
    for (const s of pair) s.on('error', () => undefined);
    inbound.pipe(outbound).pipe(inbound);
    const close = () => {
      pairs.delete(pair);
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('close', close);
    outbound.on('close', close);
  });
  servers.push(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () =>
      resolve({
        port: (server.address() as { port: number }).port,
        get opened() {
          return opened;
        },
        freeze() {
          for (const [inbound, outbound] of pairs) {
            inbound.unpipe(outbound);
            outbound.unpipe(inbound);
            inbound.pause();
            outbound.pause();
          }
        },
        cut() {
          server.close();
          for (const [inbound, outbound] of pairs) {
            inbound.destroy();
            outbound.destroy();
          }
        },
      }),
    );
  });
}
