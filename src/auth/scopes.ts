// The contract's scope table: which scopes exist for each key type.
const KEY_TYPES = ['affiliate', 'partner'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

export const SCOPES_BY_KEY_TYPE = {
  affiliate: [
    'brands:read',
    'campaigns:read',
    'channels:read',
    'orders:read',
    'products:read',
    'shortener:read',
    'shortener:write',
    'reports:read',
    'payouts:read',
  ],
  partner: ['organizations:read', 'brands:read', 'campaigns:read'],
} as const satisfies Record<KeyType, readonly string[]>;

export type AffiliateScope = (typeof SCOPES_BY_KEY_TYPE.affiliate)[number];
export type PartnerScope = (typeof SCOPES_BY_KEY_TYPE.partner)[number];
export type ApiScope = AffiliateScope | PartnerScope;

/** "an affiliate key", "a partner key": for messages. */
export const keyTypeInWords = (type: KeyType) => `${type === 'affiliate' ? 'an' : 'a'} ${type} key`;

export function isScopeOf(type: KeyType, scope: string): scope is ApiScope {
  return (SCOPES_BY_KEY_TYPE[type] as readonly string[]).includes(scope);
}
