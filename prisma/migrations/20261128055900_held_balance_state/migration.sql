-- Held money has a balance state of its own, and holds and clawbacks are order events (migration
-- ledger uses them; a new value of an enum is usable once the transaction that adds it has
-- committed).
ALTER TYPE "BalanceState" ADD VALUE 'HELD';
ALTER TYPE "OrderEventType" ADD VALUE 'HELD';
ALTER TYPE "OrderEventType" ADD VALUE 'RELEASED';
ALTER TYPE "OrderEventType" ADD VALUE 'CLAWBACK';
