// Authentication across surfaces: key formats, key types, revocation, expiry, closed accounts.
import { generateApiKey, sha256Hex } from '../src/auth/keyFormat';
import { prisma } from '../src/platform/db';
import { call, useTestDatabase, expectError } from './support/app';
import { createApiKey, createLegacyKey, createUser } from './support/factories';

useTestDatabase();

const AFFILIATE_ROUTE = '/affiliate/channels';
const PARTNER_ROUTE = '/api/partner/organizations';

test('a legacy v1 affiliate key opens the affiliate surface', async () => {
  const { apiKey } = await createLegacyKey();
  expect(apiKey).toHaveLength(32);
  expect((await call(AFFILIATE_ROUTE, { key: apiKey })).status).toBe(200);
});

test('a legacy v1 key never opens the partner surface, even if stored as a partner key', async () => {
  const owner = await createUser('PARTNER');
  const apiKey = 'LegacyPartnerKey0000000000000001';
  await prisma.apiKey.create({
    data: {
      name: 'legacy partner',
      type: 'partner',
      version: 'v1',
      secretHash: sha256Hex(apiKey),
      scopes: ['organizations:read'],
      ownerId: owner.id,
    },
  });
  expect((await call(PARTNER_ROUTE, { key: apiKey })).status).toBe(401);
});

test('keys of the wrong type answer 401 on either surface', async () => {
  const affiliate = await createApiKey('affiliate');
  const partner = await createApiKey('partner');
  expect((await call(PARTNER_ROUTE, { key: affiliate.apiKey })).status).toBe(401);
  expect((await call(AFFILIATE_ROUTE, { key: partner.apiKey })).status).toBe(401);
});

test('a v2 key with one character changed answers 401', async () => {
  const { apiKey } = await createApiKey('affiliate');
  const last = apiKey.at(-1) === 'a' ? 'b' : 'a';
  expect((await call(AFFILIATE_ROUTE, { key: apiKey.slice(0, -1) + last })).status).toBe(401);
});

test('a well-formed key with a valid checksum but an unknown prefix answers 401', async () => {
  expect((await call(AFFILIATE_ROUTE, { key: generateApiKey('test').apiKey })).status).toBe(401);
});

test('revoked and expired keys answer 401 on the affiliate surface', async () => {
  const revoked = await createApiKey('affiliate', { revokedAt: new Date() });
  const expired = await createApiKey('affiliate', { expiresAt: new Date(Date.now() - 1) });
  for (const { apiKey } of [revoked, expired]) {
    const { status, body } = await call(AFFILIATE_ROUTE, { key: apiKey });
    expectError({ status, body }, 'UNAUTHORIZED');
  }
});

test('the key of a closed affiliate account answers 404 "Affiliate not found"', async () => {
  const { apiKey, row } = await createApiKey('affiliate');
  await prisma.user.update({ where: { id: row.ownerId }, data: { deletedAt: new Date() } });
  const { status, body } = await call(AFFILIATE_ROUTE, { key: apiKey });
  expect(status).toBe(404);
  expect(body).toMatchObject({
    code: 'NOT_FOUND',
    message: 'Affiliate not found',
    statusCode: 404,
  });
});

test('the partner key of a closed account answers 401, on REST and GraphQL', async () => {
  const { apiKey, row } = await createApiKey('partner');
  await prisma.user.update({ where: { id: row.ownerId }, data: { deletedAt: new Date() } });
  const rest = await call(PARTNER_ROUTE, { key: apiKey });
  expect(rest.status).toBe(401);
  expect(rest.body.code).toBe('UNAUTHORIZED');
  const graphqlAnswer = await call('/graphql', {
    key: apiKey,
    body: { query: '{ partnerOrganizations { meta { total } } }' },
  });
  expect(graphqlAnswer.body.errors[0].extensions.code).toBe('UNAUTHORIZED');
});

test('the affiliate surface accepts x-api-token alongside the key (only the partner surface refuses it)', async () => {
  const { apiKey } = await createApiKey('affiliate');
  const { status } = await call(AFFILIATE_ROUTE, { key: apiKey, headers: { 'x-api-token': 'x' } });
  expect(status).toBe(200);
});
