/**
 * A test node with the official Elasticsearch client pointed at it, for the enclosing `describe`:
 * started before its tests, client and node closed after them.
 */
import { after, before } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { startTestNode, type TestNode } from './node.js';

export interface EsClientNode {
  readonly node: TestNode;
  readonly client: Client;
}

export function esClientNode(env: Record<string, string> = {}): EsClientNode {
  let node: TestNode | undefined;
  let client: Client | undefined;
  before(async () => {
    node = await startTestNode(env);
    client = new Client({ node: node.url });
  });
  after(async () => {
    await client?.close();
    await node?.destroy();
  });
  return {
    get node() {
      if (node === undefined) throw new Error('the test node starts in before()');
      return node;
    },
    get client() {
      if (client === undefined) throw new Error('the client starts in before()');
      return client;
    },
  };
}
