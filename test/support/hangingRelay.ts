// A TCP relay in front of a real Redis that can be made to hang: from `hang()` on it accepts
// connections and reads what they send, and answers nothing. `answer()` hands Redis what it kept
// and the clients Redis's replies, and relays again, as a paused Redis works off its backlog;
// `abandon()` leaves the connections made so far hung for good (a peer gone without a reset) and
// relays new ones.
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

interface Relayed {
  client: Socket;
  redis: Socket;
  /** What the client sent while hung, kept for Redis. */
  held: Buffer[];
  /** What Redis answered while hung, kept for the client. */
  heldReplies: Buffer[];
  /** What the client sent while hung and is not yet read as whole commands (latin1). */
  unread: string;
  /** Hung for good: nothing it sends reaches Redis, nothing reaches it. */
  abandoned: boolean;
}

export interface HangingRelay {
  port: number;
  hang(): void;
  answer(): void;
  abandon(): void;
  /** Connections accepted so far. */
  connections(): number;
  /** The commands (RESP arrays, as words) that reached the relay while hung, in arrival order. */
  heldCommands(): readonly string[][];
  close(): Promise<void>;
}

/**
 * The whole commands at the start of a RESP stream read as latin1 (one character a byte), and how
 * many characters they take: `*2\r\n$3\r\nget\r\n$1\r\nk\r\n` is `[['get', 'k']]`. Bulk strings are
 * read by their length, so values may hold line breaks; an incomplete command is left unread.
 */
export function respCommands(stream: string): { commands: string[][]; read: number } {
  const commands: string[][] = [];
  let read = 0;
  for (;;) {
    let at = read;
    const line = (): string | null => {
      const end = stream.indexOf('\r\n', at);
      if (end < 0) return null;
      const text = stream.slice(at, end);
      at = end + 2;
      return text;
    };
    const header = line();
    if (header === null || !header.startsWith('*')) return { commands, read };
    const words: string[] = [];
    for (let n = Number(header.slice(1)); n > 0; n -= 1) {
      const length = line();
      if (length === null || at + Number(length.slice(1)) + 2 > stream.length) {
        return { commands, read };
      }
      words.push(stream.slice(at, at + Number(length.slice(1))));
      at += Number(length.slice(1)) + 2;
    }
    commands.push(words);
    read = at;
  }
}

export async function startHangingRelay(redisPort: number): Promise<HangingRelay> {
  const relayed = new Set<Relayed>();
  const heldCommands: string[][] = [];
  let accepted = 0;
  let hung = false;

  const server = createServer((client) => {
    accepted += 1;
    const redis = connect(redisPort, '127.0.0.1');
    const link: Relayed = {
      client,
      redis,
      held: [],
      heldReplies: [],
      unread: '',
      abandoned: false,
    };
    relayed.add(link);
    client.on('data', (data) => {
      if (!hung && !link.abandoned) {
        redis.write(data);
        return;
      }
      if (!link.abandoned) link.held.push(data);
      const text = link.unread + data.toString('latin1');
      const { commands, read } = respCommands(text);
      heldCommands.push(...commands);
      link.unread = text.slice(read);
    });
    redis.on('data', (data) => {
      if (link.abandoned) return;
      if (hung) link.heldReplies.push(data);
      else client.write(data);
    });
    const end = () => {
      relayed.delete(link);
      client.destroy();
      redis.destroy();
    };
    client.on('close', end).on('error', end);
    redis.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    port: (server.address() as AddressInfo).port,
    hang() {
      hung = true;
    },
    answer() {
      hung = false;
      for (const link of relayed) {
        if (link.abandoned) continue;
        for (const data of link.heldReplies.splice(0)) link.client.write(data);
        for (const data of link.held.splice(0)) link.redis.write(data);
      }
    },
    abandon() {
      for (const link of relayed) link.abandoned = true;
      hung = false;
    },
    connections: () => accepted,
    heldCommands: () => heldCommands,
    async close() {
      for (const link of relayed) {
        link.client.destroy();
        link.redis.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
