/**
 * The HTTP server: fastify with every body taken as a raw Buffer (gunzipped when
 * `Content-Encoding: gzip`), the Elasticsearch product header on every response, errors
 * rendered in one place, and the route modules registered on top.
 */
import zlib from 'node:zlib';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from '../observability/index.js';
import { esErrorBody, renderError } from './error-render.js';

export interface ServerOptions {
  logger: Logger;
  /** largest accepted request body after decompression, in bytes */
  maxBodyBytes: number;
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

  app.addHook('preParsing', async (request, _reply, payload) => {
    const encoding = String(request.headers['content-encoding'] ?? '').toLowerCase();
    if (encoding === 'gzip' || encoding === 'x-gzip') {
      delete request.headers['content-length'];
      return payload.pipe(zlib.createGunzip());
    }
    if (encoding === 'deflate') {
      delete request.headers['content-length'];
      return payload.pipe(zlib.createInflate());
    }
    return payload;
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('X-Elastic-Product', 'Elasticsearch');
    return payload;
  });

  app.setErrorHandler((err, request, reply) => {
    const { status, body, internal } = renderError(err);
    if (internal) request.log.error({ err, url: request.url, method: request.method }, 'request failed');
    void reply.code(status).type('application/json; charset=UTF-8').send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    const reason = `no handler found for uri [${request.url}] and method [${request.method}]`;
    void reply.code(400).send(esErrorBody('illegal_argument_exception', reason, 400));
  });

  return app;
}
