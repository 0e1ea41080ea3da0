// Money is stored in minor units and rates in basis points; answers use decimal numbers.
import { CommissionType } from '../generated/prisma/client';
import { builder } from './builder';

/** 1234 minor units -> 12.34 */
export function fromMinor(minor: number): number {
  return minor / 100;
}

/** 550 basis points -> 5.5 (%) */
export function fromBasisPoints(bps: number): number {
  return bps / 100;
}

/** Minor units of a decimal amount, for filters given in major units. */
export function toMinor(amount: number): number {
  return Math.round(amount * 100);
}

export interface CommissionShape {
  type: CommissionType;
  /** Basis points for PERCENTAGE, minor units for FIXED. */
  stored: number;
}

builder.enumType(CommissionType, { name: 'CommissionType' });

export const Commission = builder.objectRef<CommissionShape>('Commission').implement({
  description: 'What the affiliate earns: a percentage of the sale, or a fixed amount per sale',
  fields: (t) => ({
    type: t.field({ type: CommissionType, resolve: (commission) => commission.type }),
    value: t.float({
      description: 'Percent for PERCENTAGE (5.5 = 5.5 %), amount in major units for FIXED',
      resolve: (commission) => fromMinor(commission.stored),
    }),
  }),
});
