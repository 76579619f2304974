/**
 * Test support: a real node with access control on, an administrator key and two keys (alice,
 * bob) of one reader role, for tests of what belongs to the actor that made it.
 */
import assert from 'node:assert/strict';
import { request, startTestNode, type TestNode } from './node.js';

export interface ReadersNode {
  node: TestNode;
  keys: { admin: string; alice: string; bob: string };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** Starts the node; alice and bob may read the indexes `readable` names (patterns allowed). */
export async function startNodeWithTwoReaders(bootstrap: string, readable: string[]): Promise<ReadersNode> {
  const node = await startTestNode({ SVC_RBAC: '1', SVC_BOOTSTRAP_KEY: bootstrap });
  const adminRole = { name: 'admin', database: ['manage_security', 'monitor'], indexes: [{ names: ['*'], permissions: ['read', 'write', 'delete'] }] };
  assert.equal((await request(`${node.url}/v1/roles`, { body: adminRole, headers: bearer(bootstrap) })).status, 200);
  const admin = (await request<{ api_key: string }>(`${node.url}/v1/api_keys`, { body: { name: 'admin', role: 'admin' }, headers: bearer(bootstrap) })).body.api_key;
  const reader = { name: 'reader', database: [], indexes: [{ names: readable, permissions: ['read'] }] };
  assert.equal((await request(`${node.url}/v1/roles`, { body: reader, headers: bearer(admin) })).status, 200);
  const key = async (name: string) => (await request<{ api_key: string }>(`${node.url}/v1/api_keys`, { body: { name, role: 'reader' }, headers: bearer(admin) })).body.api_key;
  return { node, keys: { admin, alice: await key('alice'), bob: await key('bob') } };
}
