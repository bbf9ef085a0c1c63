// The soak run's load balancer: a round-robin HTTP proxy on loopback in a process of its own, in
// front of the instances. It retries nothing (a client sees what a user would see: a 502 when
// the instance it was given fails mid-request), takes an instance out while it refuses
// connections, and puts it back once it accepts them again. It sets X-Forwarded-For to the
// client's address, as a load balancer does (the instances run with TRUST_PROXY=1).
//   node scripts/lib/soak/proxy.ts '[{"port":3910,"upstreams":[3901,3902]}]'
import { Agent, createServer, request as forward } from 'node:http';
import { connect } from 'node:net';

export interface ProxyPool {
  /** The port the proxy listens on (127.0.0.1). */
  port: number;
  /** The instances' ports on 127.0.0.1, served in turn. */
  upstreams: number[];
}

const PROBE_MS = 250;

function startPool(pool: ProxyPool): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const up = new Map(pool.upstreams.map((port) => [port, true]));
  let next = 0;
  const probe = (port: number) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      up.set(port, true);
    });
    socket.once('error', () => setTimeout(() => probe(port), PROBE_MS));
  };
  const takeOut = (port: number) => {
    if (!up.get(port)) return;
    up.set(port, false);
    setTimeout(() => probe(port), PROBE_MS);
  };
  const pick = (): number | null => {
    for (let tried = 0; tried < pool.upstreams.length; tried++) {
      const port = pool.upstreams[next++ % pool.upstreams.length]!;
      if (up.get(port)) return port;
    }
    return null;
  };
  const server = createServer((incoming, outgoing) => {
    const port = pick();
    if (port === null) {
      incoming.resume();
      outgoing.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' }).end('no instance answers\n');
      return;
    }
    const headers = { ...incoming.headers, 'x-forwarded-for': incoming.socket.remoteAddress ?? '', 'x-forwarded-proto': 'http' };
    const upstream = forward({ host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers, agent }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
      answer.once('error', () => outgoing.destroy());
    });
    upstream.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') takeOut(port);
      if (outgoing.headersSent) outgoing.destroy();
      else outgoing.writeHead(502, { 'content-type': 'text/plain' }).end('the instance did not answer\n');
    });
    incoming.pipe(upstream);
    // A client that goes away takes its request to the instance with it.
    outgoing.once('close', () => {
      if (!outgoing.writableFinished) upstream.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((done) => server.listen(pool.port, '127.0.0.1', done));
}

if (import.meta.main) {
  const pools = JSON.parse(process.argv[2] ?? '[]') as ProxyPool[];
  await Promise.all(pools.map(startPool));
  process.stdout.write('ready\n');
}
