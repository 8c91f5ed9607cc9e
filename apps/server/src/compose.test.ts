import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from './cli.js';
import { loadConfig } from './config.js';

/*
 * compose.yaml (docs/DEPLOY.md) is read by no code of ours and run by no test here (this machine
 * has no container engine), so nothing else would notice it drift from the server: a variable
 * renamed in config.ts, a command or file moved, a secret given to the servers and not the
 * workers. These checks read it as Docker Compose does (YAML with merge keys) against the code.
 */

const SRC = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(SRC, '..', '..', '..');

interface ComposeService {
  build?: unknown;
  image?: string;
  command?: string[];
  environment?: Record<string, string | number | boolean | null>;
  volumes?: string[];
}

const compose = parse(readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
/** The services that run Mustard's own image: the app servers, the workers and the migration. */
const mustard = Object.entries(compose.services).filter(([, service]) => service.build === '.' || service.image === 'mustard:local');
const byName = (name: string) => compose.services[name] as ComposeService;

/** Every variable the server reads: the keys of config.ts's EnvSchema, and any `process.env.X` in its sources. */
function variablesTheServerReads(): Set<string> {
  const config = readFileSync(path.join(SRC, 'config.ts'), 'utf8');
  const schema = config.slice(config.indexOf('const EnvSchema = z.object({'), config.indexOf('\n});', config.indexOf('const EnvSchema')));
  const names = new Set([...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1] as string));
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((entry) => {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) return ['test', 'operations', 'security'].includes(entry) ? [] : walk(full);
      return full.endsWith('.ts') && !full.endsWith('.test.ts') ? [full] : [];
    });
  for (const file of walk(SRC)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) names.add(match[1] as string);
  }
  return names;
}

/** Compose's interpolation, as an operator's environment would fill it: `${X:-default}` its default, `${X:?why}` a value that passes. */
function interpolated(value: string): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g, (_whole, name: string, kind?: string, rest?: string) => {
    if (kind === '-') return rest ?? '';
    if (/SECRET|KEY/.test(name)) return 'a-secret-of-at-least-32-bytes-0123456789';
    return `${name.toLowerCase()}-value`;
  });
}

describe('compose.yaml', () => {
  it('has the topology of docs/DEPLOY.md: PostgreSQL, Redis, a migration, app servers, workers and a load balancer', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['app', 'balancer', 'migrate', 'postgres', 'redis', 'worker']);
    expect(mustard.map(([name]) => name).sort()).toEqual(['app', 'migrate', 'worker']);
    expect(byName('app').command).toEqual(['node', '--import', 'tsx', 'apps/server/src/server.ts']);
    expect(byName('worker').command).toEqual(['node', '--import', 'tsx', 'apps/server/src/cli.ts', 'worker']);
    expect(byName('migrate').command).toEqual(['node', '--import', 'tsx', 'apps/server/src/cli.ts', 'migrate']);
  });

  it('runs commands the mustard command knows', async () => {
    const usage = await runCli(['help']);
    for (const [name, service] of mustard) {
      const [, , , script, command] = service.command ?? [];
      if (script === 'apps/server/src/cli.ts') expect(usage, `${name}: ${command}`).toMatch(new RegExp(`^ {2}${command} `, 'm'));
    }
  });

  it("gives Mustard's processes only variables the server reads (config.ts), each in the README's table", () => {
    const known = variablesTheServerReads();
    // The schema is found: a change of config.ts's shape must not leave this test checking nothing.
    expect(known).toContain('DATABASE_URL');
    expect(known).toContain('JOB_LOCK_SECONDS');
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    for (const [name, service] of mustard) {
      for (const variable of Object.keys(service.environment ?? {})) {
        expect(known.has(variable), `${name}: ${variable} is read nowhere in the server`).toBe(true);
        expect(readme, `${name}: ${variable} is missing from the README's configuration table`).toContain(`| \`${variable}\` |`);
      }
    }
  });

  it('gives the app servers and the workers the same database, Redis, prefix, secrets and files', () => {
    const app = byName('app').environment ?? {};
    const worker = byName('worker').environment ?? {};
    for (const variable of ['DATABASE_URL', 'REDIS_URL', 'REDIS_PREFIX', 'JWT_SECRET', 'SECRETS_KEY', 'DATA_DIR', 'JOB_LOCK_SECONDS']) {
      expect(app[variable], variable).toBeDefined();
      expect(worker[variable], variable).toBe(app[variable]);
    }
    expect(byName('worker').volumes).toEqual(byName('app').volumes);
    // The migration alone has the owner's connection; the app role runs everything else.
    expect(Object.keys(byName('migrate').environment ?? {})).toEqual(['DATABASE_MIGRATE_URL']);
    expect(app.DATABASE_MIGRATE_URL).toBeUndefined();
  });

  it("is a configuration the server accepts, with Redis, PostgreSQL and the operator's secrets", () => {
    for (const name of ['app', 'worker']) {
      const environment = Object.fromEntries(
        Object.entries(byName(name).environment ?? {}).map(([variable, value]) => [variable, interpolated(String(value ?? ''))]),
      );
      const config = loadConfig({ ...environment, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'mustard-compose-')) });
      expect(config.databaseUrl, name).toMatch(/^postgres:\/\/mustard_app:.+@postgres:5432\/mustard$/);
      expect(config.redisUrl, name).toBe('redis://redis:6379');
      expect(Buffer.from(config.jwtSecret).toString(), name).toBe('a-secret-of-at-least-32-bytes-0123456789');
      expect(config.seedDemo, `${name}: no demo with its published password`).toBe(false);
      // Behind the load balancer the client's address is the forwarded one (rate limits per client).
      if (name === 'app') expect(config.trustProxy).toBe(true);
    }
  });

  it('mounts and builds from files that exist', () => {
    for (const file of [
      'Dockerfile',
      'deploy/Caddyfile',
      'deploy/postgres-init.sh',
      'apps/server/src/server.ts',
      'apps/server/src/cli.ts',
    ]) {
      expect(existsSync(path.join(ROOT, file)), file).toBe(true);
    }
    for (const service of Object.values(compose.services)) {
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0] as string;
        if (source.startsWith('./')) expect(existsSync(path.join(ROOT, source)), volume).toBe(true);
      }
    }
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain('CMD ["node", "--import", "tsx", "apps/server/src/server.ts"]');
  });
});
