/**
 * Which process accepted each TCP connection to a port (Linux): the kernel's connection table
 * (`/proc/net/tcp`, `/proc/net/tcp6`) names the socket inode of each accepted connection, and
 * `/proc/PID/fd` says which process holds that socket. This is how the tests see that processes
 * sharing a port each answered some requests, without the server saying who it is.
 *
 * @example
 * ```ts
 * import { connectionOwners } from "./socket_owners.ts";
 * const conn = await Deno.connect({ port: 8000 });
 * // … one request answered on `conn` …
 * const owners = connectionOwners(8000, [1234, 1235]);
 * console.log(owners.get(conn.localAddr.port)); // 1234 or 1235
 * ```
 * @module
 */

/** Server-side sockets of connections to `serverPort`: inode → the client's port. */
function acceptedSockets(serverPort: number): Map<string, number> {
  const sockets = new Map<string, number>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = Deno.readTextFileSync(table);
    } catch {
      continue;
    }
    for (const row of text.split("\n").slice(1)) {
      const fields = row.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const localPort = parseInt(fields[1].split(":")[1], 16);
      const remotePort = parseInt(fields[2].split(":")[1], 16);
      if (localPort === serverPort && fields[9] !== "0") sockets.set(fields[9], remotePort);
    }
  }
  return sockets;
}

/**
 * For each open connection to `serverPort` held by one of `pids`: the client's port → the pid
 * that holds the server's end. A connection that no process in `pids` holds is left out.
 */
export function connectionOwners(serverPort: number, pids: number[]): Map<number, number> {
  const sockets = acceptedSockets(serverPort);
  const owners = new Map<number, number>();
  for (const pid of pids) {
    for (const entry of Deno.readDirSync(`/proc/${pid}/fd`)) {
      let target: string;
      try {
        target = Deno.readLinkSync(`/proc/${pid}/fd/${entry.name}`);
      } catch {
        continue; // closed meanwhile
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      const clientPort = inode === undefined ? undefined : sockets.get(inode);
      if (clientPort !== undefined) owners.set(clientPort, pid);
    }
  }
  return owners;
}

/** Whether process `pid` still runs (exists and is not a zombie). */
export function processRuns(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}
