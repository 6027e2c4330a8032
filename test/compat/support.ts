// Raw requests as third-party clients of the hosted service send them: their own headers, their
// own bodies (text, so an empty body stays empty), no help from the test client's defaults.
import type { FastifyInstance } from 'fastify';
import { BASE, replyOf, type Reply } from '../support/app.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Wire {
  method: Method;
  url: string;
  headers: Record<string, string>;
  /** The body exactly as sent; undefined sends none. */
  body?: string;
}

export async function send(app: FastifyInstance, request: Wire): Promise<Reply> {
  const response = await app.inject({
    method: request.method,
    url: `${BASE}${request.url}`,
    headers: request.headers,
    ...(request.body === undefined ? {} : { payload: request.body }),
  });
  return replyOf(response);
}

/**
 * A reply with the values that differ between two otherwise identical requests (generated ids,
 * serial numbers, times) replaced by their kind, so a tolerated request and its strict twin can
 * be compared whole.
 */
export function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        if (typeof item === 'string' && /Id$/.test(key) && /^[a-z]+_/.test(item)) return [key, '<id>'];
        if (key === 'serialNumber' || key === 'nextSerial' || key === 'time') return [key, '<varies>'];
        return [key, shape(item)];
      }),
    );
  }
  return value;
}
