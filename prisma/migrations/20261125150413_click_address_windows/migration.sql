-- DropForeignKey: a check per counted click, for rows swept a minute later anyway.
ALTER TABLE "RecentClick" DROP CONSTRAINT "RecentClick_linkId_fkey";

-- AlterTable: rows counted before keep no address; they leave the window within a minute.
ALTER TABLE "RecentClick" ADD COLUMN "address" TEXT NOT NULL DEFAULT '';
ALTER TABLE "RecentClick" ALTER COLUMN "address" DROP DEFAULT;

-- CreateTable
CREATE TABLE "RecentClickAddress" (
    "linkId" UUID NOT NULL,
    "address" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "counted" INTEGER NOT NULL,
    "admitted" INTEGER NOT NULL,

    CONSTRAINT "RecentClickAddress_pkey" PRIMARY KEY ("linkId","address")
);

-- CreateIndex
CREATE INDEX "RecentClickAddress_windowStart_idx" ON "RecentClickAddress"("windowStart");

