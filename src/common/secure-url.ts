/**
 * Whether a URL may carry trust (an identity provider's issuer or key set): https, or plain
 * http on a loopback host only, for a provider running beside the service.
 */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function isSecureOrLoopbackUrl(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}
