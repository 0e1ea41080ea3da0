-- CreateTable
CREATE TABLE "RecentClick" (
    "linkId" UUID NOT NULL,
    "client" TEXT NOT NULL,
    "countedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RecentClick_pkey" PRIMARY KEY ("linkId","client")
);

-- CreateIndex
CREATE INDEX "RecentClick_countedAt_idx" ON "RecentClick"("countedAt");

-- AddForeignKey
ALTER TABLE "RecentClick" ADD CONSTRAINT "RecentClick_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "ShortUrl"("id") ON DELETE CASCADE ON UPDATE CASCADE;

