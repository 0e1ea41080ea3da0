// What endpoint management writes, for the mutations (mutations.ts): an endpoint created within
// the cap, its changes checked, its secret issued and rotated, each with its audit entry in the
// same statement.
import type { WebhookEndpointEventKind } from '../../../generated/prisma/client';
import { config } from '../../../platform/config';
import { prisma } from '../../../platform/db';
import { BadRequestError } from '../../../platform/errors';
import { savedUrlRefusal } from '../../../outbox/urls';
import { actorOf, type AffiliateUserContext } from '../../../schema/dashboardUser';
import { enabledChange } from '../../../schema/deliveryTargets';
import type { IssuedSecret } from '../../secrets/issuance';
import { createWithinCap, type OwnershipCap } from '../../../schema/ownershipCaps';
import { newWebhookSecret, SECRET_GRACE_PERIOD_S } from '../signing';
import { MAX_ENDPOINTS_PER_USER, webhookDescription, webhookEvents } from './rules';
import type { CreateWebhookEndpointInput, UpdateWebhookEndpointInput } from './types';

/** The URL if an endpoint may have it: its form, then every address its host resolves to. */
async function webhookUrl(raw: string): Promise<string> {
  const url = raw.trim();
  const refusal = await savedUrlRefusal(url, {
    allowPrivate: config.webhookAllowPrivateUrls,
    isProduction: config.isProduction,
  });
  if (refusal) throw new BadRequestError(refusal);
  return url;
}

/** The endpoint cap (src/schema/ownershipCaps.ts): endpoints not deleted. */
const ENDPOINT_CAP: OwnershipCap = {
  max: MAX_ENDPOINTS_PER_USER,
  refusal: `At most ${MAX_ENDPOINTS_PER_USER} webhook endpoints per user: delete one first`,
  count: (tx, ownerId) => tx.webhookEndpoint.count({ where: { ownerId, deletedAt: null } }),
};

/** An entry of an endpoint's audit trail: what the request's user did, and from where. */
export function auditEntry(context: AffiliateUserContext, kind: WebhookEndpointEventKind) {
  return { kind, ...actorOf(context, context.affiliateUser.id) };
}

/** A nested create of the audit entry, written in the same statement as the endpoint's change. */
export const audited = (context: AffiliateUserContext, kind: WebhookEndpointEventKind) => ({
  auditTrail: { create: auditEntry(context, kind) },
});

/**
 * A new signing secret, which `write` saves on the endpoint with its audit entry, answered once
 * with the endpoint's id.
 */
async function issueSecret(
  context: AffiliateUserContext,
  kind: 'CREATED' | 'SECRET_ROTATED',
  write: (data: { secret: string } & ReturnType<typeof audited>) => Promise<{ id: string }>,
): Promise<IssuedSecret> {
  const secret = newWebhookSecret();
  const endpoint = await write({ secret, ...audited(context, kind) });
  return { id: endpoint.id, secret };
}

/** A new endpoint of the request's user, within the cap, and its secret. */
export async function createEndpoint(
  context: AffiliateUserContext,
  input: typeof CreateWebhookEndpointInput.$inferInput,
): Promise<IssuedSecret> {
  const ownerId = context.affiliateUser.id;
  const events = webhookEvents(input.events);
  const description = webhookDescription(input.description);
  const url = await webhookUrl(input.url);
  return issueSecret(context, 'CREATED', (issued) =>
    createWithinCap(ownerId, ENDPOINT_CAP, (tx) =>
      tx.webhookEndpoint.create({
        data: { ownerId, url, events, description, ...issued },
        select: { id: true },
      }),
    ),
  );
}

/** The columns an update writes: the fields given, checked, and its audit entry. */
export async function endpointChange(
  context: AffiliateUserContext,
  endpoint: { enabled: boolean },
  input: typeof UpdateWebhookEndpointInput.$inferInput,
) {
  return {
    ...(input.url != null && { url: await webhookUrl(input.url) }),
    ...(input.events != null && { events: webhookEvents(input.events) }),
    ...(input.description !== undefined && {
      description: webhookDescription(input.description),
    }),
    ...enabledChange(input.enabled, endpoint.enabled),
    ...audited(context, 'UPDATED'),
  };
}

/** A new secret for the endpoint; the replaced one keeps signing for the grace period. */
export function rotateSecret(
  context: AffiliateUserContext,
  endpoint: { id: string; secret: string },
): Promise<IssuedSecret> {
  return issueSecret(context, 'SECRET_ROTATED', (issued) =>
    prisma.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: {
        ...issued,
        previousSecret: endpoint.secret,
        previousSecretExpiresAt: new Date(Date.now() + SECRET_GRACE_PERIOD_S * 1000),
      },
      select: { id: true },
    }),
  );
}
