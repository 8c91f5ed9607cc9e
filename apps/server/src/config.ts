import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** The smallest JWT secret accepted: 256 bits (security.md item 9). */
export const MIN_SECRET_BYTES = 32;

const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/**
 * Every environment variable the server reads, with its default. The README's configuration
 * table is this list; keep them together.
 */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  DATABASE_MIGRATE_URL: z.string().optional(),
  JWT_SECRET: z.string().optional(),
  SECRETS_KEY: z.string().optional(),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(12),
  MUSTARD_DEMO_PASSWORD: z.string().min(8).default('Mustard@2026'),
  SEED_DEMO: boolish.optional(),
  EXTERNAL_SIGNIN_DOMAINS: z.string().default(''),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(60),
  AUTH_MAX_FAILURES: z.coerce.number().int().positive().default(10),
  AUTH_CACHE_SECONDS: z.coerce.number().min(0).max(3600).optional(),
  TRUST_PROXY: boolish.default(false),
  HEADERS_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(120),
  KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(72),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  NODE_ENV: z.string().optional(),
  PDF_QUEUE_PER_SCHOOL: z.coerce.number().int().positive().optional(),
  PDF_QUEUE_TOTAL: z.coerce.number().int().positive().optional(),
  SMTP_URL: z
    .string()
    .regex(/^(smtps?:\/\/.+)?$/, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z
    .string()
    .regex(/^[^\r\n]+$/, 'must be one line')
    .default('Mustard <no-reply@localhost>'),
  PUBLIC_URL: z
    .string()
    .regex(/^(https?:\/\/[^\s]+)?$/, 'must be an http:// or https:// URL')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^(rediss?:\/\/.+)?$/, 'must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,40}$/, 'must be 1 to 40 letters, digits, dots, dashes or underscores')
    .default('mustard'),
  JOB_LOCK_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
  EFRIS_FAKE: boolish.optional(),
  EFRIS_FAKE_FILE: z.string().optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection the app serves with; absent means the embedded database in dataDir. */
  databaseUrl: string | undefined;
  /** PostgreSQL connection that owns the schema and runs migrations (PostgreSQL only). */
  databaseMigrateUrl: string | undefined;
  jwtSecret: Uint8Array;
  /**
   * The key the secrets Mustard keeps for others are sealed with (an external sign-in provider's
   * client secret): SECRETS_KEY, else one generated on first start into the data directory.
   */
  secretsKey: Uint8Array;
  sessionTtlSeconds: number;
  demoPassword: string;
  /**
   * Seed the demo on an empty database: by default only on the embedded database and never in
   * production (NODE_ENV=production), where its published password must be asked for explicitly.
   */
  seedDemo: boolean;
  authRateLimitPerMinute: number;
  authMaxFailures: number;
  /** Seconds sign-in state may be cached in memory; unset: 60 (exact on both databases, see AuthCache). */
  authCacheSeconds: number | undefined;
  trustProxy: boolean;
  /** Seconds a client may take to send a request's headers; a connection that sends nothing is closed then too. */
  headersTimeoutSeconds: number;
  /** Seconds a client may take to send a whole request, headers and body (an upload on a slow line included). */
  requestTimeoutSeconds: number;
  /** Seconds a kept-alive connection may stay idle between two requests. */
  keepAliveTimeoutSeconds: number;
  logLevel: string;
  /** The built web application served at /, if present. */
  webDist: string;
  /** Report card and mark sheet PDFs one school may have admitted at once (waiting or drawn); unset: DEFAULT_DOCUMENT_LIMITS. */
  pdfQueuePerSchool?: number | undefined;
  /** Such PDFs admitted at once, every school's; unset: DEFAULT_DOCUMENT_LIMITS. */
  pdfQueueTotal?: number | undefined;
  /** Where mail goes out (smtp:// or smtps://); unset: messages stay in the outbox, shown to a platform administrator. */
  smtpUrl?: string | undefined;
  /** The From of every message, e.g. `Mustard <no-reply@school.example>`. */
  mailFrom: string;
  /** The address people reach this server at: the base of every link in a message (no trailing slash). */
  publicUrl: string;
  /**
   * Redis shared by every server and worker of an installation (redis:// or rediss://): request
   * rate limits, sign-in failure counters, the document admissions and the job queues (BullMQ).
   * Unset (the default, and the embedded database's way): all of it in this process.
   */
  redisUrl?: string | undefined;
  /** What every key and queue of this installation starts with in Redis, so installations (or test runs) can share one Redis. */
  redisPrefix: string;
  /** Seconds a worker's claim on a job lasts unrenewed: a worker killed mid-job has its job taken by another after about this long. */
  jobLockSeconds: number;
  /**
   * Serve the local fake of URA's EFRIS API at /efris-fake/ws/taapp/getInformation and let a
   * business's device in 'fake' mode use it (EFRIS_FAKE; default on outside production, never
   * on in production unless asked). Everything it issues is marked SIMULATED.
   */
  efrisFake?: boolean;
  /** A JSON file the fake keeps its store in across restarts (EFRIS_FAKE_FILE; default on the embedded database: efris-fake.json in the data directory; on PostgreSQL unset: in memory). */
  efrisFakeFile?: string | undefined;
  /** Tests only: the EFRIS worker's timings in milliseconds (modules/efris/worker.ts has the defaults). */
  efrisTiming?: {
    pollMs?: number;
    retryBaseMs?: number;
    retryCapMs?: number;
    timeoutMs?: number;
    approvalPollMs?: number;
    hints?: boolean;
  };
  /** Tests only: the mail sender's timings in milliseconds, shorter than a deployment's (mail/sender.ts has the defaults). */
  mailTiming?: { pollMs?: number; retryBaseMs?: number; retryCapMs?: number; maxAttempts?: number; claimLeaseMs?: number };
  /**
   * Tests only: drop the code's own tenant filters so a test can prove that row-level
   * security alone keeps tenants apart. Never set in production.
   */
  skipCodeTenantFilter: boolean;
}

