// The response envelopes of the contract, one builder per envelope kind. A REST body is the value
// of its GraphQL field as the facade answers it (unwrapped), so the envelope is the field's type.
import type { ObjectRef } from '@pothos/core';
import { builder } from './builder';
import { ENVELOPE_DATA } from './complexity';
import type { PageInfo } from './pagination';

/** The type of an envelope's rows (a prismaObject or an object ref). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any builder's ref, any row shape
export type ItemRef = ObjectRef<any, object>;

// Two types for one shape: the contract lists the inner fields in a different order for each.
const PageMeta = builder.objectRef<PageInfo>('PageMeta').implement({
  description: 'Pagination of a `meta` envelope',
  fields: (t) => ({
    total: t.exposeInt('total'),
    page: t.exposeInt('page'),
    limit: t.exposeInt('limit'),
    totalPages: t.exposeInt('totalPages'),
  }),
});

const Pagination = builder.objectRef<PageInfo>('Pagination').implement({
  description: 'Pagination of a `pagination` envelope',
  fields: (t) => ({
    page: t.exposeInt('page'),
    limit: t.exposeInt('limit'),
    total: t.exposeInt('total'),
    totalPages: t.exposeInt('totalPages'),
  }),
});

/** What a list route answers: its rows and its envelope's page field. */
export interface ListEnvelope {
  data: object[];
  meta?: PageInfo;
  pagination?: PageInfo;
  count?: number;
}

/** `{ data: [item], meta: { total, page, limit, totalPages } }` */
export function metaPageOf(name: string, item: ItemRef) {
  return builder.objectRef<ListEnvelope>(name).implement({
    fields: (t) => ({
      data: t.field({ type: [item], complexity: ENVELOPE_DATA, resolve: (page) => page.data }),
      meta: t.field({ type: PageMeta, resolve: (page) => page.meta! }),
    }),
  });
}

/** `{ data: [item], pagination: { page, limit, total, totalPages } }` */
export function paginationPageOf(name: string, item: ItemRef) {
  return builder.objectRef<ListEnvelope>(name).implement({
    fields: (t) => ({
      data: t.field({ type: [item], complexity: ENVELOPE_DATA, resolve: (page) => page.data }),
      pagination: t.field({ type: Pagination, resolve: (page) => page.pagination! }),
    }),
  });
}

/** `{ data: [item], count }` */
export function countedListOf(name: string, item: ItemRef) {
  return builder.objectRef<ListEnvelope>(name).implement({
    fields: (t) => ({
      data: t.field({ type: [item], complexity: ENVELOPE_DATA, resolve: (page) => page.data }),
      count: t.int({ resolve: (page) => page.count! }),
    }),
  });
}

/** `{ data: item }` */
export function singleOf(name: string, item: ItemRef) {
  return builder.objectRef<{ data: object }>(name).implement({
    fields: (t) => ({
      data: t.field({ type: item, resolve: (single) => single.data }),
    }),
  });
}
