// What a postback is saved with, checked as a whole (on create and on every update): its templates
// (src/modules/postbacks/request.ts), a `{secret}` it uses, the address its URL goes to (the same
// guard as webhook endpoints: tried with the sample conversion, then every address of its host),
// and its scope (the brand or campaign exists, the link is the owner's).
import { config } from '../../../platform/config';
import { prisma } from '../../../platform/db';
import { BadRequestError, notFound } from '../../../platform/errors';
import { isUuid } from '../../../platform/formats';
import { savedUrlRefusal } from '../../../outbox/urls';
import { macroValues, SAMPLE_CONVERSION } from '../macros';
import {
  macrosUsed,
  parsePostback,
  renderRequest,
  RENDERED_URL_MAX,
  type PostbackSettings,
} from '../request';
import { asBadRequest, type postbackScope } from './rules';

/** The request a saved postback sends for the sample conversion. */
export function sampleRequest(settings: PostbackSettings) {
  const parsed = parsePostback(settings);
  const values = macroValues(
    SAMPLE_CONVERSION,
    {
      event: 'order.created',
      status: 'PENDING',
      previousStatus: null,
      reason: null,
      deliveryId: '0',
      attempt: 1,
    },
    settings,
    settings.secret,
  );
  return { parsed, rendered: renderRequest(parsed, values) };
}

/** The settings if a postback may be saved with them; BAD_REQUEST naming what is wrong. */
export async function checkedSettings(settings: PostbackSettings): Promise<PostbackSettings> {
  const sample = asBadRequest(() => sampleRequest(settings));
  if (macrosUsed(sample.parsed).includes('secret') && settings.secret === null) {
    throw new BadRequestError('The templates use {secret}: give the postback a secret');
  }
  const refusal = await savedUrlRefusal(sample.rendered.url, {
    name: 'urlTemplate',
    maxLength: RENDERED_URL_MAX,
    allowPrivate: config.webhookAllowPrivateUrls,
    isProduction: config.isProduction,
  });
  if (refusal) throw new BadRequestError(refusal);
  return settings;
}

/** The scope if its brand or campaign exists and its link is the owner's; else NOT_FOUND. */
export async function checkedScope(ownerId: string, scope: ReturnType<typeof postbackScope>) {
  const { brandId, campaignId, linkCode } = scope;
  if (brandId !== null) {
    const brand = isUuid(brandId)
      ? await prisma.organization.findUnique({ where: { id: brandId }, select: { id: true } })
      : null;
    if (!brand) throw notFound('Brand', brandId);
  }
  if (campaignId !== null) {
    const campaign = isUuid(campaignId)
      ? await prisma.campaign.findUnique({ where: { id: campaignId }, select: { id: true } })
      : null;
    if (!campaign) throw notFound('Campaign', campaignId);
  }
  if (linkCode !== null) {
    const link = await prisma.shortUrl.findFirst({
      where: { urlCode: linkCode, affiliateId: ownerId },
      select: { id: true },
    });
    if (!link) throw notFound('Short link', linkCode);
  }
  return scope;
}
