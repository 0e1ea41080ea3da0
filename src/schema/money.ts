// Rates are stored in basis points and answered in percent; amounts are converted per currency by
// src/platform/currencies.ts. A catalog commission's value, which has no currency, is here.
import { CommissionType } from '../generated/prisma/client';
import { builder } from './builder';

/** 550 basis points -> 5.5 (%) */
export function fromBasisPoints(bps: number): number {
  return bps / 100;
}

export interface CommissionShape {
  type: CommissionType;
  /** Basis points for PERCENTAGE, hundredths for FIXED. */
  stored: number;
}

builder.enumType(CommissionType, { name: 'CommissionType' });

export const Commission = builder.objectRef<CommissionShape>('Commission').implement({
  description: 'What the affiliate earns: a percentage of the sale, or a fixed amount per sale',
  fields: (t) => ({
    type: t.field({ type: CommissionType, resolve: (commission) => commission.type }),
    value: t.float({
      description:
        "Percent for PERCENTAGE (5.5 = 5.5 %); for FIXED the amount per sale with two decimals, in no named currency (the catalog records none for a brand): an order's `earnings` are in the order's currency",
      resolve: (commission) =>
        commission.type === 'PERCENTAGE'
          ? fromBasisPoints(commission.stored)
          : commission.stored / 100,
    }),
  }),
});
