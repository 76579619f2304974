/**
 * The access control screen's tabs: those the key's privileges allow. The /v1 records (API keys,
 * roles, role mappings) for a key with `manage_security` (listing and creating roles and keys for
 * the bootstrap key too); the organisation for a member: users and roles with `read:org`, the
 * data keys with `write:api_key`, billing with `read:billing`.
 */
import { useState } from 'preact/hooks';
import type { Api, Capabilities } from '../api/index.js';
import { ApiKeys } from './api-keys.js';
import { Roles } from './roles.js';
import { RoleMappings } from './role-mappings.js';
import { Organisation } from './organisation.js';
import { OrgApiKeys } from './org-api-keys.js';
import { Billing } from './billing.js';

type Tab = 'keys' | 'roles' | 'mappings' | 'org' | 'org-keys' | 'billing';

export function Access({ client, caps }: { client: Api; caps: Capabilities }) {
  const tabs: Array<[Tab, string]> = [];
  if (caps.security) tabs.push(['keys', 'API keys'], ['roles', 'Roles'], ['mappings', 'Role mappings']);
  if (caps.org.has('read:org')) tabs.push(['org', 'Organisation']);
  if (caps.org.has('write:api_key')) tabs.push(['org-keys', 'Data keys']);
  if (caps.org.has('read:billing')) tabs.push(['billing', 'Billing']);
  const [chosen, setTab] = useState<Tab | undefined>();
  const tab = chosen ?? tabs[0]?.[0];
  return (
    <section>
      <h2>Access control</h2>
      <div class="tabs" role="tablist">
        {tabs.map(([name, label]) => (
          <button key={name} role="tab" data-tab={name} aria-selected={tab === name} class={tab === name ? '' : 'outline'} onClick={() => setTab(name)}>
            {label}
          </button>
        ))}
      </div>
      {tab === 'keys' && <ApiKeys client={client} canRevoke={caps.manageSecurity} />}
      {tab === 'roles' && <Roles client={client} canDelete={caps.manageSecurity} />}
      {tab === 'mappings' && <RoleMappings client={client} canChange={caps.manageSecurity} />}
      {tab === 'org' && <Organisation client={client} canManage={caps.org.has('write:org')} />}
      {tab === 'org-keys' && <OrgApiKeys client={client} />}
      {tab === 'billing' && <Billing client={client} />}
    </section>
  );
}
