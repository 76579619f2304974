/** `_security/user/_has_privileges`: which of the privileges asked the key holds. */
import type { Api } from './client.js';

export interface PrivilegeQuestion {
  cluster?: string[];
  index?: Array<{ names: string[]; privileges: string[] }>;
  application?: Array<{ application: string; resources: string[]; privileges: string[] }>;
}

export interface PrivilegeAnswer {
  has_all_requested: boolean;
  cluster: Record<string, boolean>;
  index: Record<string, Record<string, boolean>>;
  application: Record<string, Record<string, Record<string, boolean>>>;
}

export function askPrivileges(client: Api, question: PrivilegeQuestion): Promise<PrivilegeAnswer> {
  return client.post<PrivilegeAnswer>('/_security/user/_has_privileges', question);
}

/** The indexes of `names` on which the key holds `privilege`. */
export async function indexesWith(client: Api, names: string[], privilege: string): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const answer = await askPrivileges(client, { index: [{ names, privileges: [privilege] }] });
  return new Set(names.filter((name) => answer.index[name]?.[privilege] === true));
}
