import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const fresh = () => mkdtempSync(path.join(tmpdir(), 'mustard-config-'));

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({ DATA_DIR: fresh() });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.seedDemo).toBe(true);
    expect(config.sessionTtlSeconds).toBe(12 * 3600);
    expect(config.demoPassword).toBe('Mustard@2026');
  });

  it('keeps the EFRIS fake beside the embedded database, so its FDNs survive a restart; in memory on PostgreSQL unless told', () => {
    const dir = fresh();
    expect(loadConfig({ DATA_DIR: dir }).efrisFakeFile).toBe(path.join(dir, 'efris-fake.json'));
    expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://localhost/x' }).efrisFakeFile).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir, EFRIS_FAKE_FILE: '/tmp/ura.json' }).efrisFakeFile).toBe('/tmp/ura.json');
    expect(loadConfig({ DATA_DIR: dir, NODE_ENV: 'production' }).efrisFake).toBe(false);
  });

  it('refuses a JWT secret shorter than 32 bytes', () => {
    expect(() => loadConfig({ DATA_DIR: fresh(), JWT_SECRET: 'short-secret' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: fresh(), JWT_SECRET: 'x'.repeat(32) })).not.toThrow();
  });

  it('generates a secret once into the data directory and keeps it', () => {
    const dir = fresh();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(Buffer.from(second.jwtSecret).equals(Buffer.from(first.jwtSecret))).toBe(true);
    const file = path.join(dir, 'jwt-secret');
    expect(readFileSync(file, 'utf8').length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it('seals secrets with SECRETS_KEY (at least 32 bytes), else with a key generated once into the data directory', () => {
    expect(() => loadConfig({ DATA_DIR: fresh(), SECRETS_KEY: 'short-key' })).toThrow(/SECRETS_KEY must be at least 32 bytes/);
    const given = loadConfig({ DATA_DIR: fresh(), SECRETS_KEY: 'k'.repeat(40) });
    expect(Buffer.from(given.secretsKey).toString()).toBe('k'.repeat(40));
    const dir = fresh();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(Buffer.from(second.secretsKey).equals(Buffer.from(first.secretsKey))).toBe(true);
    expect(Buffer.from(first.secretsKey).equals(Buffer.from(first.jwtSecret))).toBe(false);
    expect(statSync(path.join(dir, 'secrets-key')).mode & 0o077).toBe(0);
  });

  it('no longer reads EXTERNAL_SIGNIN_DOMAINS: the domains are in the database (issue 29 point 6)', () => {
    expect(Object.keys(loadConfig({ DATA_DIR: fresh(), EXTERNAL_SIGNIN_DOMAINS: 'kings.ac.ug=https://sso.kings.ac.ug' }))).not.toContain(
      'externalSignInDomains',
    );
  });

  it('names every invalid variable', () => {
    expect(() => loadConfig({ DATA_DIR: fresh(), PORT: 'eighty', LOG_LEVEL: 'loud' })).toThrow(/PORT[\s\S]*LOG_LEVEL|LOG_LEVEL[\s\S]*PORT/);
  });

  it('times slow clients out: 30 s for the headers, 120 s for the whole request, 72 s idle; headers never longer than the request', () => {
    const defaults = loadConfig({ DATA_DIR: fresh() });
    expect([defaults.headersTimeoutSeconds, defaults.requestTimeoutSeconds, defaults.keepAliveTimeoutSeconds]).toEqual([30, 120, 72]);
    const set = loadConfig({
      DATA_DIR: fresh(),
      HEADERS_TIMEOUT_SECONDS: '5',
      REQUEST_TIMEOUT_SECONDS: '600',
      KEEP_ALIVE_TIMEOUT_SECONDS: '65',
    });
    expect([set.headersTimeoutSeconds, set.requestTimeoutSeconds, set.keepAliveTimeoutSeconds]).toEqual([5, 600, 65]);
    expect(() => loadConfig({ DATA_DIR: fresh(), HEADERS_TIMEOUT_SECONDS: '60', REQUEST_TIMEOUT_SECONDS: '30' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: fresh(), REQUEST_TIMEOUT_SECONDS: '0' })).toThrow(/REQUEST_TIMEOUT_SECONDS/);
  });

  it('does not seed the demo on PostgreSQL unless asked', () => {
    expect(loadConfig({ DATA_DIR: fresh(), DATABASE_URL: 'postgres://x@y/z' }).seedDemo).toBe(false);
    expect(loadConfig({ DATA_DIR: fresh(), DATABASE_URL: 'postgres://x@y/z', SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });

  it('does not seed the demo in production unless asked, even on the embedded database', () => {
    expect(loadConfig({ DATA_DIR: fresh(), NODE_ENV: 'production' }).seedDemo).toBe(false);
    expect(loadConfig({ DATA_DIR: fresh(), NODE_ENV: 'production', SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ DATA_DIR: fresh(), NODE_ENV: 'development' }).seedDemo).toBe(true);
  });
});
