import { createServer, connect, type Server, type Socket } from 'node:net';

/** A TCP proxy on 127.0.0.1 in front of a store (PostgreSQL, Redis) that can cut every connection on cue. */
export interface TcpFaultProxy {
  port: number;
  /** Drops every open connection and refuses new ones until `restore`. */
  cut: () => void;
  restore: () => void;
  /** Chunks the instances have written to the store so far: about one per round trip (a pipelined batch is one). */
  writes: () => number;
  close: () => Promise<void>;
}

export async function startTcpFaultProxy(target: { host: string; port: number }): Promise<TcpFaultProxy> {
  let cut = false;
  let writes = 0;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (cut) return void client.destroy();
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', () => void (writes += 1));
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    cut: () => {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    restore: () => {
      cut = false;
    },
    writes: () => writes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
