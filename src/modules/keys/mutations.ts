// createApiKey, rotateApiKey, revokeApiKey. Each writes its audit event in the same statement as
// the change (a nested create), so a change is never without its event.
import { generateApiKey, sha256Hex, type KeyEnv } from '../../auth/keyFormat';
import type { KeyType } from '../../auth/scopes';
import { config } from '../../platform/config';
import { prisma } from '../../platform/db';
import { Prisma } from '../../generated/prisma/client';
import { builder, OPEN_USER_AUTH } from '../../schema/builder';
import { IDEMPOTENCY_NOTE, issueIdempotently } from '../secrets/issuance';
import { createWithinCap, type OwnershipCap } from '../../schema/ownershipCaps';
import { BadRequestError, ConflictError } from '../../platform/errors';
import { actorOf } from '../../schema/dashboardUser';
import { keyOwnedBy } from './access';
import {
  gracePeriodSeconds,
  keyName,
  MAX_KEYS_PER_USER,
  MAX_GRACE_PERIOD_SECONDS,
  previousSecretAfterRotation,
  scopesForNewKey,
} from './rules';
import { ApiKeyWithSecret, CreateApiKeyInput } from './types';

/** Prisma's "record to update not found": the row no longer matched the update's condition. */
function isNotFound(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2025';
}

/**
 * How long after its write a rotation's answer is released, and the moment it records as
 * `rotatedAt`. Every rotation of the key received before that moment (by any replica) is refused,
 * so it is the time rotations sent together have to reach the service: ample for a replica's
 * queue, and nothing a person at a dashboard notices.
 */
export const ROTATION_RELEASE_MS = 200;

/** Resolves once the clock is past `moment`: a request received after it has a later stamp. */
async function untilPast(moment: Date): Promise<void> {
  for (let left = moment.getTime() - Date.now(); left >= 0; left = moment.getTime() - Date.now()) {
    await new Promise((resolve) => setTimeout(resolve, left + 1));
  }
}

/** The key cap (src/schema/ownershipCaps.ts). */
const KEY_CAP: OwnershipCap = {
  max: MAX_KEYS_PER_USER,
  refusal: `At most ${MAX_KEYS_PER_USER} API keys per user that are not revoked (expired ones included): revoke one first`,
  count: (tx, ownerId) => tx.apiKey.count({ where: { ownerId, revokedAt: null } }),
};

builder.mutationField('createApiKey', (t) =>
  t.withAuth(OPEN_USER_AUTH).field({
    type: ApiKeyWithSecret,
    description:
      "Creates a key of the user's type (affiliate or partner); the secret is shown once." +
      IDEMPOTENCY_NOTE,
    managementLimit: true,
    issuesSecret: true,
    args: { input: t.arg({ type: CreateApiKeyInput, required: true }) },
    resolve: async (_root, { input }, context, info) => {
      const user = context.openUser;
      const fingerprint = {
        field: 'createApiKey',
        name: input.name,
        scopes: input.scopes ?? null,
        expiresAt: input.expiresAt?.toISOString() ?? null,
      };
      return issueIdempotently(context, info, user.id, fingerprint, async () => {
        const type: KeyType = user.role === 'PARTNER' ? 'partner' : 'affiliate';
        if (input.expiresAt && input.expiresAt <= new Date()) {
          throw new BadRequestError('expiresAt must be in the future');
        }
        const name = keyName(input.name);
        const scopes = scopesForNewKey(type, input.scopes);
        const { apiKey, prefix, secret } = generateApiKey(config.keyEnv);
        const key = await createWithinCap(user.id, KEY_CAP, (tx) =>
          tx.apiKey.create({
            data: {
              name,
              type,
              version: 'v2',
              env: config.keyEnv,
              prefix,
              secretHash: sha256Hex(secret),
              scopes,
              ownerId: user.id,
              expiresAt: input.expiresAt ?? null,
              events: { create: { kind: 'CREATED', ...actorOf(context, user.id) } },
            },
            select: { id: true },
          }),
        );
        return { id: key.id, secret: apiKey };
      });
    },
  }),
);

