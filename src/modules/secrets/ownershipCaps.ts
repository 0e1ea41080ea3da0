// The ownership caps (src/schema/ownershipCaps.ts), where the webhook and postback mutations import
// them from.
export { createWithinCap, type OwnershipCap } from '../../schema/ownershipCaps';
