// Key management for the dashboard (GraphQL, `x-api-token`): list, create, rotate, revoke.
// The full key is answered once, by create and rotate; only hashes are stored.
import { generateApiKey, sha256Hex, type KeyEnv } from '../auth/keyFormat';
import { isScopeOf, SCOPES_BY_KEY_TYPE, type KeyType } from '../auth/scopes';
import { config } from '../config';
import { prisma } from '../db';
import { KeyType as KeyTypeEnum, KeyVersion } from '../generated/prisma/client';
import { builder } from './builder';
import { BadRequestError, NotFoundError, UnauthorizedError } from './errors';
import { isUuid } from './scalars';

builder.enumType(KeyTypeEnum, { name: 'ApiKeyType' });
builder.enumType(KeyVersion, { name: 'ApiKeyVersion' });

const ApiKey = builder.prismaObject('ApiKey', {
  description: 'An API key, without its secret',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    type: t.expose('type', { type: KeyTypeEnum }),
    version: t.expose('version', { type: KeyVersion }),
    prefix: t.exposeString('prefix', {
      nullable: true,
      description: 'The public prefix of a v2 key (svc_{env}_{prefix}_…); null for a legacy v1 key',
    }),
    scopes: t.exposeStringList('scopes'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
  }),
});

const ApiKeyWithSecret = builder
  .objectRef<{ apiKey: string; key: { id: string } }>('ApiKeyWithSecret')
  .implement({
    description: 'A key and its full secret, answered only once',
    fields: (t) => ({
      apiKey: t.exposeString('apiKey', {
        description: 'The full key; store it now, it is not shown again',
      }),
      key: t.prismaField({
        type: 'ApiKey',
        resolve: (query, parent) =>
          prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: parent.key.id } }),
      }),
    }),
  });

const CreateApiKeyInput = builder.inputType('CreateApiKeyInput', {
  fields: (t) => ({
    name: t.string({ required: true, description: '1 to 100 characters' }),
    scopes: t.stringList({ description: 'Defaults to every scope of the key type' }),
    expiresAt: t.field({ type: 'DateTime', description: 'Must be in the future' }),
  }),
});

const KEY_NAME_MAX = 100;

/** The scopes a new key gets: all of its type unless narrowed; a scope of another type is refused. */
export function scopesForNewKey(type: KeyType, requested: string[] | null | undefined): string[] {
  if (requested === null || requested === undefined) return [...SCOPES_BY_KEY_TYPE[type]];
  if (requested.length === 0) throw new BadRequestError('scopes must name at least one scope');
  const unknown = requested.filter((scope) => !isScopeOf(type, scope));
  if (unknown.length) {
    throw new BadRequestError(`Not scopes of a ${type} key: ${unknown.join(', ')}`);
  }
  return [...new Set(requested)];
}

function keyName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > KEY_NAME_MAX) {
    throw new BadRequestError(`name must be 1 to ${KEY_NAME_MAX} characters`);
  }
  return trimmed;
}

async function dashboardUser(userId: string | null) {
  const user =
    userId && isUuid(userId) ? await prisma.user.findUnique({ where: { id: userId } }) : null;
  if (!user) throw new UnauthorizedError('The dashboard token names no known user');
  return user;
}

async function ownKey(userId: string | null, keyId: string) {
  const user = await dashboardUser(userId);
  const key = isUuid(keyId)
    ? await prisma.apiKey.findFirst({ where: { id: keyId, ownerId: user.id } })
    : null;
  if (!key) throw new NotFoundError(`API key ${keyId} not found`);
  return key;
}

builder.queryField('listApiKeys', (t) =>
  t.prismaField({
    type: ['ApiKey'],
    description: "The dashboard user's keys, newest first (secrets are never listed)",
    authScopes: { dashboardUser: true },
    resolve: async (query, _root, _args, context) => {
      const user = await dashboardUser(context.dashboardUserId);
      return prisma.apiKey.findMany({
        ...query,
        where: { ownerId: user.id },
        orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      });
    },
  }),
);

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: ApiKeyWithSecret,
    description:
      "Creates a key of the user's type (affiliate or partner); the secret is shown once",
    authScopes: { dashboardUser: true },
    args: { input: t.arg({ type: CreateApiKeyInput, required: true }) },
    resolve: async (_root, { input }, context) => {
      const user = await dashboardUser(context.dashboardUserId);
      const type: KeyType = user.role === 'PARTNER' ? 'partner' : 'affiliate';
      if (input.expiresAt && input.expiresAt <= new Date()) {
        throw new BadRequestError('expiresAt must be in the future');
      }
      const { apiKey, prefix, secret } = generateApiKey(config.keyEnv);
      const key = await prisma.apiKey.create({
        data: {
          name: keyName(input.name),
          type,
          version: 'v2',
          env: config.keyEnv,
          prefix,
          secretHash: sha256Hex(secret),
          scopes: scopesForNewKey(type, input.scopes),
          ownerId: user.id,
          expiresAt: input.expiresAt ?? null,
        },
        select: { id: true },
      });
      return { apiKey, key };
    },
  }),
  rotateApiKey: t.field({
    type: ApiKeyWithSecret,
    description:
      'Replaces the secret, keeping name, scopes and expiry; a legacy v1 key comes back as a v2 key',
    authScopes: { dashboardUser: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, context) => {
      const key = await ownKey(context.dashboardUserId, String(args.id));
      if (key.revokedAt) throw new BadRequestError('A revoked key cannot be rotated');
      // A v2 key keeps its prefix, its public identity; a legacy v1 key gets one.
      const env = (key.env ?? config.keyEnv) as KeyEnv;
      const { apiKey, prefix, secret } = generateApiKey(env, key.prefix ?? undefined);
      await prisma.apiKey.update({
        where: { id: key.id },
        data: { version: 'v2', env, prefix, secretHash: sha256Hex(secret), rotatedAt: new Date() },
      });
      return { apiKey, key };
    },
  }),
  revokeApiKey: t.prismaField({
    type: 'ApiKey',
    description: 'Revokes a key at once; revoking a revoked key changes nothing',
    authScopes: { dashboardUser: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, context) => {
      const key = await ownKey(context.dashboardUserId, String(args.id));
      return prisma.apiKey.update({
        ...query,
        where: { id: key.id },
        data: { revokedAt: key.revokedAt ?? new Date() },
      });
    },
  }),
}));
