import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../core/config.ts';

/**
 * Webhook signing secrets must be readable to sign with, so they are stored encrypted
 * (AES-256-GCM) under LANDGRAPH_WEBHOOK_SECRET_KEY, or, when that is unset on the embedded
 * default, under a random key kept in the data folder (mode 0600). A database dump alone then
 * does not reveal the secrets.
 */
const KEY_FILE = 'webhook-secret.key';

export function webhookKey(config: Pick<Config, 'webhookSecretKey' | 'dataDir' | 'databaseUrl'>): Buffer {
  if (config.webhookSecretKey) return createHash('sha256').update(config.webhookSecretKey, 'utf8').digest();
  const file = join(config.dataDir, KEY_FILE);
  if (!existsSync(file)) {
    // Processes sharing the data folder share this key; processes on other hosts (workers of one
    // PostgreSQL) must all be given LANDGRAPH_WEBHOOK_SECRET_KEY instead.
    mkdirSync(config.dataDir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
      chmodSync(file, 0o600);
    } catch (error) {
      // another process made it first: use theirs
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return createHash('sha256').update(readFileSync(file, 'utf8').trim(), 'utf8').digest();
}

export function encryptSecret(key: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `v1:${iv.toString('base64')}:${cipher.getAuthTag().toString('base64')}:${body.toString('base64')}`;
}

export function decryptSecret(key: Buffer, stored: string): string {
  const [version, iv, tag, body] = stored.split(':');
  if (version !== 'v1' || !iv || !tag || !body) throw new Error('unreadable webhook secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
}

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}
