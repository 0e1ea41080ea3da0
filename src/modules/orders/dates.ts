// The dates an order is asked by (`dateType`), in the orders list and the performance report.
import { builder } from '../../schema/builder';

/** Each date type's column of "Order". */
export const ORDER_DATES = {
  ordered: 'orderedAt',
  updated: 'updatedAt',
  locked: 'locksAt',
} as const;

export type OrderDateName = keyof typeof ORDER_DATES;

export const OrderDateType = builder.enumType('OrderDateType', {
  description:
    'The date of an order a list or report asks by: `ordered` (`orderedAt`, the default), `updated` (`updatedAt`) or `locked` (`locksAt`)',
  values: Object.keys(ORDER_DATES) as OrderDateName[],
});
