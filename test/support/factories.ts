// Rows for tests, created on the real client with sensible defaults; each call makes new rows.
import { randomUUID } from 'node:crypto';
import { generateApiKey, sha256Hex } from '../../src/auth/keyFormat';
import { SCOPES_BY_KEY_TYPE, type KeyType } from '../../src/auth/scopes';
import { prisma } from '../../src/db';
import type { Prisma } from '../../src/generated/prisma/client';

let sequence = 0;
const next = () => (sequence += 1);

export async function createUser(role: 'AFFILIATE' | 'PARTNER' = 'AFFILIATE') {
  const n = next();
  return prisma.user.create({ data: { email: `user${n}@test.example`, name: `User ${n}`, role } });
}

export interface KeyOptions {
  scopes?: string[];
  expiresAt?: Date;
  revokedAt?: Date;
  ownerId?: string;
}

/** A v2 key of the given type; returns the raw key and its row. */
export async function createApiKey(type: KeyType, options: KeyOptions = {}) {
  const ownerId =
    options.ownerId ?? (await createUser(type === 'partner' ? 'PARTNER' : 'AFFILIATE')).id;
  const { apiKey, prefix, secret } = generateApiKey('test');
  const row = await prisma.apiKey.create({
    data: {
      name: `key ${next()}`,
      type,
      version: 'v2',
      env: 'test',
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

/** A legacy 32-character v1 affiliate key. */
export async function createLegacyKey(ownerId?: string) {
  const apiKey = randomUUID().replace(/-/g, '');
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

export const VISIBLE = {
  onboardingStatus: 'COMPLETED',
  approvalStatus: 'APPROVED',
  isActive: true,
  isVisible: true,
} as const;

export async function createBrand(data: Partial<Prisma.OrganizationCreateInput> = {}) {
  const n = next();
  return prisma.organization.create({
    data: {
      name: `Brand ${String(n).padStart(4, '0')}`,
      slug: `brand-${n}`,
      websiteUrl: `https://brand-${n}.example`,
      categories: [],
      ...VISIBLE,
      ...data,
    },
  });
}

const DAY = 24 * 60 * 60 * 1000;

/** A running Url offer of `organizationId`; `client` is a transaction's where the test needs one. */
export async function createCampaign(
  organizationId: string,
  data: Partial<Prisma.CampaignUncheckedCreateInput> = {},
  client: Prisma.TransactionClient = prisma,
) {
  const n = next();
  const now = Date.now();
  return client.campaign.create({
    data: {
      organizationId,
      name: `Campaign ${n}`,
      type: 'Offer',
      offerType: 'Url',
      url: `https://shop.example/c/${n}`,
      categories: [],
      startAt: new Date(now - 10 * DAY),
      endAt: new Date(now + 10 * DAY),
      ...data,
    },
  });
}

export const days = (count: number) => new Date(Date.now() + count * DAY);
