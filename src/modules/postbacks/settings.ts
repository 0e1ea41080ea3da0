// A postback row's settings as the pure functions take them. Pure.
import type { OrderStatus, Postback, Prisma } from '../../generated/prisma/client';
import type { StatusMap, TypeMap } from './macros';
import type { PostbackSettings } from './request';

export const ORDER_STATUSES: readonly OrderStatus[] = ['PENDING', 'APPROVED', 'REJECTED', 'PAID'];

/** A status map's keys: each order status, and UNAPPROVED (macros.ts). */
export const STATUS_MAP_KEYS = [...ORDER_STATUSES, 'UNAPPROVED'] as const;

/** The text values of a stored map (JSON) under `keys`. */
function wordsOf<Key extends string>(stored: Prisma.JsonValue, keys: readonly Key[]) {
  const map: Partial<Record<Key, string>> = {};
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return map;
  for (const key of keys) {
    const word = stored[key];
    if (typeof word === 'string') map[key] = word;
  }
  return map;
}

export const statusMapOf = (stored: Prisma.JsonValue): StatusMap =>
  wordsOf(stored, STATUS_MAP_KEYS);
export const typeMapOf = (stored: Prisma.JsonValue): TypeMap => wordsOf(stored, ORDER_STATUSES);

export function settingsOf(postback: Postback): PostbackSettings {
  return {
    method: postback.method,
    urlTemplate: postback.urlTemplate,
    bodyFormat: postback.bodyFormat,
    bodyTemplate: postback.bodyTemplate,
    statusMap: statusMapOf(postback.statusMap),
    typeMap: typeMapOf(postback.typeMap),
    payoutRule: postback.payoutRule,
    successText: postback.successText,
    secret: postback.secret,
  };
}
