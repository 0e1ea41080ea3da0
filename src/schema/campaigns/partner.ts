// The partner view of campaigns: no short URL, no commission and no PersonalCoupon code.
import { listKey, listTotal } from '../listTotals';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { prisma } from '../../db';
import { metaPageOf, singleOf } from '../envelopes';
import { builder, keyAuth } from '../builder';
import { notFound } from '../../errors';
import { pageArgs, pageInfo, resolvePage } from '../pagination';
import {
  CAMPAIGNS_PAGE,
  CampaignFields,
  campaignById,
  campaignCounter,
  campaignFilterArgs,
  campaignWhere,
  findCampaignPage,
} from './common';

const PartnerCampaign = builder.prismaObject('Campaign', {
  variant: 'PartnerCampaign',
  interfaces: [CampaignFields],
  description: 'A campaign of the partner catalog; a PersonalCoupon appears without its code',
  fields: (t) => ({
    code: t.string({
      nullable: true,
      select: { type: true, code: true },
      resolve: (campaign) => (campaign.type === 'PersonalCoupon' ? null : campaign.code),
    }),
  }),
});

const PartnerCampaignPage = metaPageOf('PartnerCampaignPage', PartnerCampaign);
const PartnerCampaignResult = singleOf('PartnerCampaignResult', PartnerCampaign);

builder.queryFields((t) => ({
  partnerCampaigns: t.field({
    type: PartnerCampaignPage,
    description: 'GET /api/partner/campaigns: campaigns of visible brands, newest first',
    authScopes: keyAuth('partner', 'campaigns:read'),
    args: { ...pageArgs(CAMPAIGNS_PAGE), ...campaignFilterArgs },
    resolve: async (_root, args, context, info) => {
      const page = resolvePage(args, CAMPAIGNS_PAGE);
      const where = campaignWhere(args, new Date());
      const [total, data] = await Promise.all([
        listTotal(listKey(info.fieldName, null, args), campaignCounter(where)),
        findCampaignPage(page, where, queryFromInfo({ context, info, path: ['data'] })),
      ]);
      return { data, meta: pageInfo(total, page) };
    },
  }),
  partnerCampaign: t.field({
    type: PartnerCampaignResult,
    description: 'GET /api/partner/campaigns/{campaignId}: one campaign of a visible brand',
    authScopes: keyAuth('partner', 'campaigns:read'),
    args: { campaignId: t.arg.id({ required: true }) },
    resolve: async (_root, args, context, info) => {
      const data = await prisma.campaign.findFirst({
        ...queryFromInfo({ context, info, path: ['data'] }),
        where: campaignById(String(args.campaignId)),
      });
      if (!data) throw notFound('Campaign', String(args.campaignId));
      return { data };
    },
  }),
}));
