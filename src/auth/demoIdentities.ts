// The demo's fixed users and API keys: the README, GraphiQL's example tabs and the tests name them.
// They open a fresh development instance and nothing else (demo data never reaches production).
import { keyChecksum } from './keyFormat';

export const DEMO_USERS = {
  affiliate: '11111111-1111-4111-8111-111111111111',
  secondAffiliate: '33333333-3333-4333-8333-333333333333',
  partner: '22222222-2222-4222-8222-222222222222',
} as const;

/** A v2 test key from fixed parts; its checksum covers everything before it (parseApiKey). */
function demoV2Key(prefix: string, secretBody: string): string {
  const unchecked = `svc_test_${prefix}_${secretBody}`;
  return unchecked + keyChecksum(unchecked);
}

/** Raw keys, full scopes of their type. */
export const DEMO_KEYS = {
  legacyAffiliate: 'demoLegacyAffiliateKey0000000001',
  affiliate: demoV2Key('demoaff1', 'DemoAffiliateSecret0000001'),
  partner: demoV2Key('demoprt1', 'DemoPartnerSecret000000001'),
};
