-- CreateEnum
CREATE TYPE "ApiKeyEventKind" AS ENUM ('CREATED', 'ROTATED', 'REVOKED', 'USED_AFTER_REVOCATION');

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "lastRevokedUseAt" TIMESTAMP(3),
ADD COLUMN     "previousSecretVersion" "KeyVersion";

-- CreateTable
CREATE TABLE "ApiKeyEvent" (
    "id" UUID NOT NULL,
    "keyId" UUID NOT NULL,
    "kind" "ApiKeyEventKind" NOT NULL,
    "actorUserId" UUID,
    "ip" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApiKeyEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ApiKeyEvent_keyId_createdAt_idx" ON "ApiKeyEvent"("keyId", "createdAt");

-- CreateIndex
CREATE INDEX "ApiKey_previousSecretHash_idx" ON "ApiKey"("previousSecretHash");

-- CreateIndex
CREATE INDEX "IdempotencyRecord_createdAt_idx" ON "IdempotencyRecord"("createdAt");

-- AddForeignKey
ALTER TABLE "ApiKeyEvent" ADD CONSTRAINT "ApiKeyEvent_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "ApiKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;

