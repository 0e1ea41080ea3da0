// The small affiliates, every account's brand relations, channels and channel enrollments, and
// one API key for a small affiliate. The demo affiliate (account 0) already exists (demo seed):
// at scale it gains 3,000 brand relations, 6 more channels and their enrollments.
import { keyChecksum, parseApiKey, sha256Hex } from '../../../src/auth/keyFormat';
import { SCOPES_BY_KEY_TYPE } from '../../../src/auth/scopes';
import {
  affiliateIdOf,
  channelCountOf,
  channelIdOf,
  KEY_ACCOUNT,
  relationBrandOf,
  relationCountOf,
  relationKeyOf,
  SIZES,
} from './plan';
import {
  brandCommissionTypeOf,
  brandCommissionValueOf,
  brandCreatedAtOf,
  brandIdOf,
  isFixedFeeBrand,
} from './brands';
import type { Step } from './batches';
import {
  BATCH_ORDINALS,
  chance,
  counted,
  daysBefore,
  fraction,
  idOf,
  itemOf,
  pick,
  text,
  type Sql,
} from './sql';
import { CHANNEL_TYPE_NAMES, FIRST_NAMES, LAST_NAMES } from './vocabulary';

export function usersStep(anchor: Sql): Step {
  return {
    name: 'affiliates',
    tables: ['User'],
    units: SIZES.accounts,
    batchSize: SIZES.accounts,
    after: [],
    sql: counted(
      'User',
      `INSERT INTO "User" ("id", "email", "name", "role", "createdAt")
      SELECT ${idOf('affiliate', 'a')}, 'affiliate' || lpad(a::text, 4, '0') || '@scale.example',
        ${itemOf(FIRST_NAMES, 'a % 40')} || ' ' || ${itemOf(LAST_NAMES, 'a / 40 % 40')}, 'AFFILIATE',
        ${daysBefore(anchor, `60 + ${fraction('a', 'affiliate:age')} * 1400`)}
      FROM ${BATCH_ORDINALS} AS a
      WHERE a > 0
      ON CONFLICT ("id") DO NOTHING`,
    ),
  };
}

/** The negotiated commission: the brand's default plus a bonus of 0..4 steps. */
export function relationCommissionValueOf(account: Sql, relation: Sql, b: Sql): Sql {
  const steps = pick(relationKeyOf(account, relation), 'relation:bonus', 5);
  return `(${brandCommissionValueOf(b)} + ${steps} * CASE WHEN ${isFixedFeeBrand(b)} THEN 100 ELSE 50 END)`;
}

/** Every relation (a, r) of the accounts [$1, $2), with its brand b. */
const RELATIONS = `${BATCH_ORDINALS} AS a
  CROSS JOIN LATERAL generate_series(0, ${relationCountOf('a')} - 1) AS r
  CROSS JOIN LATERAL (SELECT ${relationBrandOf('a', 'r')} AS b) AS relation`;

export function relationsStep(anchor: Sql): Step {
  const key = relationKeyOf('a', 'r');
  return {
    name: 'brand relations',
    tables: ['AffiliateBrand'],
    units: SIZES.accounts,
    batchSize: 250,
    after: ['brands', 'affiliates'],
    sql: counted(
      'AffiliateBrand',
      `INSERT INTO "AffiliateBrand" ("affiliateId", "organizationId", "commissionType",
        "commissionValue", "isFavorite", "createdAt")
      SELECT ${affiliateIdOf('a')}, ${brandIdOf('b')}, ${brandCommissionTypeOf('b')},
        ${relationCommissionValueOf('a', 'r', 'b')}, ${chance(key, 'relation:favorite', 5)},
        GREATEST(${brandCreatedAtOf(anchor, 'b')}, ${daysBefore(anchor, `1 + ${fraction(key, 'relation:age')} * 700`)})
      FROM ${RELATIONS}
      ON CONFLICT ("affiliateId", "organizationId") DO NOTHING`,
    ),
  };
}

