// A postback row's settings as the pure functions take them. Pure.
import type { OrderStatus, Postback, Prisma } from '../../generated/prisma/client';
import type { StatusMap } from './macros';
import type { PostbackSettings } from './request';

export const ORDER_STATUSES: readonly OrderStatus[] = ['PENDING', 'APPROVED', 'REJECTED', 'PAID'];

/** The status map as stored (JSON): its known statuses with text values. */
export function statusMapOf(stored: Prisma.JsonValue): StatusMap {
  const map: StatusMap = {};
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return map;
  for (const status of ORDER_STATUSES) {
    const word = stored[status];
    if (typeof word === 'string') map[status] = word;
  }
  return map;
}

export function settingsOf(postback: Postback): PostbackSettings {
  return {
    method: postback.method,
    urlTemplate: postback.urlTemplate,
    bodyFormat: postback.bodyFormat,
    bodyTemplate: postback.bodyTemplate,
    statusMap: statusMapOf(postback.statusMap),
    successText: postback.successText,
    secret: postback.secret,
  };
}
