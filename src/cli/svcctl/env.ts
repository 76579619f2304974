/**
 * The two settings svcctl reads from its environment: SVC_URL (the service's base address,
 * default http://127.0.0.1:9200) and SVC_API_KEY (the credential sent as a bearer token).
 */
import { CliError, EXIT_USAGE } from './cli-error.js';

export const DEFAULT_SVC_URL = 'http://127.0.0.1:9200';

export interface SvcctlEnv {
  /** base URL without a trailing slash */
  url: string;
  apiKey: string | undefined;
}

export function readSvcctlEnv(env: Record<string, string | undefined>): SvcctlEnv {
  const raw = env.SVC_URL?.trim() || DEFAULT_SVC_URL;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new CliError(`SVC_URL [${raw}] is not a URL; expected e.g. ${DEFAULT_SVC_URL}`, EXIT_USAGE);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CliError(`SVC_URL [${raw}] must start with http:// or https://`, EXIT_USAGE);
  }
  const apiKey = env.SVC_API_KEY?.trim() || undefined;
  return { url: raw.replace(/\/+$/, ''), apiKey };
}
