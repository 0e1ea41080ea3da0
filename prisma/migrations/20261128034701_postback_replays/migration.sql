-- CreateTable
CREATE TABLE "PostbackReplay" (
    "id" UUID NOT NULL,
    "postbackId" UUID NOT NULL,
    "since" TIMESTAMP(3) NOT NULL,
    "until" TIMESTAMP(3) NOT NULL,
    "queued" INTEGER NOT NULL,
    "alreadyQueued" INTEGER NOT NULL,
    "forced" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PostbackReplay_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PostbackReplay_postbackId_since_until_createdAt_idx" ON "PostbackReplay"("postbackId", "since", "until", "createdAt");

-- AddForeignKey
ALTER TABLE "PostbackReplay" ADD CONSTRAINT "PostbackReplay_postbackId_fkey" FOREIGN KEY ("postbackId") REFERENCES "Postback"("id") ON DELETE CASCADE ON UPDATE CASCADE;
