/**
 * The access control screen's tabs: those the key was seen to reach. A key that reaches none
 * (the screen opened by its address) gets the API keys tab, which shows the service's 403.
 */
import { useState } from 'preact/hooks';
import type { Api, Capabilities } from '../api/index.js';
import { ApiKeys } from './api-keys.js';
import { Roles } from './roles.js';
import { RoleMappings } from './role-mappings.js';
import { Organisation } from './organisation.js';

type Tab = 'keys' | 'roles' | 'mappings' | 'org';

export function Access({ client, caps }: { client: Api; caps: Capabilities }) {
  const tabs: Array<[Tab, string]> = [];
  if (caps.security || !caps.org) tabs.push(['keys', 'API keys']);
  if (caps.security) tabs.push(['roles', 'Roles'], ['mappings', 'Role mappings']);
  if (caps.org) tabs.push(['org', 'Organisation']);
  const [tab, setTab] = useState<Tab>(tabs[0]![0]);
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
      {tab === 'keys' && <ApiKeys client={client} />}
      {tab === 'roles' && <Roles client={client} />}
      {tab === 'mappings' && <RoleMappings client={client} />}
      {tab === 'org' && <Organisation client={client} />}
    </section>
  );
}
