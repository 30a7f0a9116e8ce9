/**
 * Connections opened ahead of the requests that will use them: `submit` opens one per slot once
 * the sheet is read, while the account's orders are asked about (engine/port-in.ts), and
 * dispatch again, for any closed meanwhile, while its first intents are made durable; its first
 * requests then need not each open one, or wait for a handshake, after the fsync
 * (bench/README.md). A connection carries nothing until a request is sent on it, and a request is
 * sent only once its intent is durable (docs/contract.md §4).
 */
import type { Agent } from "node:http";
import { isIP } from "node:net";
import type { Socket } from "node:net";

/** The agent's own `createConnection` (net.createConnection or tls.connect with its session cache). */
type CreateConnection = (options: Record<string, unknown>, callback?: (error: Error | null, socket: Socket) => void) => Socket | undefined;

/**
 * Makes `agent` hand the connections `open(count)` opened to its next new requests to
 * `origin`, before it opens any of its own. Returns `open`: it opens as many as `count`
 * requests at once would need beyond the agent's own connections (a lookup's kept-alive one
 * serves too). Each waits unused at most the agent's idle timeout, then closes; one that
 * fails or closes meanwhile is dropped, and its request opens a connection of its own as
 * if none had been opened. A TLS connection is opened with the agent's own options, which
 * are a request's too (portin passes got no TLS options), so it meets the same checks.
 */
export function openAhead(agent: Agent, origin: URL): (count: number) => void {
  const host = origin.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = Number(origin.port || (origin.protocol === "https:" ? 443 : 80));
  const internals = agent as unknown as { options: Record<string, unknown>; keepAliveMsecs: number; createConnection: CreateConnection };
  const create = internals.createConnection.bind(agent);
  /** Each opened connection not yet taken, with the listeners that drop it if it fails or idles. */
  const opened = new Map<Socket, () => void>();

  internals.createConnection = (options, callback) => {
    if (options["host"] === host && Number(options["port"]) === port) {
      for (const [socket, drop] of opened) {
        opened.delete(socket);
        socket.off("error", drop).off("timeout", drop).off("close", drop);
        if (socket.destroyed) continue;
        // Unreferenced while it waited, so that it kept no finished run alive; in use now.
        return socket.ref();
      }
    }
    return create(options, callback);
  };

  return (count) => {
    const own = [...Object.values(agent.sockets), ...Object.values(agent.freeSockets)].reduce((sum, list) => sum + (list?.length ?? 0), 0);
    for (let i = own + opened.size; i < count; i++) {
      const socket = create({
        ...internals.options,
        host,
        port,
        ...(origin.protocol === "https:" && isIP(host) === 0 ? { servername: host } : {}),
        keepAlive: true,
        keepAliveInitialDelay: internals.keepAliveMsecs,
      });
      if (socket === undefined) return;
      // One that fails, idles past the agent's timeout or is closed is dropped: its request
      // then opens a connection of its own and meets any failure there.
      const drop = (): void => {
        opened.delete(socket);
        socket.destroy();
      };
      socket.on("error", drop).on("timeout", drop).on("close", drop).unref();
      opened.set(socket, drop);
    }
  };
}
