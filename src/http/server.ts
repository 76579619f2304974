/**
 * The HTTP server: fastify with every body taken as a raw Buffer (gunzipped when
 * `Content-Encoding: gzip`), the Elasticsearch product header on every response, errors
 * rendered in one place, and the route modules registered on top.
 */
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from '../observability/index.js';
import { esErrorBody, renderError } from './error-render.js';
import type { InFlightBytes } from './in-flight-bytes.js';
import type { RealMemoryBreaker } from '../common/index.js';

export interface ServerOptions {
  logger: Logger;
  /** largest accepted request body after decompression, in bytes */
  maxBodyBytes: number;
  /** answers requests no route takes; default 400 "no handler found", as Elasticsearch */
  notFound?: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  /** request bodies and answers held at once (SVC_IN_FLIGHT_REQUESTS_BYTES); not counted when absent */
  inFlight?: InFlightBytes;
  /** refuses requests with a body while resident memory is above SVC_MEMORY_LIMIT_BYTES */
  memory?: RealMemoryBreaker;
}

export function createServer(opts: ServerOptions): FastifyInstance {
  const app = Fastify({
    // pino's Logger is a FastifyBaseLogger; the cast keeps the app's type the default one
    loggerInstance: opts.logger as FastifyBaseLogger,
    // one log line per bulk request would drown the logs; errors are logged by the error handler
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: opts.maxBodyBytes,
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    // Elasticsearch clients send index lists that may be long
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 4096 },
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: opts.maxBodyBytes }, (_req, body, done) => done(null, body));

  const memory = opts.memory;
  if (memory) {
    app.addHook('onRequest', async (request) => {
      if (request.headers['content-length'] !== undefined ? Number(request.headers['content-length']) > 0 : request.headers['transfer-encoding'] !== undefined) memory.check();
    });
  }

  const inFlight = opts.inFlight;
  if (inFlight) {
    app.addHook('onRequest', async (request, reply) => {
      // an inflated body is counted as it comes out of the inflater, not by its declared size
      inFlight.admit(reply, Number(request.headers['content-length'] ?? 0) || 0, request.headers['content-encoding'] === undefined);
    });
  }

  app.addHook('preParsing', async (request, reply, payload) => {
    const encoding = String(request.headers['content-encoding'] ?? '').toLowerCase();
    const inflate = encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : null;
    // what is held is the inflated body
    if (!inflate) return inFlight ? (inFlight.countBody(reply, payload) as typeof payload) : payload;
    delete request.headers['content-length'];
    // a body that is not what it says it is fails inflating; when the request was answered
    // without reading it (415 for an empty content type, say), nobody else listens any more and
    // the error must not become an uncaught exception. pipeline also destroys both on an error
    inflate.on('error', () => undefined);
    pipeline(payload, inflate, () => undefined);
    return inFlight ? (inFlight.countBody(reply, inflate) as typeof payload) : inflate;
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('X-Elastic-Product', 'Elasticsearch');
    inFlight?.countAnswer(reply, payload);
    return payload;
  });

  app.setErrorHandler((err, request, reply) => {
    const { status, body, internal } = renderError(err);
    if (internal) request.log.error({ err, url: request.url, method: request.method }, 'request failed');
    void reply.code(status).type('application/json; charset=UTF-8').send(body);
  });

  if (opts.notFound !== undefined) app.setNotFoundHandler(opts.notFound);
  else app.setNotFoundHandler((request, reply) => noHandler(request, reply));
  return app;
}

/** 400 "no handler found", as Elasticsearch answers a request no route takes. */
export function noHandler(request: FastifyRequest, reply: FastifyReply): void {
  const reason = `no handler found for uri [${request.url}] and method [${request.method}]`;
  void reply.code(400).send(esErrorBody('illegal_argument_exception', reason, 400));
}
