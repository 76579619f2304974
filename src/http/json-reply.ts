/**
 * Sends JSON text built by hand (hot paths splice stored `_source` texts in without re-parsing),
 * as a string or as its UTF-8 bytes.
 */
import type { FastifyReply } from 'fastify';

export function sendJsonText(reply: FastifyReply, text: string | Buffer, status = 200): FastifyReply {
  return reply.code(status).type('application/json; charset=UTF-8').send(text);
}
