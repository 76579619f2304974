/**
 * What the signed-in key may see, asked of the service itself: the console shows a screen only
 * when the API behind it answers this key. The service decides; these probes only hide what it
 * would refuse anyway.
 */
import { ApiError, type Api } from './client.js';

export interface Capabilities {
  /** the service answers without a credential: access control is off */
  open: boolean;
  /** `/v1` roles, keys and mappings (manage_security) */
  security: boolean;
  /** the organisation API answers this credential (a member's token) */
  org: boolean;
  /** `GET /` answered: the key may use the data API at all (the bootstrap key may not) */
  data: boolean;
}

async function answers(call: Promise<unknown>): Promise<boolean> {
  try {
    await call;
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status !== 401 && err.status < 500) return false;
    throw err;
  }
}

/** Throws ApiError 401 when the service does not accept the credential. */
export async function probeCapabilities(client: Api, open: boolean): Promise<Capabilities> {
  const data = await answers(client.get('/'));
  const [security, org] = await Promise.all([answers(client.get('/v1/roles')), answers(client.get('/v1/org'))]);
  return { open, security, org, data };
}
