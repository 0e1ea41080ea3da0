-- CreateEnum
CREATE TYPE "EarningKind" AS ENUM ('BONUS', 'CPC', 'CREDIT', 'DEBIT', 'CLAWBACK');

-- CreateEnum
CREATE TYPE "HoldReason" AS ENUM ('REVIEW', 'DISPUTE', 'FRAUD_CHECK');

-- AlterTable
ALTER TABLE "AffiliateBalance" ADD COLUMN     "entries" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "heldNote" TEXT,
ADD COLUMN     "heldReason" "HoldReason";

-- AlterTable
ALTER TABLE "OrderEvent" ADD COLUMN     "clawbackMinor" INTEGER,
ADD COLUMN     "earningId" UUID,
ADD COLUMN     "heldReason" "HoldReason";

-- AlterTable
ALTER TABLE "PayoutItem" ADD COLUMN     "earningId" UUID,
ADD COLUMN     "heldEarningId" UUID,
ALTER COLUMN "orderId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "WebhookEvent" ADD COLUMN     "earningId" UUID;

-- CreateTable
CREATE TABLE "Earning" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "affiliateId" UUID NOT NULL,
    "kind" "EarningKind" NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "amountMinor" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "organizationId" UUID,
    "campaignId" UUID,
    "orderId" UUID,
    "heldReason" "HoldReason",
    "heldNote" TEXT,
    "earnedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Earning_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EarningBalance" (
    "earningId" UUID NOT NULL,
    "affiliateId" UUID NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "state" "BalanceState" NOT NULL,
    "amountMinor" INTEGER NOT NULL,

    CONSTRAINT "EarningBalance_pkey" PRIMARY KEY ("earningId")
);

