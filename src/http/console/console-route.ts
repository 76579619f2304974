/**
 * `GET /_console` and `GET /_console/:file`: public in the endpoint permission table, since the
 * files hold no data; the console signs in by sending its key to the API like any client.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../common/index.js';
import { loadConsoleFiles, type ConsoleFile } from './console-files.js';

export const CONSOLE_PATH = '/_console/';

/** The bundle sits beside the compiled sources: `dist/console` for `dist/src/http/console`. */
const BUILT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../console');

/**
 * The page may load only its own files and talk only to its own origin; it is never framed
 * (no clickjacking of the delete buttons) and sends no referrer. Inline styles: the chart library
 * sizes its elements with style attributes.
 */
const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
    "font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

export function registerConsoleRoutes(app: FastifyInstance, dir = BUILT_DIR): void {
  const files = loadConsoleFiles(dir);

  app.get('/_console', async (request, reply) => {
    // relative asset links need the trailing slash (the router ignores it when matching)
    if (!request.url.split('?')[0]!.endsWith('/')) return reply.redirect(CONSOLE_PATH, 301);
    return send(request, reply, files.get('index.html'), 'index.html');
  });
  app.get<{ Params: { file: string } }>('/_console/:file', async (request, reply) =>
    send(request, reply, files.get(request.params.file), request.params.file),
  );
}

function send(request: FastifyRequest, reply: FastifyReply, file: ConsoleFile | undefined, name: string): FastifyReply {
  if (file === undefined) {
    const hint = name === 'index.html' ? ': the console was not built (npm run build)' : '';
    throw new NotFoundError(`no console file [${name}]${hint}`);
  }
  void reply.headers(SECURITY_HEADERS).header('Cache-Control', 'no-cache').header('ETag', file.etag);
  if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
  return reply.type(file.contentType).send(file.body);
}
