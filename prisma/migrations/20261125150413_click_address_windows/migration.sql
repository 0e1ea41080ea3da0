-- CreateTable
CREATE TABLE "RecentClickAddress" (
    "linkId" UUID NOT NULL,
    "address" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "clients" INTEGER NOT NULL,

    CONSTRAINT "RecentClickAddress_pkey" PRIMARY KEY ("linkId","address")
);

-- CreateIndex
CREATE INDEX "RecentClickAddress_windowStart_idx" ON "RecentClickAddress"("windowStart");

-- AddForeignKey
ALTER TABLE "RecentClickAddress" ADD CONSTRAINT "RecentClickAddress_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "ShortUrl"("id") ON DELETE CASCADE ON UPDATE CASCADE;
