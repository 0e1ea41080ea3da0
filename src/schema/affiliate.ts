// The affiliate context of /affiliate/* fields: the affiliate is the owner of the API key.
import type { Context } from './context';
import { NotFoundError } from '../errors';

/** The key's affiliate id; 404 when the affiliate's account no longer exists. */
export function affiliateIdOf(context: Context): string {
  const affiliateId = context.apiKey?.affiliateId;
  if (!affiliateId) throw new NotFoundError('Affiliate not found');
  return affiliateId;
}
