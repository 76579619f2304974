/**
 * The access control screen's tabs. They are offered from what the key was seen to reach, but
 * each tab still calls the API: opened by a key that may not, it shows the service's 403.
 */
import { useState } from 'preact/hooks';
import type { Api, Capabilities } from '../api/index.js';
import { ApiKeys } from './api-keys.js';
import { Roles } from './roles.js';
import { RoleMappings } from './role-mappings.js';
import { Organisation } from './organisation.js';

type Tab = 'keys' | 'roles' | 'mappings' | 'org';

export function Access({ client, caps }: { client: Api; caps: Capabilities }) {
  const tabs: Array<[Tab, string]> = [
    ['keys', 'API keys'],
    ['roles', 'Roles'],
    ['mappings', 'Role mappings'],
  ];
  if (caps.org) tabs.push(['org', 'Organisation']);
  const [tab, setTab] = useState<Tab>(!caps.security && caps.org ? 'org' : 'keys');
  return (
    <section>
      <h2>Access control</h2>
      <div class="tabs" role="tablist">
        {tabs.map(([name, label]) => (
          <button key={name} role="tab" aria-selected={tab === name} class={tab === name ? '' : 'outline'} onClick={() => setTab(name)}>
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
