/** Who may call the internal routes, from the configuration (see auth/cluster-secret.ts). */
import type { ClusterSecretPolicy } from '../auth/index.js';
import type { Config } from '../config/index.js';

export function clusterSecretPolicy(config: Config): ClusterSecretPolicy {
  return { secret: config.cluster.secret, openWithoutSecret: config.cluster.allRoles && !config.rbac.enabled };
}
