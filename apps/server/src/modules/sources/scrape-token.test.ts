import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../../../test/test-database.ts';
import { InstanceSecretsRepository } from '../instance/instance-secrets.repository.ts';
import { ScrapeTokens } from './scrape-token.ts';

const databases: TestDatabase[] = [];
afterEach(async () => {
  for (const db of databases.splice(0)) await db.destroy();
});

describe(`scrape tokens (${testDialect})`, () => {
  it('issues a JWT that is valid until it expires, with a key every process of the instance shares', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    let now = Date.parse('2026-01-01T00:00:00Z');
    const processA = new ScrapeTokens({
      secrets: new InstanceSecretsRepository(database.db),
      ttlSeconds: 600,
      now: () => now,
    });
    const processB = new ScrapeTokens({
      secrets: new InstanceSecretsRepository(database.db),
      ttlSeconds: 600,
      now: () => now,
    });
    const token = await processA.issue();
    const [, payload] = token.split('.');
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toMatchObject({
      exp: now / 1000 + 600,
      aud: 'marquee-scrape',
    });
    expect(await processB.isValid(token)).toBe(true);
    now += 601_000;
    expect(await processA.isValid(token)).toBe(false);
  });

  it('refuses tokens signed with another key, tampered or not a JWT', async () => {
    const [one, two] = [await createTestDatabase(), await createTestDatabase()];
    databases.push(one, two);
    const now = () => Date.now();
    const mine = new ScrapeTokens({ secrets: new InstanceSecretsRepository(one.db), ttlSeconds: 600, now });
    const theirs = new ScrapeTokens({ secrets: new InstanceSecretsRepository(two.db), ttlSeconds: 600, now });
    const token = await theirs.issue();
    expect(await mine.isValid(token)).toBe(false);
    const own = await mine.issue();
    const [header, payload, signature] = own.split('.');
    const forged = Buffer.from(JSON.stringify({ aud: 'marquee-scrape', exp: 9_999_999_999 })).toString(
      'base64url',
    );
    expect(await mine.isValid(`${header}.${forged}.${signature}`)).toBe(false);
    expect(await mine.isValid(`${header}.${payload}.`)).toBe(false);
    expect(await mine.isValid('not-a-token')).toBe(false);
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    expect(await mine.isValid(none)).toBe(false);
  });
});
