-- The BEFORE ROW triggers of "Order" fire in the alphabetical order of their names, and their order
-- matters: the payout guard judges the change as the writer wrote it, the lifecycle then keeps what
-- the database keeps and refuses what a locked order may not change, and `updatedAt` is stamped
-- last. Their names carry that rank; the order itself is the one they already fired in.
ALTER TRIGGER "Order_in_payout" ON "Order" RENAME TO "Order_10_in_payout";
ALTER TRIGGER "Order_lifecycle_insert" ON "Order" RENAME TO "Order_20_lifecycle_insert";
ALTER TRIGGER "Order_lifecycle_update" ON "Order" RENAME TO "Order_20_lifecycle_update";
ALTER TRIGGER "Order_updated_at" ON "Order" RENAME TO "Order_30_updated_at";
