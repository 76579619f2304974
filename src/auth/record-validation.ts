/**
 * Request bodies of the /v1 RBAC API → checked inputs. Unknown fields and wrong types are
 * `parse_exception`; values outside the vocabulary are `action_request_validation_exception`;
 * both are 400.
 */
import { BadRequestError } from '../common/index.js';
import { indexPatternProblem } from './index-pattern.js';
import {
  DATABASE_ACTIONS,
  INDEX_ACTIONS,
  isDatabaseAction,
  isIndexAction,
  type DatabaseAction,
  type IndexAction,
  type IndexGrant,
} from './permissions.js';

export interface RoleInput {
  name: string;
  database: DatabaseAction[];
  indexes: IndexGrant[];
}

export interface ApiKeyInput {
  name: string;
  /** name of the role the key acts with */
  role: string;
}

export interface RoleMappingInput {
  name: string;
  /** service role names */
  roles: string[];
}

const MAX_NAME_LENGTH = 255;

function parseError(reason: string): BadRequestError {
  return new BadRequestError(reason, 'parse_exception');
}

function invalid(reason: string): BadRequestError {
  return new BadRequestError(reason, 'action_request_validation_exception');
}

/**
 * Checks the body has only `fields` (plus, for updates, an `id` equal to the path id and fields
 * that GET returns but a client cannot set), and returns it.
 */
function objectWithFields(
  body: Record<string, unknown> | undefined,
  what: string,
  fields: readonly string[],
  update?: { id: number; ignored?: readonly string[] },
): Record<string, unknown> {
  if (body === undefined) throw parseError(`request body is required for a ${what}`);
  for (const key of Object.keys(body)) {
    if (fields.includes(key)) continue;
    if (update !== undefined && key === 'id') {
      if (body.id !== update.id) throw invalid(`[id] in the body (${JSON.stringify(body.id)}) does not match the ${what} id in the path (${update.id})`);
      continue;
    }
    if (update?.ignored?.includes(key)) continue;
    throw parseError(`unknown field [${key}] in ${what}; allowed fields are [${fields.join(', ')}]`);
  }
  for (const field of fields) {
    if (!(field in body)) throw invalid(`field [${field}] is required for a ${what}`);
  }
  return body;
}

function nameField(value: unknown, field: string, what: string): string {
  if (typeof value !== 'string') throw parseError(`[${field}] of a ${what} must be a string`);
  if (value.trim() === '') throw invalid(`[${field}] of a ${what} must not be empty`);
  if (value !== value.trim()) throw invalid(`[${field}] of a ${what} must not begin or end with whitespace`);
  if (value.length > MAX_NAME_LENGTH) throw invalid(`[${field}] of a ${what} is longer than ${MAX_NAME_LENGTH} characters`);
  if (/[\u0000-\u001f\u007f]/.test(value)) throw invalid(`[${field}] of a ${what} must not contain control characters`);
  return value;
}

function stringArray(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw parseError(`[${field}] must be an array of strings`);
  for (const item of value) {
    if (typeof item !== 'string') throw parseError(`[${field}] must be an array of strings, found ${JSON.stringify(item)}`);
  }
  return value as string[];
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function parseGrant(value: unknown, position: number): IndexGrant {
  const field = `indexes[${position}]`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw parseError(`[${field}] must be an object with [names] and [permissions]`);
  const grant = value as Record<string, unknown>;
  for (const key of Object.keys(grant)) {
    if (key !== 'names' && key !== 'permissions') throw parseError(`unknown field [${key}] in [${field}]; allowed fields are [names, permissions]`);
  }
  if (!('names' in grant)) throw invalid(`field [names] is required in [${field}]`);
  if (!('permissions' in grant)) throw invalid(`field [permissions] is required in [${field}]`);
  const names = stringArray(grant.names, `${field}.names`);
  if (names.length === 0) throw invalid(`[${field}.names] must name at least one index pattern`);
  for (const name of names) {
    const problem = indexPatternProblem(name);
    if (problem !== undefined) throw invalid(`[${field}.names]: ${problem}`);
  }
  const permissions = stringArray(grant.permissions, `${field}.permissions`);
  if (permissions.length === 0) throw invalid(`[${field}.permissions] must hold at least one of [${INDEX_ACTIONS.join(', ')}]`);
  for (const permission of permissions) {
    if (!isIndexAction(permission)) {
      throw invalid(`unknown index permission [${permission}] in [${field}.permissions]; allowed values are [${INDEX_ACTIONS.join(', ')}]`);
    }
  }
  return { names: unique(names), permissions: unique(permissions as IndexAction[]) };
}

export function parseRoleInput(body: Record<string, unknown> | undefined, update?: { id: number }): RoleInput {
  const role = objectWithFields(body, 'role', ['name', 'database', 'indexes'], update);
  const name = nameField(role.name, 'name', 'role');
  const database = stringArray(role.database, 'database');
  for (const action of database) {
    if (!isDatabaseAction(action)) {
      throw invalid(`unknown database action [${action}]; allowed values are [${DATABASE_ACTIONS.join(', ')}]`);
    }
  }
  if (!Array.isArray(role.indexes)) throw parseError('[indexes] must be an array of objects with [names] and [permissions]');
  const indexes = role.indexes.map((grant, i) => parseGrant(grant, i));
  return { name, database: unique(database as DatabaseAction[]), indexes };
}

export function parseApiKeyInput(body: Record<string, unknown> | undefined): ApiKeyInput {
  const key = objectWithFields(body, 'api key', ['name', 'role']);
  return { name: nameField(key.name, 'name', 'api key'), role: nameField(key.role, 'role', 'api key') };
}

export function parseRoleMappingInput(body: Record<string, unknown> | undefined, update?: { id: number }): RoleMappingInput {
  const mapping = objectWithFields(body, 'role mapping', ['name', 'roles'], update && { id: update.id, ignored: ['created_at'] });
  const name = nameField(mapping.name, 'name', 'role mapping');
  const roles = stringArray(mapping.roles, 'roles');
  if (roles.length === 0) throw invalid('[roles] of a role mapping must name at least one role');
  for (const role of roles) nameField(role, 'roles', 'role mapping');
  return { name, roles: unique(roles) };
}

/** Path ids: positive integers written in decimal. */
export function parseRecordId(value: string, what: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(value)) throw new BadRequestError(`${what} id [${value}] is not a positive integer`);
  return Number(value);
}
