// Users and their API keys.
import { randomUUID } from 'node:crypto';
import { generateApiKey, sha256Hex } from '../../../src/auth/keyFormat';
import { SCOPES_BY_KEY_TYPE, type KeyType } from '../../../src/auth/scopes';
import { prisma } from '../../../src/platform/db';
import { next } from './sequence';

export async function createUser(role: 'AFFILIATE' | 'PARTNER' = 'AFFILIATE') {
  const n = next();
  return prisma.user.create({ data: { email: `user${n}@test.example`, name: `User ${n}`, role } });
}

export interface KeyOptions {
  /** The key's environment; the tests' installations take `test` keys (KEY_ENV), production `live`. */
  env?: 'live' | 'test';
  scopes?: string[];
  expiresAt?: Date;
  revokedAt?: Date;
  ownerId?: string;
}

/** A v2 key of the given type; returns the raw key and its row. */
export async function createApiKey(type: KeyType, options: KeyOptions = {}) {
  const ownerId =
    options.ownerId ?? (await createUser(type === 'partner' ? 'PARTNER' : 'AFFILIATE')).id;
  const env = options.env ?? 'test';
  const { apiKey, prefix, secret } = generateApiKey(env);
  const row = await prisma.apiKey.create({
    data: {
      name: `key ${next()}`,
      type,
      version: 'v2',
      env,
      prefix,
      secretHash: sha256Hex(secret),
      scopes: options.scopes ?? [...SCOPES_BY_KEY_TYPE[type]],
      ownerId,
      expiresAt: options.expiresAt,
      revokedAt: options.revokedAt,
    },
  });
  return { apiKey, row };
}

/** A legacy 32-character v1 affiliate key (a random one unless given). */
export async function createLegacyKey(ownerId?: string, apiKey = randomUUID().replace(/-/g, '')) {
  const owner = ownerId ?? (await createUser('AFFILIATE')).id;
  const row = await prisma.apiKey.create({
    data: {
      name: `legacy ${next()}`,
      type: 'affiliate',
      version: 'v1',
      secretHash: sha256Hex(apiKey),
      scopes: [...SCOPES_BY_KEY_TYPE.affiliate],
      ownerId: owner,
    },
  });
  return { apiKey, row };
}

/** An affiliate user and one v2 affiliate key (all affiliate scopes unless narrowed). */
export async function createAffiliate(scopes?: string[]) {
  const { apiKey, row } = await createApiKey('affiliate', scopes ? { scopes } : {});
  return { affiliateId: row.ownerId, apiKey };
}
