/**
 * Bodies of GET requests. Elasticsearch reads a JSON body on `GET /_search` (curl and console
 * users send one), but fastify parses bodies only for methods that usually have one; the
 * search routes read a GET body from the socket themselves.
 */
import type { FastifyRequest } from 'fastify';
import { BadRequestError, PayloadTooLargeError } from '../../common/index.js';

function announcesBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The request body: the parsed one when fastify read it, otherwise the raw GET body (or undefined). */
export async function bodyOf(request: FastifyRequest, maxBytes: number): Promise<unknown> {
  if (request.body !== undefined && request.body !== null) return request.body;
  if (request.method !== 'GET' || !announcesBody(request)) return request.body;
  const encoding = String(request.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') {
    // the server's decompression hook is not run for GET bodies
    throw new BadRequestError(`a compressed (${encoding}) body must be sent with POST`, 'parse_exception');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buf.length;
    if (size > maxBytes) throw new PayloadTooLargeError('request body is larger than the allowed maximum (SVC_MAX_BULK_BYTES)');
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}