export class ConfigError extends Error {}

/**
 * The JWT secret: JWT_SECRET when set (at least 32 bytes), otherwise a random one generated
 * on first start and kept in the data directory so sessions survive restarts.
 */
export function resolveJwtSecret(fromEnv: string | undefined, dataDir: string): Uint8Array {
  return resolveStoredSecret('JWT_SECRET', fromEnv, dataDir, 'jwt-secret');
}

/**
 * A secret of at least 32 bytes: the environment's when set, otherwise a random one generated on
 * first start into `fileName` in the data directory (readable by its owner alone), kept there so
 * what it protects survives restarts.
 */
export function resolveStoredSecret(variable: string, fromEnv: string | undefined, dataDir: string, fileName: string): Uint8Array {
  if (fromEnv !== undefined) {
    const bytes = Buffer.from(fromEnv, 'utf8');
    if (bytes.length < MIN_SECRET_BYTES) {
      throw new ConfigError(`${variable} must be at least ${MIN_SECRET_BYTES} bytes; it is ${bytes.length}.`);
    }
    return new Uint8Array(bytes);
  }
  const file = path.join(dataDir, fileName);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  const stored = readFileSync(file, 'utf8').trim();
  if (Buffer.byteLength(stored) < MIN_SECRET_BYTES) {
    throw new ConfigError(`${file} holds a secret shorter than ${MIN_SECRET_BYTES} bytes; remove it to make a new one.`);
  }
  return new Uint8Array(Buffer.from(stored, 'utf8'));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.HEADERS_TIMEOUT_SECONDS > e.REQUEST_TIMEOUT_SECONDS) {
    throw new ConfigError('HEADERS_TIMEOUT_SECONDS must not be longer than REQUEST_TIMEOUT_SECONDS (the headers are part of the request).');
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL || undefined,
    databaseMigrateUrl: e.DATABASE_MIGRATE_URL || undefined,
    jwtSecret: resolveJwtSecret(e.JWT_SECRET, dataDir),
    secretsKey: resolveStoredSecret('SECRETS_KEY', e.SECRETS_KEY, dataDir, 'secrets-key'),
    sessionTtlSeconds: Math.round(e.SESSION_TTL_HOURS * 3600),
    demoPassword: e.MUSTARD_DEMO_PASSWORD,
    seedDemo: e.SEED_DEMO ?? (!e.DATABASE_URL && e.NODE_ENV !== 'production'),
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    authMaxFailures: e.AUTH_MAX_FAILURES,
    authCacheSeconds: e.AUTH_CACHE_SECONDS,
    trustProxy: e.TRUST_PROXY,
    headersTimeoutSeconds: e.HEADERS_TIMEOUT_SECONDS,
    requestTimeoutSeconds: e.REQUEST_TIMEOUT_SECONDS,
    keepAliveTimeoutSeconds: e.KEEP_ALIVE_TIMEOUT_SECONDS,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    pdfQueuePerSchool: e.PDF_QUEUE_PER_SCHOOL,
    pdfQueueTotal: e.PDF_QUEUE_TOTAL,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    publicUrl: (e.PUBLIC_URL || `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    redisUrl: e.REDIS_URL || undefined,
    redisPrefix: e.REDIS_PREFIX,
    jobLockSeconds: e.JOB_LOCK_SECONDS,
    efrisFake: e.EFRIS_FAKE ?? e.NODE_ENV !== 'production',
    // On the embedded database (the demo's `npm start`) the fake keeps its store beside the data, so
    // the FDNs it gave and the products it knows survive a restart as the shop's own records do.
    efrisFakeFile: e.EFRIS_FAKE_FILE || (e.DATABASE_URL ? undefined : path.join(dataDir, 'efris-fake.json')),
    skipCodeTenantFilter: false,
  };
}
