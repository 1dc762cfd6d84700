/** Counting the sockets a process holds, from `/proc` (Linux). */

/** Socket descriptors the process `pid` holds (listening and connected). */
export function processSockets(pid: number): number {
  let count = 0;
  for (const entry of Deno.readDirSync(`/proc/${pid}/fd`)) {
    try {
      if (Deno.readLinkSync(`/proc/${pid}/fd/${entry.name}`).startsWith("socket:")) count++;
    } catch {
      // closed meanwhile
    }
  }
  return count;
}
