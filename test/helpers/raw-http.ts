import net from 'node:net';

export interface RawReply {
  /** 'answer': a status line arrived; 'close': the server closed without answering; 'hang': neither within the wait. */
  readonly outcome: 'answer' | 'close' | 'hang';
  readonly status: number | null;
  readonly head: string;
  readonly body: string;
  /** The server closed (or reset) the connection, within the wait. */
  readonly closed: boolean;
  /** The server reset the connection (ECONNRESET) rather than closing it cleanly. */
  readonly reset: boolean;
  readonly elapsedMs: number;
}

function parse(buffer: Buffer): {
  status: number | null;
  head: string;
  body: string;
  complete: boolean;
} {
  const text = buffer.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return { status: null, head: text, body: '', complete: false };
  const head = text.slice(0, end);
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? NaN);
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
  const body = text.slice(end + 4);
  return {
    status: Number.isNaN(status) ? null : status,
    head,
    body,
    complete: body.length >= length,
  };
}

/**
 * Sends raw bytes over a fresh TCP connection, `gapMs` apart (several small writes arrive as several
 * reads on the server), and reports what came back within `waitMs`: an answer, a close, or nothing.
 */
export function rawExchange(
  port: number,
  chunks: readonly (string | Buffer)[],
  options: { gapMs?: number; waitMs?: number; afterAnswerMs?: number } = {},
): Promise<RawReply> {
  const { gapMs = 10, waitMs = 1000, afterAnswerMs = 100 } = options;
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    let received = Buffer.alloc(0);
    let closed = false;
    let reset = false;
    let settled = false;
    const finish = (outcome: RawReply['outcome']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const parsed = parse(received);
      socket.destroy();
      resolve({
        outcome: parsed.status === null ? outcome : 'answer',
        status: parsed.status,
        head: parsed.head,
        body: parsed.body,
        closed,
        reset,
        elapsedMs: Date.now() - started,
      });
    };
    const timer = setTimeout(() => finish('hang'), waitMs);
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      if (parse(received).complete) setTimeout(() => finish('answer'), afterAnswerMs);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET') reset = true;
    });
    socket.on('close', () => {
      closed = true;
      finish('close');
    });
    socket.on('connect', () => {
      void (async () => {
        for (const chunk of chunks) {
          if (socket.destroyed) return;
          socket.write(chunk);
          await new Promise((wait) => setTimeout(wait, gapMs));
        }
      })();
    });
  });
}