/** Channel c of account a has the type (a + c) mod 6: the demo affiliate gets one of each. */
export function channelsStep(anchor: Sql): Step {
  const key = `(a * 8 + c)`;
  return {
    name: 'channels',
    tables: ['Channel'],
    units: SIZES.accounts,
    batchSize: SIZES.accounts,
    after: ['affiliates'],
    sql: counted(
      'Channel',
      `INSERT INTO "Channel" ("id", "userId", "typeId", "active", "createdAt")
      SELECT ${channelIdOf('a', 'c')}, ${affiliateIdOf('a')}, channel_type."id",
        NOT ${chance(key, 'channel:inactive', 10)},
        ${daysBefore(anchor, `30 + ${fraction(key, 'channel:age')} * 900`)}
      FROM ${BATCH_ORDINALS} AS a
      CROSS JOIN LATERAL generate_series(0, ${channelCountOf('a')} - 1) AS c
      JOIN "ChannelType" AS channel_type
        ON channel_type."name" = ${itemOf(CHANNEL_TYPE_NAMES, `(a + c) % ${CHANNEL_TYPE_NAMES.length}`)}
      ON CONFLICT ("id") DO NOTHING`,
    ),
  };
}

/** Each of an account's channels is enrolled in 30 % of its brands. */
export function enrollmentsStep(anchor: Sql): Step {
  const key = `(${relationKeyOf('a', 'r')} * 8 + c)`;
  return {
    name: 'channel enrollments',
    tables: ['BrandChannelEnrollment'],
    units: SIZES.accounts,
    batchSize: 250,
    after: ['brands', 'channels'],
    sql: counted(
      'BrandChannelEnrollment',
      `INSERT INTO "BrandChannelEnrollment" ("organizationId", "channelId", "createdAt")
      SELECT ${brandIdOf('b')}, ${channelIdOf('a', 'c')},
        ${daysBefore(anchor, `1 + ${fraction(key, 'enrollment:age')} * 600`)}
      FROM ${RELATIONS}
      CROSS JOIN LATERAL generate_series(0, ${channelCountOf('a')} - 1) AS c
      WHERE ${chance(key, 'enrollment', 30)}
      ON CONFLICT ("organizationId", "channelId") DO NOTHING`,
    ),
  };
}

/** A v2 test key with a fixed secret, for a small affiliate (parseApiKey checks its checksum). */
function fixedV2Key(prefix: string, secretBody: string): string {
  const unchecked = `svc_test_${prefix}_${secretBody}`;
  return unchecked + keyChecksum(unchecked);
}

export const SMALL_AFFILIATE_KEY = fixedV2Key('scaleaf1', 'ScaleAffiliateSecret000001');

export function apiKeyStep(anchor: Sql): Step {
  const parsed = parseApiKey(SMALL_AFFILIATE_KEY);
  if (parsed?.version !== 'v2')
    throw new Error('scale seed: the small affiliate key does not parse');
  const scopes = SCOPES_BY_KEY_TYPE.affiliate.map(text).join(', ');
  return {
    name: 'api key',
    tables: ['ApiKey'],
    units: 1,
    batchSize: 1,
    after: ['affiliates'],
    sql: counted(
      'ApiKey',
      `INSERT INTO "ApiKey" ("id", "name", "type", "version", "env", "prefix", "secretHash",
        "scopes", "ownerId", "createdAt")
      SELECT ${idOf('api-key', String(KEY_ACCOUNT))}, 'Scale small affiliate key', 'affiliate', 'v2',
        ${text(parsed.env)}, ${text(parsed.prefix)}, ${text(sha256Hex(parsed.secret))},
        ARRAY[${scopes}], ${idOf('affiliate', String(KEY_ACCOUNT))}, ${daysBefore(anchor, '30')}
      FROM ${BATCH_ORDINALS} AS unit
      ON CONFLICT ("id") DO NOTHING`,
    ),
  };
}
