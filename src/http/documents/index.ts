/** The document APIs: one document by `_id` (index, create, get, update, delete) and `_mget`. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessContext } from '../../auth/index.js';
import type { ApiDeps } from '../deps.js';
import { registerDocumentRoutes } from './document-routes.js';
import { registerMgetRoutes } from './mget-route.js';

export function registerDocumentApis(app: FastifyInstance, deps: ApiDeps, accessOf: (request: FastifyRequest) => AccessContext): void {
  registerDocumentRoutes(app, deps, accessOf);
  registerMgetRoutes(app, deps, accessOf);
}
