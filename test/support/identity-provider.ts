/**
 * A real OpenID Connect identity provider on a loopback port, as far as the service sees one:
 * it serves a discovery document and its published keys over HTTP, and signs tokens with its
 * private key. The discovery document can be made to name another issuer, to test pinning.
 */
import http from 'node:http';
import * as jose from 'jose';

type SigningKey = Awaited<ReturnType<typeof jose.generateKeyPair>>['privateKey'];

export interface TokenOptions {
  subject?: string;
  audience?: string;
  issuer?: string;
  /** epoch seconds */
  expiresAt?: number;
  roles?: string[];
  /** sign with a key the provider does not publish */
  foreignKey?: boolean;
}

export interface IdentityProvider {
  /** the issuer URL, `http://127.0.0.1:<port>` */
  issuer: string;
  /** requests served so far, by path */
  requests: string[];
  /** what the discovery document names as its issuer (default: the real one) */
  setDocumentIssuer(issuer: string | undefined): void;
  token(audience: string, opts?: TokenOptions): Promise<string>;
  close(): Promise<void>;
}

export async function startIdentityProvider(): Promise<IdentityProvider> {
  const { publicKey, privateKey } = await jose.generateKeyPair('RS256', { extractable: true });
  const foreign = (await jose.generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'idp-key-1', alg: 'RS256', use: 'sig' };
  const requests: string[] = [];
  let documentIssuer: string | undefined;
  let issuer = '';
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/.well-known/openid-configuration') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ issuer: documentIssuer ?? issuer, jwks_uri: `${issuer}/keys`, id_token_signing_alg_values_supported: ['RS256'] }));
    } else if (req.url === '/keys') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  issuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    issuer,
    requests,
    setDocumentIssuer: (value) => {
      documentIssuer = value;
    },
    token(audience, opts = {}) {
      const key: SigningKey = opts.foreignKey === true ? foreign : privateKey;
      return new jose.SignJWT({ roles: opts.roles ?? [] })
        .setProtectedHeader({ alg: 'RS256', kid: 'idp-key-1' })
        .setSubject(opts.subject ?? 'alice')
        .setAudience(opts.audience ?? audience)
        .setIssuer(opts.issuer ?? issuer)
        .setIssuedAt()
        .setExpirationTime(opts.expiresAt ?? Math.floor(Date.now() / 1000) + 300)
        .sign(key);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
