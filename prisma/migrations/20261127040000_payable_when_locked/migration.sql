-- An order is payable once it is approved and locked (migration order_lifecycle): its amount can
-- no longer change. The lock is the lock pass's write ("lockedAt"), not the clock, so the balance
-- the triggers keep moves an order from APPROVED to AVAILABLE in that write.
CREATE OR REPLACE FUNCTION "order_is_payable"(o "Order") RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT o."status" = 'APPROVED' AND o."lockedAt" IS NOT NULL
$$;

-- The orders counted under the old rule are counted anew.
SELECT "refresh_order_balances"(array_agg("id")) FROM "Order" WHERE "status" = 'APPROVED';
