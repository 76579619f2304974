/**
 * The `svcctl rbac` commands, each a short sequence of /v1 calls: create-admin (the `admin`
 * role and a key for it, saved to a 0600 file), create-role-mapping, and create-read /
 * create-write (a role limited to reading or writing some index patterns, and its key).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CliError, EXIT_CONFLICT, EXIT_FAILURE } from './cli-error.js';
import { HttpStatusError, type RbacClient } from './client.js';

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

interface Role {
  id: number;
  name: string;
  database: string[];
  indexes: Array<{ names: string[]; permissions: string[] }>;
}

interface CreatedKey {
  id: number;
  name: string;
  role: string;
  api_key: string;
  created_at?: string;
}

interface RoleMapping {
  id: number;
  name: string;
  roles: string[];
  created_at: string;
}

export const ADMIN_ROLE: Omit<Role, 'id'> = {
  name: 'admin',
  database: ['manage_security', 'monitor'],
  indexes: [{ names: ['*'], permissions: ['read', 'write', 'delete'] }],
};

export interface CreateAdminOptions {
  prefix: string;
  dir: string;
  /** name of the api key (default `admin`) */
  keyName: string;
  /** base URL, recorded in the key file */
  url: string;
  now?: () => Date;
}

export async function createAdmin(client: RbacClient, io: Io, opts: CreateAdminOptions): Promise<void> {
  await ensureRole(client, io, ADMIN_ROLE);
  const key = await client.request<CreatedKey>('POST', '/v1/api_keys', { name: opts.keyName, role: ADMIN_ROLE.name });
  // the key is shown only once by the service: print it before anything else can fail
  io.out(key.api_key);
  const file = writeKeyFile(opts.dir, opts.prefix, (opts.now ?? (() => new Date()))(), { ...key, url: opts.url });
  io.err(`created role [admin] and api key [${key.name}] (id ${key.id}); the key is saved in ${file} (mode 0600)`);
  io.err('the bootstrap key no longer works: remove SVC_BOOTSTRAP_KEY from the service environment');
}

export async function createRoleMapping(client: RbacClient, io: Io, externalRole: string, role: string): Promise<void> {
  const mapping = await client.request<RoleMapping>('POST', '/v1/role_mappings', { name: externalRole, roles: [role] });
  io.out(JSON.stringify({ id: mapping.id, name: mapping.name, roles: mapping.roles, created_at: mapping.created_at }, null, 2));
}

export async function createScopedKey(client: RbacClient, io: Io, permission: 'read' | 'write', name: string, patterns: string[]): Promise<void> {
  await client.request<Role>('POST', '/v1/roles', { name, database: [], indexes: [{ names: patterns, permissions: [permission] }] });
  const key = await client.request<CreatedKey>('POST', '/v1/api_keys', { name, role: name });
  io.out(key.api_key);
  io.err(`created role [${name}] (${permission} on ${patterns.join(', ')}) and its api key (id ${key.id})`);
}

/** Creates the role, or accepts an existing one with exactly the same grants (a rerun). */
async function ensureRole(client: RbacClient, io: Io, role: Omit<Role, 'id'>): Promise<void> {
  try {
    await client.request<Role>('POST', '/v1/roles', role);
    return;
  } catch (err) {
    if (!(err instanceof HttpStatusError) || err.status !== 409) throw err;
  }
  const existing = (await client.request<Role[]>('GET', '/v1/roles')).find((r) => r.name === role.name);
  if (existing === undefined) throw new CliError(`role [${role.name}] exists but is not listed`, EXIT_FAILURE);
  if (!sameGrants(existing, role)) {
    throw new CliError(`role [${role.name}] already exists with other permissions; leaving it alone`, EXIT_CONFLICT);
  }
  io.err(`role [${role.name}] already exists with the same permissions; using it`);
}

function sameGrants(a: Omit<Role, 'id'>, b: Omit<Role, 'id'>): boolean {
  const norm = (r: Omit<Role, 'id'>) =>
    JSON.stringify({
      database: [...r.database].sort(),
      indexes: r.indexes.map((g) => ({ names: [...g.names].sort(), permissions: [...g.permissions].sort() })),
    });
  return norm(a) === norm(b);
}

/** `<prefix>.<YYYYMMDDTHHMMSSZ>.json`, created 0600 and never overwriting a file. */
function writeKeyFile(dir: string, prefix: string, now: Date, record: CreatedKey & { url: string }): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const body = `${JSON.stringify(record, null, 2)}\n`;
  for (let n = 0; ; n++) {
    const file = path.resolve(dir, `${prefix}.${stamp}${n === 0 ? '' : `-${n}`}.json`);
    try {
      fs.writeFileSync(file, body, { mode: 0o600, flag: 'wx' });
      // writeFileSync's mode is filtered by the umask; make sure no one else can read the key
      fs.chmodSync(file, 0o600);
      return file;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && n < 100) continue;
      throw new CliError(`could not write the key file ${file}: ${(err as Error).message}; the key printed above is the only copy`, EXIT_FAILURE);
    }
  }
}
