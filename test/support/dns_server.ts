/**
 * A small DNS server on loopback for tests (UDP, `node:dgram`), its packets encoded and decoded by
 * the maintained `dns-packet` library: answers TXT questions from a table, NXDOMAIN otherwise,
 * and records every question it receives.
 */
import dgram from "node:dgram";
import { once } from "node:events";
import dnsPacket from "dns-packet";

const NXDOMAIN = 3;

/** A running test DNS server. */
export interface TestDnsServer {
  /** The port it listens on, at 127.0.0.1. */
  port: number;
  /** `TYPE name` of every question received, in order. */
  questions: string[];
  /** Stops it. */
  close(): Promise<void>;
}

/** Starts a server answering `txt[name]` (each record a list of strings) to TXT questions. */
export async function startDnsServer(txt: Record<string, string[][]>): Promise<TestDnsServer> {
  const socket = dgram.createSocket("udp4");
  const questions: string[] = [];
  socket.on("message", (message, remote) => {
    const query = dnsPacket.decode(message);
    const question = query.questions?.[0];
    if (question === undefined) return;
    questions.push(`${question.type} ${question.name}`);
    const records = question.type === "TXT" ? txt[question.name.toLowerCase()] : undefined;
    const response = dnsPacket.encode({
      type: "response",
      id: query.id,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE |
        (records ? 0 : NXDOMAIN),
      questions: [question],
      answers: (records ?? []).map((data) => ({
        type: "TXT" as const,
        name: question.name,
        ttl: 60,
        data,
      })),
    });
    socket.send(response, remote.port, remote.address);
  });
  socket.bind(0, "127.0.0.1");
  await once(socket, "listening");
  return {
    port: socket.address().port,
    questions,
    async close() {
      socket.close();
      await once(socket, "close");
    },
  };
}
