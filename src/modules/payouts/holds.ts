// Why money is held (an order's or a ledger entry's): held money is in the balance's `held` and
// never paid while held (migration ledger).
import { HoldReason } from '../../generated/prisma/client';
import { builder } from '../../schema/builder';

export const HoldReasonEnum = builder.enumType(HoldReason, {
  name: 'HoldReason',
  description:
    'Why money is held: REVIEW (the network checks it), DISPUTE (the brand contests it), FRAUD_CHECK (suspected fraud is investigated). Held money is never paid; a release makes it payable again, a rejection ends the hold',
});