-- CreateTable
CREATE TABLE "PayoutTerms" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "affiliateId" UUID,
    "currency" CHAR(3) NOT NULL,
    "minimumMinor" INTEGER NOT NULL,
    "payoutDay" SMALLINT NOT NULL,

    CONSTRAINT "PayoutTerms_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Earning_affiliateId_earnedAt_id_idx" ON "Earning"("affiliateId", "earnedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Earning_affiliateId_kind_earnedAt_id_idx" ON "Earning"("affiliateId", "kind", "earnedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Earning_orderId_idx" ON "Earning"("orderId");

-- CreateIndex
CREATE UNIQUE INDEX "PayoutItem_heldEarningId_key" ON "PayoutItem"("heldEarningId");

-- CreateIndex
CREATE INDEX "PayoutItem_earningId_idx" ON "PayoutItem"("earningId");

-- CreateIndex
CREATE UNIQUE INDEX "PayoutItem_payoutId_earningId_key" ON "PayoutItem"("payoutId", "earningId");

-- AddForeignKey
ALTER TABLE "PayoutItem" ADD CONSTRAINT "PayoutItem_earningId_fkey" FOREIGN KEY ("earningId") REFERENCES "Earning"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Earning" ADD CONSTRAINT "Earning_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Earning" ADD CONSTRAINT "Earning_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Earning" ADD CONSTRAINT "Earning_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Earning" ADD CONSTRAINT "Earning_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The ledger beside the orders (docs/payouts.md): entries of the back office's (a bonus, a pay per
-- click, a manual credit or debit, a clawback of a paid order), paid through the same payouts and
-- counted in the same balance; and money held for review, never paid while held. The database keeps
-- every rule whoever writes, as it does for orders and payouts (migration payouts).
ALTER TABLE "Earning" ADD CONSTRAINT "Earning_currency_check" CHECK ("currency" ~ '^[A-Z]{3}$');
ALTER TABLE "Earning" ADD CONSTRAINT "Earning_reason_check" CHECK (length(trim("reason")) > 0);
ALTER TABLE "Earning" ADD CONSTRAINT "Earning_sign_check" CHECK (
  CASE WHEN "kind" IN ('DEBIT', 'CLAWBACK') THEN "amountMinor" < 0 ELSE "amountMinor" > 0 END);
ALTER TABLE "Earning" ADD CONSTRAINT "Earning_clawback_order_check"
  CHECK ("kind" <> 'CLAWBACK' OR "orderId" IS NOT NULL);
ALTER TABLE "Earning" ADD CONSTRAINT "Earning_held_note_check"
  CHECK ("heldNote" IS NULL OR "heldReason" IS NOT NULL);
-- Money not yet paid is held: a paid order's was paid, a rejected one's is in no balance.
ALTER TABLE "Order" ADD CONSTRAINT "Order_held_check"
  CHECK ("heldReason" IS NULL OR "status" IN ('PENDING', 'APPROVED'));
ALTER TABLE "PayoutItem" ADD CONSTRAINT "PayoutItem_one_payee_check"
  CHECK (num_nonnulls("orderId", "earningId") = 1);
ALTER TABLE "PayoutItem" ADD CONSTRAINT "PayoutItem_held_earning_check"
  CHECK ("heldEarningId" IS NULL OR "heldEarningId" = "earningId");
ALTER TABLE "PayoutTerms" ADD CONSTRAINT "PayoutTerms_currency_check" CHECK ("currency" ~ '^[A-Z]{3}$');
ALTER TABLE "PayoutTerms" ADD CONSTRAINT "PayoutTerms_minimum_check" CHECK ("minimumMinor" >= 0);
ALTER TABLE "PayoutTerms" ADD CONSTRAINT "PayoutTerms_day_check" CHECK ("payoutDay" BETWEEN 1 AND 28);
-- One set of terms per affiliate and currency, and one of the network's per currency.
CREATE UNIQUE INDEX "PayoutTerms_affiliateId_currency_key" ON "PayoutTerms" ("affiliateId", "currency")
  NULLS NOT DISTINCT;
ALTER TABLE "PayoutTerms" ADD CONSTRAINT "PayoutTerms_affiliateId_fkey" FOREIGN KEY ("affiliateId")
  REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Payable: approved, locked, and not held.
CREATE OR REPLACE FUNCTION "order_is_payable"(o "Order") RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT o."status" = 'APPROVED' AND o."lockedAt" IS NOT NULL AND o."heldReason" IS NULL
$$;

-- As before (migration payouts), and HELD for a held order not yet paid or rejected.
CREATE OR REPLACE FUNCTION "order_balance_state"(o "Order", payout_status "PayoutStatus")
RETURNS "BalanceState" LANGUAGE sql IMMUTABLE AS $$
  SELECT (CASE
    WHEN o."status" = 'PAID' THEN 'PAID'
    WHEN o."status" = 'REJECTED' THEN NULL
    WHEN o."heldReason" IS NOT NULL THEN 'HELD'
    WHEN o."status" = 'PENDING' THEN 'PENDING'
    WHEN payout_status IN ('SCHEDULED', 'PROCESSING') THEN 'IN_PAYMENT'
    WHEN "order_is_payable"(o) THEN 'AVAILABLE'
    ELSE 'APPROVED'
  END)::"BalanceState"
$$;

-- The state an entry is counted in, given the status of the payout holding it (null: none).
CREATE FUNCTION "earning_balance_state"(e "Earning", payout_status "PayoutStatus")
RETURNS "BalanceState" LANGUAGE sql IMMUTABLE AS $$
  SELECT (CASE
    WHEN payout_status = 'PAID' THEN 'PAID'
    WHEN payout_status IN ('SCHEDULED', 'PROCESSING') THEN 'IN_PAYMENT'
    WHEN e."heldReason" IS NOT NULL THEN 'HELD'
    ELSE 'AVAILABLE'
  END)::"BalanceState"
$$;

-- As refresh_order_balances (migration payouts), for entries: each entry's recorded state leaves
-- its affiliate's total, its current one joins it. An entry a PAID payout paid stays PAID: its
-- item keeps holding it.
CREATE FUNCTION "refresh_earning_balances"(earning_ids uuid[]) RETURNS void LANGUAGE sql AS $$
  WITH current AS (
    SELECT e."id", e."affiliateId", e."currency", e."amountMinor",
      "earning_balance_state"(e, held."status") AS "state"
    FROM "Earning" e
    LEFT JOIN LATERAL (
      SELECT p."status" FROM "PayoutItem" i JOIN "Payout" p ON p."id" = i."payoutId"
      WHERE i."heldEarningId" = e."id"
    ) held ON true
    WHERE e."id" = ANY(earning_ids)
  ), recorded AS (
    SELECT * FROM "EarningBalance" WHERE "earningId" = ANY(earning_ids)
  ), changes AS (
    SELECT "affiliateId", "currency", "state", -1 AS "sign", "amountMinor" FROM recorded
    UNION ALL
    SELECT "affiliateId", "currency", "state", 1, "amountMinor" FROM current
  ), totals AS (
    INSERT INTO "AffiliateBalance" AS balance ("affiliateId", "currency", "state", "orders", "entries", "earningsMinor")
    SELECT "affiliateId", "currency", "state", 0, sum("sign"), sum("sign" * "amountMinor"::bigint)
    FROM changes
    GROUP BY "affiliateId", "currency", "state"
    HAVING sum("sign") <> 0 OR sum("sign" * "amountMinor"::bigint) <> 0
    ORDER BY "affiliateId", "currency", "state"
    ON CONFLICT ("affiliateId", "currency", "state")
    DO UPDATE SET "entries" = balance."entries" + excluded."entries",
      "earningsMinor" = balance."earningsMinor" + excluded."earningsMinor"
    RETURNING 1
  ), gone AS (
    DELETE FROM "EarningBalance" b
    WHERE b."earningId" = ANY(earning_ids) AND NOT EXISTS (SELECT 1 FROM current c WHERE c."id" = b."earningId")
    RETURNING 1
  )
  INSERT INTO "EarningBalance" AS b ("earningId", "affiliateId", "currency", "state", "amountMinor")
  SELECT "id", "affiliateId", "currency", "state", "amountMinor" FROM current
  ORDER BY "id"
  ON CONFLICT ("earningId") DO UPDATE SET "affiliateId" = excluded."affiliateId",
    "currency" = excluded."currency", "state" = excluded."state", "amountMinor" = excluded."amountMinor"
  WHERE (b."affiliateId", b."currency", b."state", b."amountMinor")
    IS DISTINCT FROM (excluded."affiliateId", excluded."currency", excluded."state", excluded."amountMinor")
$$;

CREATE FUNCTION "Earning_balance"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "refresh_earning_balances"(ARRAY(SELECT "id" FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "refresh_earning_balances"(ARRAY(SELECT "id" FROM new_rows UNION SELECT "id" FROM old_rows));
  ELSE
    PERFORM "refresh_earning_balances"(ARRAY(SELECT "id" FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Earning_balance_insert" AFTER INSERT ON "Earning"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "Earning_balance"();
CREATE TRIGGER "Earning_balance_update" AFTER UPDATE ON "Earning"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION "Earning_balance"();
CREATE TRIGGER "Earning_balance_delete" AFTER DELETE ON "Earning"
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "Earning_balance"();

-- An entry's rules, whoever writes it: a CLAWBACK takes back from a paid order of its affiliate, in
-- its currency, at most what the order earned in all (its clawbacks together, the order locked
-- while they are summed, so concurrent clawbacks cannot pass it); an entry a payout holds keeps
-- what the payout pays for and is not held; a paid entry does not change.
CREATE FUNCTION "guard_earning"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  placed record;
  taken bigint;
  holding record;
BEGIN
  NEW."updatedAt" := now() AT TIME ZONE 'UTC';
  IF NEW."heldReason" IS NULL THEN
    NEW."heldNote" := NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    NEW."createdAt" := OLD."createdAt";
    SELECT p."id", p."status" INTO holding
    FROM "PayoutItem" i JOIN "Payout" p ON p."id" = i."payoutId" WHERE i."heldEarningId" = OLD."id";
    IF FOUND AND ((NEW."affiliateId", NEW."currency", NEW."amountMinor", NEW."kind", NEW."orderId")
        IS DISTINCT FROM (OLD."affiliateId", OLD."currency", OLD."amountMinor", OLD."kind", OLD."orderId")
      OR (NEW."heldReason" IS NOT NULL AND OLD."heldReason" IS NULL)) THEN
      RAISE EXCEPTION 'entry % is in payout % (%): an entry of a payout keeps what it pays and is not held; fail or cancel the payout to free it',
        NEW."id", holding."id", holding."status"
        USING ERRCODE = 'check_violation', CONSTRAINT = 'Earning_in_payout';
    END IF;
  END IF;
  -- A clawback without its order is refused by "Earning_clawback_order_check".
  IF NEW."kind" <> 'CLAWBACK' OR NEW."orderId" IS NULL OR (TG_OP = 'UPDATE' AND (NEW."orderId", NEW."amountMinor") IS NOT DISTINCT FROM (OLD."orderId", OLD."amountMinor")) THEN
    RETURN NEW;
  END IF;
  SELECT o."id", o."affiliateId", o."currency", o."status", o."earningsMinor" INTO placed
  FROM "Order" o WHERE o."id" = NEW."orderId" FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'order % not found', NEW."orderId"
      USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'Earning_orderId_fkey';
  END IF;
  IF placed."status" <> 'PAID' OR placed."affiliateId" <> NEW."affiliateId" OR placed."currency" <> NEW."currency" THEN
    RAISE EXCEPTION 'a clawback of order % must be of a PAID order of the same affiliate, in its currency (it is % in %)',
      placed."id", placed."status", placed."currency"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Earning_clawback';
  END IF;
  SELECT coalesce(sum(e."amountMinor"), 0) INTO taken FROM "Earning" e
  WHERE e."orderId" = placed."id" AND e."kind" = 'CLAWBACK' AND e."id" <> NEW."id";
  IF taken + NEW."amountMinor" < -placed."earningsMinor" THEN
    RAISE EXCEPTION 'clawbacks of order % would take % back, more than the % it earned (minor units of %)',
      placed."id", -(taken + NEW."amountMinor"), placed."earningsMinor", placed."currency"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Earning_clawback';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "Earning_guard" BEFORE INSERT OR UPDATE ON "Earning"
FOR EACH ROW EXECUTE FUNCTION "guard_earning"();

-- As before (migration payouts), and: an order a payout holds is not held for review.
CREATE OR REPLACE FUNCTION "guard_order_in_payout"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  held record;
BEGIN
  SELECT p."id", p."status" INTO held
  FROM "PayoutItem" i JOIN "Payout" p ON p."id" = i."payoutId"
  WHERE i."heldOrderId" = NEW."id";
  IF NOT FOUND THEN
    RETURN NEW;
  END IF;
  IF NEW."status" IS DISTINCT FROM OLD."status" AND NOT (held."status" = 'PAID' AND NEW."status" = 'PAID') THEN
    RAISE EXCEPTION 'order % is in payout % (%): only payable orders are paid, and the orders of a payout change status only when it is paid (to PAID); fail or cancel the payout to free them',
      NEW."id", held."id", held."status"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Order_in_payout';
  END IF;
  IF (NEW."affiliateId", NEW."currency", NEW."earningsMinor", NEW."orderedAt")
     IS DISTINCT FROM (OLD."affiliateId", OLD."currency", OLD."earningsMinor", OLD."orderedAt") THEN
    RAISE EXCEPTION 'order % is in payout % (%): a payout''s amount is the sum of its items, so its orders keep their affiliate, currency, earnings and order time',
      NEW."id", held."id", held."status"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Order_in_payout';
  END IF;
  -- (A paid order is not held either: "Order_held_check" says so.)
  IF NEW."heldReason" IS NOT NULL AND OLD."heldReason" IS NULL AND held."status" <> 'PAID' THEN
    RAISE EXCEPTION 'order % is in payout % (%): an order in payment is not held; fail or cancel the payout first',
      NEW."id", held."id", held."status"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Order_in_payout';
  END IF;
  RETURN NEW;
END
$$;

DROP TRIGGER "Order_in_payout" ON "Order";
CREATE TRIGGER "Order_in_payout" BEFORE UPDATE OF "status", "affiliateId", "currency", "earningsMinor", "orderedAt", "heldReason" ON "Order"
FOR EACH ROW EXECUTE FUNCTION "guard_order_in_payout"();

-- A held order keeps its other rules: only its hold changes after its lock (migration
-- locked_order_frozen), so an order can be held or released whenever the network decides.
CREATE OR REPLACE FUNCTION "order_lifecycle_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  amounts_changed boolean := (NEW."transactionValueMinor", NEW."earningsMinor")
    IS DISTINCT FROM (OLD."transactionValueMinor", OLD."earningsMinor");
  status_changed boolean := NEW."status" IS DISTINCT FROM OLD."status";
  -- What a locked order may still change: its status (to PAID, below), its hold, and what the
  -- database keeps.
  moving constant text[] := ARRAY['status', 'updatedAt', 'lockedAt', 'heldReason', 'heldNote'];
BEGIN
  -- Kept by the database.
  NEW."originalTransactionValueMinor" := OLD."originalTransactionValueMinor";
  NEW."originalEarningsMinor" := OLD."originalEarningsMinor";
  NEW."locksAt" := OLD."locksAt";
  IF OLD."lockedAt" IS NOT NULL THEN
    NEW."lockedAt" := OLD."lockedAt";
  ELSIF NEW."lockedAt" IS NOT NULL AND NEW."lockedAt" < OLD."locksAt" THEN
    NEW."locksAt" := NEW."lockedAt";
  END IF;
  -- A rejection ends a hold: a rejected order's money is in no balance.
  IF NEW."status" = 'REJECTED' THEN
    NEW."heldReason" := NULL;
  END IF;
  IF NEW."heldReason" IS NULL THEN
    NEW."heldNote" := NULL;
  END IF;
  -- The clock at the stored precision: an order recorded in this transaction (its `locksAt` the
  -- transaction's start, rounded to the millisecond) is not locked before the transaction ends.
  IF (OLD."lockedAt" IS NOT NULL OR OLD."locksAt" < (now() AT TIME ZONE 'UTC')::timestamp(3))
     AND ((to_jsonb(NEW) - moving) IS DISTINCT FROM (to_jsonb(OLD) - moving)
          OR (status_changed AND NOT (OLD."status" = 'APPROVED' AND NEW."status" = 'PAID'))) THEN
    RAISE EXCEPTION 'order % is locked since %: it no longer changes, but for APPROVED to PAID',
      OLD."id", to_char(coalesce(OLD."lockedAt", OLD."locksAt"), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Order_locked';
  END IF;
  -- A reason explains a rejection or an adjustment: an order leaving REJECTED without a new one
  -- loses it.
  IF status_changed AND OLD."status" = 'REJECTED' AND NOT amounts_changed
     AND (NEW."statusReason", NEW."statusNote") IS NOT DISTINCT FROM (OLD."statusReason", OLD."statusNote") THEN
    NEW."statusReason" := NULL;
    NEW."statusNote" := NULL;
  END IF;
  IF (amounts_changed OR (status_changed AND NEW."status" = 'REJECTED')) AND NEW."statusReason" IS NULL THEN
    RAISE EXCEPTION 'order %: a % needs a statusReason', OLD."id",
      CASE WHEN amounts_changed THEN 'change of its amounts' ELSE 'rejection' END
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Order_reason_required';
  END IF;
  RETURN NEW;
END
$$;

-- As before (migration payouts), for an order's or an entry's item: an entry of the payout's
-- affiliate, in its currency, not held, its amount, in no other payout that holds it.
CREATE OR REPLACE FUNCTION "guard_payout_item"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  payout record;
  placed "Order";
  entry "Earning";
  other uuid;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF (NEW."payoutId", NEW."orderId", NEW."earningId", NEW."amountMinor", NEW."orderedAt")
       IS DISTINCT FROM (OLD."payoutId", OLD."orderId", OLD."earningId", OLD."amountMinor", OLD."orderedAt") THEN
      RAISE EXCEPTION 'payout item %: an item does not change; delete it and add another while its payout is SCHEDULED or PROCESSING', NEW."id"
        USING ERRCODE = 'check_violation', CONSTRAINT = 'PayoutItem_fixed';
    END IF;
    SELECT p."status" INTO payout FROM "Payout" p WHERE p."id" = NEW."payoutId";
    NEW."heldOrderId" := CASE WHEN payout."status" IN ('FAILED', 'CANCELLED') THEN NULL ELSE NEW."orderId" END;
    NEW."heldEarningId" := CASE WHEN payout."status" IN ('FAILED', 'CANCELLED') THEN NULL ELSE NEW."earningId" END;
    RETURN NEW;
  END IF;
  SELECT p."id", p."affiliateId", p."currency", p."status" INTO payout
  FROM "Payout" p WHERE p."id" = NEW."payoutId" FOR SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'payout % not found: a payout is written before its items, in an earlier statement', NEW."payoutId"
      USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'PayoutItem_payoutId_fkey';
  END IF;
  IF payout."status" NOT IN ('SCHEDULED', 'PROCESSING') THEN
    RAISE EXCEPTION 'payout % is %: a paid, failed or cancelled payout keeps its items', payout."id", payout."status"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'Payout_status';
  END IF;
  IF NEW."earningId" IS NOT NULL THEN
    SELECT * INTO entry FROM "Earning" e WHERE e."id" = NEW."earningId" FOR SHARE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'entry % not found', NEW."earningId"
        USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'PayoutItem_earningId_fkey';
    END IF;
    IF entry."affiliateId" <> payout."affiliateId" OR entry."currency" <> payout."currency" THEN
      RAISE EXCEPTION 'entry % is not the affiliate''s of payout % in its currency: a payout pays its own affiliate, in its currency', entry."id", payout."id"
        USING ERRCODE = 'check_violation', CONSTRAINT = 'PayoutItem_currency';
    END IF;
    IF entry."heldReason" IS NOT NULL THEN
      RAISE EXCEPTION 'entry % is held (%): held money is never paid', entry."id", entry."heldReason"
        USING ERRCODE = 'check_violation', CONSTRAINT = 'PayoutItem_payable';
    END IF;
    IF NEW."amountMinor" <> entry."amountMinor" THEN
      RAISE EXCEPTION 'the item of entry % pays % but the entry is % (minor units): a payout''s items pay their entries'' amounts',
        entry."id", NEW."amountMinor", entry."amountMinor"
        USING ERRCODE = 'check_violation', CONSTRAINT = 'PayoutItem_amount';
    END IF;
    SELECT i."payoutId" INTO other FROM "PayoutItem" i WHERE i."heldEarningId" = NEW."earningId";
    IF FOUND THEN
      RAISE EXCEPTION 'entry % is already in payout %: an entry is in at most one payout that is not cancelled or failed', NEW."earningId", other
        USING ERRCODE = 'unique_violation', CONSTRAINT = 'PayoutItem_heldEarningId_key';
    END IF;
    NEW."heldEarningId" := NEW."earningId";
    NEW."orderedAt" := entry."earnedAt";
    RETURN NEW;
  END IF;
  SELECT * INTO placed FROM "Order" o WHERE o."id" = NEW."orderId" FOR SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'order % not found', NEW."orderId"
      USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'PayoutItem_orderId_fkey';
  END IF;
  IF placed."affiliateId" <> payout."affiliateId" THEN
    RAISE EXCEPTION 'order % is not the affiliate''s of payout %: a payout pays its own affiliate''s orders', placed."id", payout."id"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'PayoutItem_affiliate';
  END IF;
  IF placed."currency" <> payout."currency" THEN
    RAISE EXCEPTION 'order % is in %, payout % in %: a payout''s amount is the sum of its items, in its currency',
      placed."id", placed."currency", payout."id", payout."currency"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'PayoutItem_currency';
  END IF;
  IF NOT "order_is_payable"(placed) THEN
    RAISE EXCEPTION 'order % is % and not payable: only payable (approved, locked, not held) orders are paid', placed."id", placed."status"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'PayoutItem_payable';
  END IF;
  IF NEW."amountMinor" <> placed."earningsMinor" THEN
    RAISE EXCEPTION 'the item of order % pays % but the order earned % (minor units): a payout''s items pay their orders'' earnings',
      placed."id", NEW."amountMinor", placed."earningsMinor"
      USING ERRCODE = 'check_violation', CONSTRAINT = 'PayoutItem_amount';
  END IF;
  SELECT i."payoutId" INTO other FROM "PayoutItem" i WHERE i."heldOrderId" = NEW."orderId";
  IF FOUND THEN
    RAISE EXCEPTION 'order % is already in payout %: an order is in at most one payout that is not cancelled or failed', NEW."orderId", other
      USING ERRCODE = 'unique_violation', CONSTRAINT = 'PayoutItem_heldOrderId_key';
  END IF;
  NEW."heldOrderId" := NEW."orderId";
  NEW."orderedAt" := placed."orderedAt";
  RETURN NEW;
END
$$;

-- As before (migration payouts), refreshing the balance of the entries they pay too.
CREATE OR REPLACE FUNCTION "PayoutItem_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "Payout" p SET "itemsMinor" = p."itemsMinor" + added."minor", "itemCount" = p."itemCount" + added."items"
    FROM (SELECT "payoutId", sum("amountMinor") AS "minor", count(*) AS "items" FROM new_rows GROUP BY "payoutId") added
    WHERE p."id" = added."payoutId";
    PERFORM "refresh_order_balances"(ARRAY(SELECT "orderId" FROM new_rows WHERE "orderId" IS NOT NULL));
    PERFORM "refresh_earning_balances"(ARRAY(SELECT "earningId" FROM new_rows WHERE "earningId" IS NOT NULL));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM 1 FROM "Order" WHERE "id" IN (SELECT "orderId" FROM old_rows) ORDER BY "id" FOR NO KEY UPDATE;
    PERFORM 1 FROM "Earning" WHERE "id" IN (SELECT "earningId" FROM old_rows) ORDER BY "id" FOR NO KEY UPDATE;
    UPDATE "Payout" p SET "itemsMinor" = p."itemsMinor" - removed."minor", "itemCount" = p."itemCount" - removed."items"
    FROM (SELECT "payoutId", sum("amountMinor") AS "minor", count(*) AS "items" FROM old_rows GROUP BY "payoutId") removed
    WHERE p."id" = removed."payoutId";
    PERFORM "refresh_order_balances"(ARRAY(SELECT "orderId" FROM old_rows WHERE "orderId" IS NOT NULL));
    PERFORM "refresh_earning_balances"(ARRAY(SELECT "earningId" FROM old_rows WHERE "earningId" IS NOT NULL));
  ELSE
    PERFORM "refresh_order_balances"(ARRAY(SELECT "orderId" FROM new_rows WHERE "orderId" IS NOT NULL));
    PERFORM "refresh_earning_balances"(ARRAY(SELECT "earningId" FROM new_rows WHERE "earningId" IS NOT NULL));
  END IF;
  RETURN NULL;
END
$$;

-- As before (migration payout_progress), and: the entries of a payout paid move to PAID in the
-- balance, those of a payout failed or cancelled are free again.
CREATE OR REPLACE FUNCTION "Payout_status_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unpayable record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "record_payout_webhook_event"(NEW, 'payout.scheduled', TG_TABLE_SCHEMA);
    IF NEW."status" = 'PROCESSING' THEN
      PERFORM "record_payout_webhook_event"(NEW, 'payout.processing', TG_TABLE_SCHEMA);
    END IF;
    RETURN NULL;
  END IF;
  IF NEW."status" = 'PROCESSING' THEN
    PERFORM "record_payout_webhook_event"(NEW, 'payout.processing', TG_TABLE_SCHEMA);
  ELSIF NEW."status" = 'PAID' THEN
    PERFORM 1 FROM "Order" WHERE "id" IN (SELECT "orderId" FROM "PayoutItem" WHERE "payoutId" = NEW."id")
    ORDER BY "id" FOR NO KEY UPDATE;
    SELECT o."id", o."status" INTO unpayable
    FROM "PayoutItem" i JOIN "Order" o ON o."id" = i."orderId"
    WHERE i."payoutId" = NEW."id" AND NOT "order_is_payable"(o)
    LIMIT 1;
    IF FOUND THEN
      RAISE EXCEPTION 'payout % cannot be paid: its order % is % and not payable (only payable orders are paid)', NEW."id", unpayable."id", unpayable."status"
        USING ERRCODE = 'check_violation', CONSTRAINT = 'PayoutItem_payable';
    END IF;
    UPDATE "Order" SET "status" = 'PAID'
    WHERE "id" IN (SELECT "orderId" FROM "PayoutItem" WHERE "payoutId" = NEW."id");
    PERFORM "refresh_earning_balances"(ARRAY(
      SELECT "earningId" FROM "PayoutItem" WHERE "payoutId" = NEW."id" AND "earningId" IS NOT NULL));
    PERFORM "record_payout_webhook_event"(NEW, 'payout.paid', TG_TABLE_SCHEMA);
  ELSIF NEW."status" IN ('FAILED', 'CANCELLED') THEN
    PERFORM 1 FROM "Order" WHERE "id" IN (SELECT "orderId" FROM "PayoutItem" WHERE "payoutId" = NEW."id")
    ORDER BY "id" FOR NO KEY UPDATE;
    UPDATE "PayoutItem" SET "heldOrderId" = NULL, "heldEarningId" = NULL WHERE "payoutId" = NEW."id";
    PERFORM "record_payout_webhook_event"(NEW, lower('payout.' || NEW."status"::text), TG_TABLE_SCHEMA);
  END IF;
  RETURN NULL;
END
$$;

-- As before (migration order_event_lock_dates), and a HELD or RELEASED event when an order's hold
-- changes (a new reason is held again).
CREATE OR REPLACE FUNCTION "record_order_events"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  at timestamp(3) := now() AT TIME ZONE 'UTC';
  reason_given boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status", "reason",
      "note", "currency", "transactionValueMinor", "earningsMinor", "locksAt", "occurredAt")
    VALUES (gen_random_uuid(), NEW."affiliateId", "next_order_event_number"(NEW."affiliateId"),
      NEW."id", 'CREATED', NEW."status", NEW."statusReason", NEW."statusNote", NEW."currency",
      NEW."transactionValueMinor", NEW."earningsMinor", NEW."locksAt", at);
    RETURN NULL;
  END IF;
  reason_given := NEW."status" = 'REJECTED'
    OR (NEW."statusReason", NEW."statusNote") IS DISTINCT FROM (OLD."statusReason", OLD."statusNote");
  IF (NEW."transactionValueMinor", NEW."earningsMinor")
     IS DISTINCT FROM (OLD."transactionValueMinor", OLD."earningsMinor") THEN
    INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status", "reason",
      "note", "currency", "transactionValueMinor", "earningsMinor", "previousTransactionValueMinor",
      "previousEarningsMinor", "locksAt", "occurredAt")
    VALUES (gen_random_uuid(), NEW."affiliateId", "next_order_event_number"(NEW."affiliateId"),
      NEW."id", 'ADJUSTED', NEW."status", NEW."statusReason", NEW."statusNote", NEW."currency",
      NEW."transactionValueMinor", NEW."earningsMinor", OLD."transactionValueMinor",
      OLD."earningsMinor", NEW."locksAt", at);
  END IF;
  IF NEW."status" IS DISTINCT FROM OLD."status" THEN
    INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status",
      "previousStatus", "reason", "note", "currency", "transactionValueMinor", "earningsMinor",
      "locksAt", "occurredAt")
    VALUES (gen_random_uuid(), NEW."affiliateId", "next_order_event_number"(NEW."affiliateId"),
      NEW."id", 'STATUS_CHANGED', NEW."status", OLD."status",
      CASE WHEN reason_given THEN NEW."statusReason" END,
      CASE WHEN reason_given THEN NEW."statusNote" END,
      NEW."currency", NEW."transactionValueMinor", NEW."earningsMinor", NEW."locksAt", at);
    IF NEW."status" = 'PAID' THEN
      INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status",
        "previousStatus", "currency", "transactionValueMinor", "earningsMinor", "locksAt",
        "occurredAt")
      VALUES (gen_random_uuid(), NEW."affiliateId", "next_order_event_number"(NEW."affiliateId"),
        NEW."id", 'PAID', NEW."status", OLD."status", NEW."currency", NEW."transactionValueMinor",
        NEW."earningsMinor", NEW."locksAt", at);
    END IF;
  END IF;
  IF NEW."heldReason" IS DISTINCT FROM OLD."heldReason" THEN
    INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status",
      "heldReason", "note", "currency", "transactionValueMinor", "earningsMinor", "locksAt",
      "occurredAt")
    VALUES (gen_random_uuid(), NEW."affiliateId", "next_order_event_number"(NEW."affiliateId"),
      NEW."id", CASE WHEN NEW."heldReason" IS NULL THEN 'RELEASED' ELSE 'HELD' END::"OrderEventType",
      NEW."status", NEW."heldReason", NEW."heldNote", NEW."currency", NEW."transactionValueMinor",
      NEW."earningsMinor", NEW."locksAt", at);
  END IF;
  IF OLD."lockedAt" IS NULL AND NEW."lockedAt" IS NOT NULL THEN
    INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status", "currency",
      "transactionValueMinor", "earningsMinor", "locksAt", "occurredAt")
    VALUES (gen_random_uuid(), NEW."affiliateId", "next_order_event_number"(NEW."affiliateId"),
      NEW."id", 'LOCKED', NEW."status", NEW."currency", NEW."transactionValueMinor",
      NEW."earningsMinor", NEW."locksAt", at);
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER "Order_events_changed" ON "Order";
CREATE TRIGGER "Order_events_changed" AFTER UPDATE ON "Order" FOR EACH ROW
WHEN ((OLD."status", OLD."transactionValueMinor", OLD."earningsMinor", OLD."lockedAt", OLD."heldReason")
      IS DISTINCT FROM (NEW."status", NEW."transactionValueMinor", NEW."earningsMinor", NEW."lockedAt", NEW."heldReason"))
EXECUTE FUNCTION "record_order_events"();

-- A new entry is an event, sent as order and payout events are (migration payouts): an event, and
-- a delivery for each endpoint of its affiliate subscribed to `earning.created`. A clawback is an
-- event of its order too (CLAWBACK, sent as `order.clawback`).
CREATE FUNCTION "record_earning_webhook_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_id uuid := gen_random_uuid();
  event_seq bigint;
  at timestamp(3) := now() AT TIME ZONE 'UTC';
BEGIN
  IF NEW."kind" = 'CLAWBACK' THEN
    INSERT INTO "OrderEvent" ("id", "affiliateId", "number", "orderId", "type", "status", "note",
      "currency", "transactionValueMinor", "earningsMinor", "locksAt", "earningId", "clawbackMinor",
      "occurredAt")
    SELECT gen_random_uuid(), o."affiliateId", "next_order_event_number"(o."affiliateId"), o."id",
      'CLAWBACK', o."status", NEW."reason", o."currency", o."transactionValueMinor",
      o."earningsMinor", o."locksAt", NEW."id", NEW."amountMinor", at
    FROM "Order" o WHERE o."id" = NEW."orderId";
  END IF;
  INSERT INTO "WebhookEvent" ("id", "type", "earningId", "occurredAt")
  VALUES (event_id, 'earning.created', NEW."id", at)
  RETURNING "seq" INTO event_seq;
  INSERT INTO "WebhookDelivery" ("id", "eventId", "endpointId", "seq", "nextAttemptAt", "createdAt")
  SELECT gen_random_uuid(), event_id, endpoint."id", event_seq, at, at
  FROM "WebhookEndpoint" endpoint
  WHERE endpoint."ownerId" = NEW."affiliateId" AND endpoint."enabled"
    AND endpoint."deletedAt" IS NULL AND 'earning.created' = ANY(endpoint."events");
  IF FOUND THEN
    PERFORM pg_notify('webhook_deliveries', TG_TABLE_SCHEMA);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Earning_created_event" AFTER INSERT ON "Earning"
FOR EACH ROW EXECUTE FUNCTION "record_earning_webhook_event"();
