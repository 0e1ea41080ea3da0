// Dashboard tokens: signed for this service, naming a user, expiring within the configured
// lifetime of their issue, not issued in the future; issuer and audience when configured.
import { SignJWT } from 'jose';
import { verifyDashboardToken, type TokenRules } from '../../src/auth/dashboardToken';
import { config } from '../../src/platform/config';

const USER = '11111111-1111-4111-8111-111111111111';
const NOW = 1_800_000_000;
const RULES: TokenRules = { maxLifetimeS: 86_400 };
const secret = new TextEncoder().encode(config.dashboardJwtSecret);

function token(claims: Record<string, unknown>, key = secret) {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(key);
}

const verify = async (claims: Record<string, unknown>, rules = RULES) =>
  verifyDashboardToken(await token(claims), rules, NOW);

test('a token naming its user, issued now, expiring within the lifetime opens', async () => {
  expect(await verify({ sub: USER, iat: NOW, exp: NOW + 3600 })).toEqual({ userId: USER });
});

test.each([
  ['no exp', { sub: USER, iat: NOW }, 'its exp claim is missing or wrong'],
  ['no sub', { iat: NOW, exp: NOW + 60 }, 'its sub claim is missing or wrong'],
  [
    'exp in the year 9999',
    { sub: USER, iat: NOW, exp: 253_402_300_799 },
    'it lives longer than 86400 s (exp)',
  ],
  [
    'a day and a second',
    { sub: USER, iat: NOW, exp: NOW + 86_401 },
    'it lives longer than 86400 s (exp)',
  ],
  ['no iat, far exp', { sub: USER, exp: NOW + 86_401 }, 'it lives longer than 86400 s (exp)'],
  [
    'iat in the future',
    { sub: USER, iat: NOW + 3600, exp: NOW + 7200 },
    'it was issued in the future (iat)',
  ],
])('refused: %s', async (_case, claims, reason) => {
  expect(await verify(claims)).toEqual({ refused: 'invalid', reason });
});

test('an expired token is told apart from garbage and from an absent one', async () => {
  expect(await verify({ sub: USER, iat: NOW - 7200, exp: NOW - 3600 })).toEqual({
    refused: 'expired',
    reason: 'it has expired',
  });
  expect(await verifyDashboardToken('not-a-jwt', RULES, NOW)).toEqual({
    refused: 'invalid',
    reason: 'it is not a token signed for this service',
  });
  const forged = await token(
    { sub: USER, iat: NOW, exp: NOW + 60 },
    new TextEncoder().encode('another-secret-another-secret-another'),
  );
  expect(await verifyDashboardToken(forged, RULES, NOW)).toMatchObject({ refused: 'invalid' });
  expect(await verifyDashboardToken(null, RULES, NOW)).toMatchObject({ refused: 'absent' });
});

test('issuer and audience are checked when configured', async () => {
  const rules = { ...RULES, issuer: 'https://dashboard.example', audience: 'affiliate-api' };
  const claims = { sub: USER, iat: NOW, exp: NOW + 60 };
  expect(
    await verify({ ...claims, iss: 'https://dashboard.example', aud: 'affiliate-api' }, rules),
  ).toEqual({
    userId: USER,
  });
  expect(
    await verify({ ...claims, iss: 'https://elsewhere.example', aud: 'affiliate-api' }, rules),
  ).toEqual({
    refused: 'invalid',
    reason: 'its iss claim is missing or wrong',
  });
  expect(await verify({ ...claims, iss: 'https://dashboard.example' }, rules)).toEqual({
    refused: 'invalid',
    reason: 'its aud claim is missing or wrong',
  });
});
