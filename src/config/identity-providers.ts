/**
 * Identity providers recognisable from the audience alone: their tokens carry an audience of a
 * shape no other provider hands out, so the issuer (and through it the published signing keys)
 * is known without a further setting. The issuer is pinned here, never read from a token.
 */

export interface KnownIssuer {
  /** the issuer URL whose OpenID Connect discovery document names the signing keys */
  issuer: string;
  /** every `iss` value the provider writes into its tokens */
  issuers: string[];
}

interface KnownProvider extends KnownIssuer {
  audience: RegExp;
}

const PROVIDERS: readonly KnownProvider[] = [
  // Google OAuth client ids; Google writes `iss` with and without the scheme
  {
    audience: /^[0-9]+-[a-z0-9]+\.apps\.googleusercontent\.com$/,
    issuer: 'https://accounts.google.com',
    issuers: ['https://accounts.google.com', 'accounts.google.com'],
  },
];

export function issuerForAudience(audience: string): KnownIssuer | undefined {
  const provider = PROVIDERS.find((p) => p.audience.test(audience));
  return provider && { issuer: provider.issuer, issuers: provider.issuers };
}