builder.mutationField('rotateApiKey', (t) =>
  t.withAuth(OPEN_USER_AUTH).field({
    type: ApiKeyWithSecret,
    description:
      'Replaces the secret, keeping name, scopes, prefix and expiry; a legacy v1 key comes back ' +
      'as a v2 key. With gracePeriodSeconds, the replaced secret keeps working that long (only ' +
      'the newest replaced secret: rotating again ends the previous grace). Of rotations of one ' +
      'key asked at once exactly one wins; the others are a CONFLICT and change nothing.' +
      IDEMPOTENCY_NOTE,
    managementLimit: true,
    issuesSecret: true,
    args: {
      id: t.arg.id({ required: true }),
      gracePeriodSeconds: t.arg.int({
        description: `0 to ${MAX_GRACE_PERIOD_SECONDS} (a day); default 0: the old secret stops at once`,
      }),
    },
    resolve: async (_root, args, context, info) => {
      // When the replica received the request, not when this resolver starts: on a busy replica
      // (and always on the embedded database) a request waits behind another's work first.
      const received = context.record?.receivedAt ?? new Date();
      const user = context.openUser;
      const grace = gracePeriodSeconds(args.gracePeriodSeconds);
      const fingerprint = { field: 'rotateApiKey', id: String(args.id), gracePeriodSeconds: grace };
      return issueIdempotently(context, info, user.id, fingerprint, async () => {
        const key = await keyOwnedBy(user.id, String(args.id));
        // One turn of this replica's event loop first: it takes in the requests already waiting
        // for it (work on the embedded database never yields to them otherwise), so rotations
        // sent together have all been received, and have read the key, before any is written.
        await new Promise((resolve) => setImmediate(resolve));
        const now = new Date();
        if (key.revokedAt) throw new BadRequestError('A revoked key cannot be rotated');
        if (key.expiresAt && key.expiresAt <= now) {
          throw new BadRequestError('An expired key cannot be rotated (rotation never extends it)');
        }
        // A v2 key keeps its prefix, its public identity; a legacy v1 key gets one.
        const env = (key.env ?? config.keyEnv) as KeyEnv;
        const { apiKey, prefix, secret } = generateApiKey(env, key.prefix ?? undefined);
        const released = new Date(now.getTime() + ROTATION_RELEASE_MS);
        try {
          await prisma.apiKey.update({
            // One statement decides, under the row's lock (docs/decisions.md, "Key security"):
            // the secret this rotation read is still the key's (two rotations that read one
            // version cannot both win), and the newest rotation was released before this request
            // was received (one that reads after another's commit, but was received before that
            // one's answer, loses too).
            where: {
              id: key.id,
              secretHash: key.secretHash,
              revokedAt: null,
              OR: [{ rotatedAt: null }, { rotatedAt: { lt: received } }],
            },
            data: {
              version: 'v2',
              env,
              prefix,
              secretHash: sha256Hex(secret),
              ...previousSecretAfterRotation(key, grace, now),
              rotatedAt: released,
              events: { create: { kind: 'ROTATED', ...actorOf(context, user.id) } },
            },
            select: { id: true },
          });
        } catch (error) {
          if (!isNotFound(error)) throw error;
          throw new ConflictError(
            'The key was rotated or revoked by another request while this one ran; this rotation changed nothing',
          );
        }
        context.app.keys.forget(key.id);
        await untilPast(released);
        return { id: key.id, secret: apiKey };
      });
    },
  }),
);

builder.mutationField('revokeApiKey', (t) =>
  t.withAuth(OPEN_USER_AUTH).prismaField({
    type: 'ApiKey',
    description: 'Revokes a key at once; revoking a revoked key changes nothing',
    managementLimit: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, context) => {
      const key = await keyOwnedBy(context.openUser.id, String(args.id));
      const unchanged = () => prisma.apiKey.findUniqueOrThrow({ ...query, where: { id: key.id } });
      if (key.revokedAt) return unchanged();
      try {
        const revoked = await prisma.apiKey.update({
          ...query,
          // Only a key not yet revoked: a concurrent second revoke changes nothing either.
          where: { id: key.id, revokedAt: null },
          data: {
            revokedAt: new Date(),
            events: { create: { kind: 'REVOKED', ...actorOf(context, key.ownerId) } },
          },
        });
        context.app.keys.forget(key.id);
        return revoked;
      } catch (error) {
        if (!isNotFound(error)) throw error;
        return unchanged();
      }
    },
  }),
);
