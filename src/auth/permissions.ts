/**
 * The permission vocabulary: index-level actions granted on index-name patterns, and
 * database-level actions that act on the whole service. Roles are plain values of these types.
 */

export const INDEX_ACTIONS = ['read', 'write', 'delete'] as const;
export type IndexAction = (typeof INDEX_ACTIONS)[number];

export const DATABASE_ACTIONS = ['manage_security', 'monitor'] as const;
export type DatabaseAction = (typeof DATABASE_ACTIONS)[number];

export interface IndexGrant {
  /** index-name patterns: `*` for all, a trailing `*` for a prefix, anything else exact */
  names: string[];
  permissions: IndexAction[];
}

/** What a role allows; the stored role adds an id and its name. */
export interface RoleGrants {
  name: string;
  database: DatabaseAction[];
  indexes: IndexGrant[];
}

export function isIndexAction(value: unknown): value is IndexAction {
  return typeof value === 'string' && (INDEX_ACTIONS as readonly string[]).includes(value);
}

export function isDatabaseAction(value: unknown): value is DatabaseAction {
  return typeof value === 'string' && (DATABASE_ACTIONS as readonly string[]).includes(value);
}
