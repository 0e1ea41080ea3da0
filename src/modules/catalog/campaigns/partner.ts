// The partner view of campaigns: no short URL, no commission and no PersonalCoupon code.
import { prisma } from '../../../platform/db';
import { builder, keyAuth } from '../../../schema/builder';
import { IN_CATALOG } from '../visibility';
import { itemQuery, listQuery } from '../../../schema/lists';
import {
  CAMPAIGN_ORDER,
  CAMPAIGNS_PAGE,
  CampaignFields,
  campaignFilterArgs,
  campaignWhere,
} from './common';
import { searchWork } from '../../../schema/complexity';

const PartnerCampaign = builder.prismaObject('Campaign', {
  variant: 'PartnerCampaign',
  interfaces: [CampaignFields],
  description: 'A campaign of the partner catalog; a PersonalCoupon appears without its code',
  fields: (t) => ({
    code: t.string({
      nullable: true,
      resolve: (campaign) => (campaign.type === 'PersonalCoupon' ? null : campaign.code),
    }),
  }),
});

listQuery('partnerCampaigns', {
  item: PartnerCampaign,
  envelope: 'meta',
  type: 'PartnerCampaignPage',
  description: 'GET /api/partner/campaigns: campaigns of visible brands, newest first',
  auth: keyAuth('partner', 'campaigns:read'),
  page: CAMPAIGNS_PAGE,
  args: campaignFilterArgs,
  rows: prisma.campaign,
  order: CAMPAIGN_ORDER,
  work: ({ name }) => searchWork(name),
  where: (filter) => campaignWhere(filter, new Date()),
});

itemQuery('partnerCampaign', {
  item: PartnerCampaign,
  type: 'PartnerCampaignResult',
  description: 'GET /api/partner/campaigns/{campaignId}: one campaign of a visible brand',
  auth: keyAuth('partner', 'campaigns:read'),
  idArg: 'campaignId',
  what: 'Campaign',
  rows: prisma.campaign,
  where: (id) => ({ id, ...IN_CATALOG }),
});
