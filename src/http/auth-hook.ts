/**
 * Enforcement of access control on every route: an `onRequest` hook finds the route's row in
 * the endpoint → permission table (fail closed when there is none), authenticates, checks the
 * database-level or coarse index-level permission, and attaches the AccessContext that handlers
 * use for index-level checks (`accessOf`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ALLOW_ALL,
  DENY_ALL,
  Authenticator,
  accessForPrincipal,
  authorize,
  createAuditLog,
  createJwtVerifier,
  findEndpointPermission,
  pathOf,
  type AccessContext,
  type AuditLog,
  type CredentialRecords,
  type OrgMemberships,
  type Principal,
  type RequestRef,
  JWT_NOT_CONFIGURED,
  CLUSTER_SECRET_HEADER,
  checkClusterSecret,
  type ClusterSecretPolicy,
} from '../auth/index.js';
import { AuthenticationError, ForbiddenError, ServiceUnavailableError } from '../common/index.js';
import type { JwtConfig, RbacConfig } from '../config/index.js';
import type { Logger } from '../observability/index.js';

export const WWW_AUTHENTICATE = 'Bearer realm="svc"';

export interface AuthDeps {
  rbac: RbacConfig;
  /** the stored roles, keys and mappings; needed only when RBAC is on */
  records?: CredentialRecords;
  /** users' organisation roles */
  org?: OrgMemberships;
  logger: Logger;
  /** who may call the internal routes; when omitted they are refused */
  cluster?: ClusterSecretPolicy;
}

const INTERNAL_ROUTES_CLOSED: ClusterSecretPolicy = { secret: undefined, openWithoutSecret: false };

export interface RouteRef {
  method: string;
  url: string;
}

export interface AuthInstallation {
  audit: AuditLog;
  /** every route registered after installAuth, HEAD routes fastify adds for GETs included */
  registeredRoutes(): RouteRef[];
  /** registered routes that have no row in the permission table (they are always denied) */
  unmappedRoutes(): RouteRef[];
}

const contexts = new WeakMap<FastifyRequest, AccessContext>();
const principals = new WeakMap<FastifyRequest, Principal>();
const installations = new WeakMap<FastifyInstance, AuthInstallation>();

/**
 * The index-level access of the request's actor. Allows everything when RBAC is off or when
 * installAuth was never called (handlers tested on their own).
 */
export function accessOf(request: FastifyRequest): AccessContext {
  return contexts.get(request) ?? ALLOW_ALL;
}

/** Who made the request, once authenticated; undefined when RBAC is off. */
export function principalOf(request: FastifyRequest): Principal | undefined {
  return principals.get(request);
}

/**
 * Routes of `app` registered after installAuth that have no row in the permission table, for
 * tests of a fully built server; undefined when installAuth was not called on `app`.
 */
export function unmappedRoutesOf(app: FastifyInstance): RouteRef[] | undefined {
  return installations.get(app)?.unmappedRoutes();
}

/** Call before registering any route: the route list is collected from here on. */
export function installAuth(app: FastifyInstance, deps: AuthDeps): AuthInstallation {
  const audit = createAuditLog(deps.logger);
  const routes: RouteRef[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.push({ method: String(method).toUpperCase(), url: route.url });
  });
  const installation: AuthInstallation = {
    audit,
    registeredRoutes: () => [...routes],
    unmappedRoutes: () => routes.filter((r) => findEndpointPermission(r.method, r.url) === undefined),
  };
  installations.set(app, installation);

  // internal routes first: they take the cluster secret and no user credential
  const clusterPolicy = deps.cluster ?? INTERNAL_ROUTES_CLOSED;
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url;
    const row = route === undefined ? undefined : findEndpointPermission(request.method, route);
    if (row?.requirement.kind !== 'cluster_secret') return;
    const decision = checkClusterSecret(clusterPolicy, request.headers[CLUSTER_SECRET_HEADER]);
    if (decision.allowed) return;
    audit.credentialRejected({ method: request.method, path: pathOf(request.url), ip: request.ip }, decision.reason);
    if (decision.status === 401) throw new AuthenticationError(decision.reason);
    throw new ForbiddenError(decision.reason);
  });

  if (!deps.rbac.enabled) {
    app.addHook('onRequest', async (request) => {
      contexts.set(request, ALLOW_ALL);
    });
    return installation;
  }

  if (deps.records === undefined) throw new Error('installAuth: RBAC is on but no records store was given');
  logJwtKeySource(deps.logger, deps.rbac.jwt);
  const authenticator = new Authenticator({
    bootstrapKey: deps.rbac.bootstrapKey,
    jwt: deps.rbac.jwt === undefined ? undefined : createJwtVerifier(deps.rbac.jwt),
    records: deps.records,
    org: deps.org,
  });

  app.addHook('onRequest', async (request, reply) => {
    contexts.set(request, DENY_ALL);
    const ref: RequestRef = { method: request.method, path: pathOf(request.url), ip: request.ip };
    const route = request.routeOptions.url;
    const row = route === undefined ? undefined : findEndpointPermission(request.method, route);
    if (row?.requirement.kind === 'public' || row?.requirement.kind === 'cluster_secret') return;

    const outcome = await authenticator.authenticate(request.headers.authorization);
    if (!outcome.ok) {
      audit.credentialRejected(ref, outcome.reason);
      if (outcome.status === 503) throw new ServiceUnavailableError(outcome.reason);
      void reply.header('WWW-Authenticate', WWW_AUTHENTICATE);
      throw new AuthenticationError(outcome.reason);
    }
    const principal = outcome.principal;
    principals.set(request, principal);

    // no route: the not-found handler answers, but only to an authenticated caller
    if (route === undefined) {
      contexts.set(request, accessForPrincipal(principal));
      return;
    }
    if (row === undefined) {
      const reason = `no permission is defined for [${request.method} ${route}], so it is denied`;
      request.log.error({ method: request.method, route }, 'route missing from the endpoint permission table');
      audit.permissionDenied(ref, principal.label, reason);
      throw new ForbiddenError(reason);
    }
    const decision = authorize(principal, row.requirement);
    if (!decision.allowed) {
      audit.permissionDenied(ref, principal.label, decision.reason);
      throw new ForbiddenError(decision.reason);
    }
    contexts.set(request, accessForPrincipal(principal));
  });
  return installation;
}

/**
 * One line at start-up on how users' tokens will be checked, so that an operator whose tokens
 * are refused finds the setting to add without reading a request log.
 */
function logJwtKeySource(logger: Logger, jwt: JwtConfig | undefined): void {
  if (jwt === undefined) {
    logger.info(`JWTs are refused: ${JWT_NOT_CONFIGURED}`);
    return;
  }
  const source = jwt.keySource;
  if (source.kind === 'none') {
    logger.warn({ audience: jwt.audience }, `JWTs are refused: ${source.hint}`);
    return;
  }
  const where = source.kind === 'oidc_discovery' ? { issuer: source.issuer, pinnedBy: source.pinnedBy } : {};
  logger.info({ audience: jwt.audience, keySource: source.kind, ...where }, 'JWTs are verified');
}
