// GET /api/partner/organizations: a light directory of visible organizations.
import { listKey, listTotal } from './listTotals';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { metaPageOf } from './envelopes';
import { builder, keyAuth } from './builder';
import { findOrganizationPage, organizationCounter } from './brands';
import { pageArgs, pageInfo, resolvePage, type PageRule } from './pagination';
import { visibleOrganization } from './visibility';
import { containing } from './textSearch';

const ORGANIZATIONS_PAGE: PageRule = { defaultLimit: 20, maxLimit: 100, aboveMax: 'clamp' };

const PartnerOrganization = builder.prismaObject('Organization', {
  variant: 'PartnerOrganization',
  description: 'A visible organization of the partner catalog directory',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    logoUrl: t.exposeString('logoUrl', { nullable: true }),
    websiteUrl: t.exposeString('websiteUrl', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const PartnerOrganizationPage = metaPageOf('PartnerOrganizationPage', PartnerOrganization);

builder.queryField('partnerOrganizations', (t) =>
  t.field({
    type: PartnerOrganizationPage,
    description: 'GET /api/partner/organizations: visible organizations, by name',
    authScopes: keyAuth('partner', 'organizations:read'),
    args: {
      ...pageArgs(ORGANIZATIONS_PAGE),
      search: t.arg.string({ description: 'Part of the organization name, any case' }),
    },
    resolve: async (_root, args, context, info) => {
      const page = resolvePage(args, ORGANIZATIONS_PAGE);
      const where = {
        ...visibleOrganization,
        ...(args.search && { name: containing(args.search) }),
      };
      const [total, data] = await Promise.all([
        listTotal(listKey(info.fieldName, null, args), organizationCounter(where)),
        findOrganizationPage(page, where, queryFromInfo({ context, info, path: ['data'] })),
      ]);
      return { data, meta: pageInfo(total, page) };
    },
  }),
);
