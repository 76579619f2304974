/**
 * Credential → principal. The bootstrap key is compared first (in constant time); a value with
 * the API key shape is looked up by its lookup id and checked against the stored hash; a value
 * with two dots is tried as a JWT. Nothing is cached: a revoked key or a changed role counts
 * from the next request on.
 */
import { apiKeyLookupId, apiKeyMatches, looksLikeApiKey, secretsEqual } from './api-key.js';
import { credentialFromHeader } from './credentials.js';
import { JwtKeySourceError, JwtRejectedError, type JwtVerifier } from './jwt-verifier.js';
import type { OrgMembership, OrgRole } from './org/index.js';
import type { RoleGrants } from './permissions.js';
import { apiKeyPrincipal, bootstrapPrincipal, userPrincipal, type Principal } from './principal.js';

/** A stored key whose lookup id matched, with the grants of its role. */
export interface ApiKeyCandidate {
  id: number;
  keyHash: string;
  role: RoleGrants | undefined;
}

/** What authentication needs from the stored records. */
export interface CredentialRecords {
  apiKeyCandidates(lookupId: string): Promise<ApiKeyCandidate[]>;
  /** true once an API key holding manage_security exists (or ever existed) */
  bootstrapRetired(): Promise<boolean>;
  /** the service roles that these provider role names map to, through role mappings */
  rolesForProviderRoles(providerRoles: string[]): Promise<RoleGrants[]>;
}

/** Why tokens are refused when SVC_JWT_AUDIENCE is not set, naming the setting to add. */
export const JWT_NOT_CONFIGURED =
  'tokens from an identity provider are not accepted: set SVC_JWT_AUDIENCE (and SVC_JWT_ISSUER or SVC_JWT_JWKS_URL) to accept them';

export type AuthOutcome =
  | { ok: true; principal: Principal }
  /** `reason` goes to the caller and the audit log; it never contains the credential */
  | { ok: false; status: 401 | 503; reason: string };

/** Users' organisation roles (RBAC on: the organisation API is part of it). */
export interface OrgMemberships {
  membership(subject: string): Promise<OrgMembership | undefined>;
}

export interface AuthenticatorOptions {
  bootstrapKey?: string;
  jwt?: JwtVerifier;
  records: CredentialRecords;
  org?: OrgMemberships;
}

export class Authenticator {
  constructor(private readonly opts: AuthenticatorOptions) {}

  async authenticate(authorization: string | string[] | undefined): Promise<AuthOutcome> {
    const presented = credentialFromHeader(authorization);
    if (presented.kind === 'none') return { ok: false, status: 401, reason: 'missing authentication credentials' };
    if (presented.kind === 'unsupported') return { ok: false, status: 401, reason: presented.reason };
    const credential = presented.value;

    const bootstrapKey = this.opts.bootstrapKey;
    if (bootstrapKey !== undefined && bootstrapKey !== '' && secretsEqual(credential, bootstrapKey)) {
      return { ok: true, principal: bootstrapPrincipal(await this.opts.records.bootstrapRetired()) };
    }
    if (looksLikeApiKey(credential)) return this.apiKey(credential);
    if (isJwtShaped(credential)) return this.jwt(credential);
    return { ok: false, status: 401, reason: 'unable to authenticate with the provided credentials' };
  }

  private async apiKey(value: string): Promise<AuthOutcome> {
    const candidates = await this.opts.records.apiKeyCandidates(apiKeyLookupId(value));
    // every candidate is compared, so the time taken does not depend on which one matched
    let match: ApiKeyCandidate | undefined;
    for (const candidate of candidates) {
      if (apiKeyMatches(value, candidate.keyHash) && match === undefined) match = candidate;
    }
    if (match === undefined) return { ok: false, status: 401, reason: 'unable to authenticate with the provided api key' };
    return { ok: true, principal: apiKeyPrincipal(match.id, match.role === undefined ? [] : [match.role]) };
  }

  private async jwt(token: string): Promise<AuthOutcome> {
    if (this.opts.jwt === undefined) {
      return { ok: false, status: 401, reason: `unable to authenticate: ${JWT_NOT_CONFIGURED}` };
    }
    try {
      const identity = await this.opts.jwt.verify(token);
      const roles = await this.opts.records.rolesForProviderRoles(identity.providerRoles);
      const membership = await this.opts.org?.membership(identity.subject);
      if (membership !== undefined) roles.push(searchGrants(membership.role));
      return { ok: true, principal: userPrincipal(identity.subject, roles, membership) };
    } catch (err) {
      if (err instanceof JwtRejectedError) return { ok: false, status: 401, reason: `unable to authenticate: ${err.message}` };
      if (err instanceof JwtKeySourceError) return { ok: false, status: 503, reason: `unable to authenticate: ${err.message}` };
      throw err;
    }
  }
}

/** Every organisation role may view data in search, on the indexes its patterns name. */
function searchGrants(role: OrgRole): RoleGrants {
  return { name: `org:${role.name}`, database: [], indexes: [{ names: role.indexes, permissions: ['read'] }] };
}

function isJwtShaped(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 3 && parts[0] !== '' && parts[1] !== '';
}
