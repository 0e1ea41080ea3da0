// The object and input types of key management. No type carries a secret except
// ApiKeyWithSecret, the answer of createApiKey and rotateApiKey.
import { prisma } from '../../platform/db';
import { ApiKeyEventKind, KeyType as KeyTypeEnum, KeyVersion } from '../../generated/prisma/client';
import { builder } from '../../schema/builder';
import type { IssuedSecret } from '../secrets/issuance';

builder.enumType(KeyTypeEnum, { name: 'ApiKeyType' });
builder.enumType(KeyVersion, { name: 'ApiKeyVersion' });
builder.enumType(ApiKeyEventKind, {
  name: 'ApiKeyEventKind',
  description:
    'CREATED, ROTATED, REVOKED (by the dashboard user); USED_AFTER_REVOCATION: the revoked key ' +
    'was presented with its correct secret (refused; at most one event per key per minute)',
});

builder.prismaObject('ApiKey', {
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
    lastUsedAt: t.expose('lastUsedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'Last successful use, to the minute (recorded at most once a minute)',
    }),
    lastUsedIp: t.exposeString('lastUsedIp', {
      nullable: true,
      description: 'Client address of the use recorded in lastUsedAt',
    }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    rotatedAt: t.expose('rotatedAt', { type: 'DateTime', nullable: true }),
    previousSecretExpiresAt: t.expose('previousSecretExpiresAt', {
      type: 'DateTime',
      nullable: true,
      description:
        'Until when the secret replaced by the last rotation is still accepted (its grace period)',
    }),
  }),
});

/** The key's id, and its full key as the secret. */
export const ApiKeyWithSecret = builder.objectRef<IssuedSecret>('ApiKeyWithSecret').implement({
  description: 'A key and its full secret, answered only once (and to a retry of the same request)',
  fields: (t) => ({
    apiKey: t.exposeString('secret', {
      description: 'The full key; store it now, it is not shown again',
    }),
    key: t.prismaField({
      type: 'ApiKey',
      resolve: (query, parent) =>
        prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: parent.id } }),
    }),
  }),
});

builder.prismaObject('ApiKeyEvent', {
  description: 'One entry of a key’s audit trail (never holds a secret)',
  fields: (t) => ({
    id: t.exposeID('id'),
    keyId: t.exposeID('keyId'),
    kind: t.expose('kind', { type: ApiKeyEventKind }),
    actorUserId: t.exposeID('actorUserId', {
      nullable: true,
      description: 'The dashboard user who acted; null for USED_AFTER_REVOCATION',
    }),
    ip: t.exposeString('ip', { nullable: true, description: 'Client address; null if unknown' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const CreateApiKeyInput = builder.inputType('CreateApiKeyInput', {
  fields: (t) => ({
    name: t.string({ required: true, description: '1 to 100 characters' }),
    scopes: t.stringList({ description: 'Defaults to every scope of the key type' }),
    expiresAt: t.field({ type: 'DateTime', description: 'Must be in the future' }),
  }),
});
