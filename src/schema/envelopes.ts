// The response envelopes of the contract, one builder per envelope kind. A REST body is the value
// of its GraphQL field (Sofa answers it unwrapped), so the envelope is the field's GraphQL type.
import type { ObjectRef } from '@pothos/core';
import { builder } from './builder';
import { ENVELOPE_DATA } from './complexity';
import type { PageInfo } from './pagination';

type ItemRef<T> = ObjectRef<PothosSchemaTypes.ExtendDefaultTypes<never>, T> | ObjectRef<any, T>;

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

export interface MetaPage<T> {
  data: T[];
  meta: PageInfo;
}

export interface PaginationPage<T> {
  data: T[];
  pagination: PageInfo;
}

export interface CountedList<T> {
  data: T[];
  count: number;
}

export interface Single<T> {
  data: T;
}

/** `{ data: [item], meta: { total, page, limit, totalPages } }` */
export function metaPageOf<T>(name: string, item: ItemRef<T>) {
  return builder.objectRef<MetaPage<T>>(name).implement({
    fields: (t) => ({
      data: t.expose('data', { type: [item], complexity: ENVELOPE_DATA }),
      meta: t.expose('meta', { type: PageMeta }),
    }),
  });
}

/** `{ data: [item], pagination: { page, limit, total, totalPages } }` */
export function paginationPageOf<T>(name: string, item: ItemRef<T>) {
  return builder.objectRef<PaginationPage<T>>(name).implement({
    fields: (t) => ({
      data: t.expose('data', { type: [item], complexity: ENVELOPE_DATA }),
      pagination: t.expose('pagination', { type: Pagination }),
    }),
  });
}

/** `{ data: [item], count }` */
export function countedListOf<T>(name: string, item: ItemRef<T>) {
  return builder.objectRef<CountedList<T>>(name).implement({
    fields: (t) => ({
      data: t.expose('data', { type: [item], complexity: ENVELOPE_DATA }),
      count: t.exposeInt('count'),
    }),
  });
}

/** `{ data: item }` */
export function singleOf<T>(name: string, item: ItemRef<T>) {
  return builder.objectRef<Single<T>>(name).implement({
    fields: (t) => ({
      data: t.expose('data', { type: item }),
    }),
  });
}
