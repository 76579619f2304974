/**
 * The internal routes, called by the cluster's own processes, take the cluster secret
 * (SVC_CLUSTER_SECRET) in the `x-svc-cluster-secret` header instead of a user's credential, so
 * that they work whatever RBAC says. The comparison takes the same time whatever the guess.
 * Without a configured secret, internal routes are as open as the rest of the API only in the
 * one-process deployment without RBAC; otherwise they are refused.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export const CLUSTER_SECRET_HEADER = 'x-svc-cluster-secret';

export interface ClusterSecretPolicy {
  /** the configured secret, if any */
  secret: string | undefined;
  /** one process runs every role and RBAC is off: nothing else could present the secret */
  openWithoutSecret: boolean;
}

export type ClusterSecretDecision = { allowed: true } | { allowed: false; status: 401 | 403; reason: string };

const ALLOWED: ClusterSecretDecision = { allowed: true };

export function checkClusterSecret(policy: ClusterSecretPolicy, presented: string | string[] | undefined): ClusterSecretDecision {
  if (policy.secret === undefined) {
    if (policy.openWithoutSecret) return ALLOWED;
    return { allowed: false, status: 403, reason: 'internal routes are refused: SVC_CLUSTER_SECRET is not configured' };
  }
  if (presented === undefined) return { allowed: false, status: 401, reason: `internal routes require the cluster secret in the [${CLUSTER_SECRET_HEADER}] header` };
  const value = Array.isArray(presented) ? presented[0] ?? '' : presented;
  return secretsEqual(policy.secret, value) ? ALLOWED : { allowed: false, status: 403, reason: 'the cluster secret does not match' };
}

/** Compares digests, so that neither the content nor the length of the secret leaks through timing. */
function secretsEqual(expected: string, given: string): boolean {
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}
