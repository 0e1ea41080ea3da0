// The document's security schemes: one per key type, both the `x-api-key` header, so that each
// operation names the key its surface takes and the reference page holds a key for each surface.
import type { KeyType } from '../../auth/scopes';
import type { Json } from './json';

export const SECURITY_SCHEMES: Readonly<Record<KeyType, string>> = {
  affiliate: 'affiliateKey',
  partner: 'partnerKey',
};

export function securitySchemes(): Record<string, Json> {
  return {
    [SECURITY_SCHEMES.affiliate]: {
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
      description:
        'An affiliate API key, for `/affiliate/*`: `svc_{env}_{prefix}_{secret}` (v2) or a legacy 32-character v1 key.',
    },
    [SECURITY_SCHEMES.partner]: {
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
      description: 'A partner API key, for `/api/partner/*`: `svc_{env}_{prefix}_{secret}`.',
    },
  };
}
