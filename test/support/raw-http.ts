// Requests written byte by byte on a socket, for what fetch will not send: lying Content-Length,
// a body that stops half-way, oversized and repeated headers, invalid UTF-8 in the request line.
import { connect } from 'node:net';

export interface RawAnswer {
  /** The status of the first response line, or 0 when the server closed without answering. */
  status: number;
  /** The response body (after the blank line), as text. */
  text: string;
}

/**
 * Sends `head` (the request line and headers, CRLF-separated, without the blank line) and `body`
 * on a new connection; with `halfClose` the client then ends its side (the body will never come).
 * Answers what came back within `timeoutMs` (status 0 if nothing did).
 */
export function rawRequest(
  base: string,
  head: string,
  body: Buffer | string = '',
  options: { halfClose?: boolean; timeoutMs?: number; waitForEarlyAnswerMs?: number } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(raw)?.[1] ?? 0);
      const split = raw.indexOf('\r\n\r\n');
      let text = split < 0 ? '' : raw.slice(split + 4);
      // A chunked answer: keep the chunks' data only.
      if (/\r\ntransfer-encoding: chunked/i.test(raw.slice(0, split)))
        text = text.replace(/(^|\r\n)[0-9a-f]+\r\n/gi, '').replace(/\r\n$/, '');
      resolve({ status, text: Buffer.from(text, 'latin1').toString('utf8') });
    };
    const timer = setTimeout(finish, options.timeoutMs ?? 10_000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // One answer is all we wait for: stop once a complete Content-Length body is in.
      const raw = Buffer.concat(chunks).toString('latin1');
      const split = raw.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(raw.slice(0, split))?.[1];
      if (split >= 0 && length !== undefined && Buffer.byteLength(raw, 'latin1') - split - 4 >= Number(length))
        finish();
    });
    socket.on('end', finish);
    socket.on('error', finish);
    socket.on('connect', async () => {
      socket.write(`${head}\r\n\r\n`);
      // As a client sending `Expect: 100-continue` would: a server that refuses on the headers
      // alone (a Content-Length over its limit) has answered before the body starts.
      if (options.waitForEarlyAnswerMs !== undefined)
        await new Promise((r) => setTimeout(r, options.waitForEarlyAnswerMs));
      // The body in slices, and no more once the server has answered: a server that refuses early
      // (413) closes, and bytes still arriving at a closed socket make its kernel reset the
      // connection, which can drop the answer before it is read.
      const bytes = typeof body === 'string' ? Buffer.from(body) : body;
      for (let at = 0; at < bytes.length && chunks.length === 0 && !socket.destroyed; at += 64 * 1024) {
        if (!socket.write(bytes.subarray(at, at + 64 * 1024)))
          await new Promise((r) => {
            socket.once('drain', r);
            socket.once('close', r);
          });
      }
      if (options.halfClose === true && !socket.destroyed) socket.end();
    });
  });
}
