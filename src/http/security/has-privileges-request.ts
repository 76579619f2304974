/**
 * The body of `_security/user/_has_privileges`, checked as Elasticsearch checks it: `cluster`,
 * `index` (`names` a string or a list, `privileges`, `allow_restricted_indices`) and
 * `application` (`application`, `privileges`, `resources`). Wrong shapes are `parse_exception`;
 * asking for nothing is `action_request_validation_exception`; both are 400.
 */
import type { PrivilegeQuestion } from '../../auth/index.js';
import { BadRequestError } from '../../common/index.js';

function parseError(reason: string): BadRequestError {
  return new BadRequestError(reason, 'parse_exception');
}

function objectOf(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw parseError(`${what} must be an object`);
  return value as Record<string, unknown>;
}

function arrayOf(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw parseError(`${what} must be an array`);
  return value;
}

function strings(value: unknown, what: string, single = false): string[] {
  if (single && typeof value === 'string') return [value];
  const list = arrayOf(value, what);
  for (const item of list) {
    if (typeof item !== 'string') throw parseError(`${what} must hold strings only, found [${JSON.stringify(item)}]`);
  }
  return list as string[];
}

function onlyFields(entry: Record<string, unknown>, allowed: readonly string[], what: string): void {
  for (const key of Object.keys(entry)) {
    if (!allowed.includes(key)) throw parseError(`failed to parse ${what}. unexpected field [${key}]`);
  }
}

export function parseHasPrivileges(body: Record<string, unknown> | undefined, username: string): PrivilegeQuestion {
  const source = body ?? {};
  const what = `privileges check [${username}]`;
  onlyFields(source, ['cluster', 'index', 'application'], what);
  const problems: string[] = [];

  const cluster = source.cluster === undefined ? [] : strings(source.cluster, '[cluster]');
  const index = (source.index === undefined ? [] : arrayOf(source.index, '[index]')).map((raw, i) => {
    const entry = objectOf(raw, `[index][${i}]`);
    onlyFields(entry, ['names', 'privileges', 'allow_restricted_indices'], `[index][${i}] of ${what}`);
    if (entry.allow_restricted_indices !== undefined && typeof entry.allow_restricted_indices !== 'boolean') {
      throw parseError(`[index][${i}].allow_restricted_indices must be a boolean`);
    }
    const names = entry.names === undefined ? [] : strings(entry.names, `[index][${i}].names`, true);
    const privileges = entry.privileges === undefined ? [] : strings(entry.privileges, `[index][${i}].privileges`);
    if (names.length === 0) problems.push('indices privileges must refer to at least one index name');
    if (privileges.length === 0) problems.push('indices privileges must define at least one privilege');
    return { names, privileges };
  });
  const application = (source.application === undefined ? [] : arrayOf(source.application, '[application]')).map((raw, i) => {
    const entry = objectOf(raw, `[application][${i}]`);
    onlyFields(entry, ['application', 'privileges', 'resources'], `[application][${i}] of ${what}`);
    if (typeof entry.application !== 'string' || entry.application === '') throw parseError(`[application][${i}].application must be a non-empty string`);
    const resources = entry.resources === undefined ? [] : strings(entry.resources, `[application][${i}].resources`);
    const privileges = entry.privileges === undefined ? [] : strings(entry.privileges, `[application][${i}].privileges`);
    if (resources.length === 0) problems.push('application privileges must refer to at least one resource');
    if (privileges.length === 0) problems.push('application privileges must define at least one privilege');
    return { application: entry.application, resources, privileges };
  });

  if (cluster.length === 0 && index.length === 0 && application.length === 0) problems.push('must specify at least one privilege');
  if (problems.length > 0) {
    throw new BadRequestError(`Validation Failed: ${problems.map((p, i) => `${i + 1}: ${p};`).join('')}`, 'action_request_validation_exception');
  }
  return { cluster, index, application };
}
