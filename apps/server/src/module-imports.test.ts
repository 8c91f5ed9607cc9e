import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * docs/ARCHITECTURE.md "Which module may import which", held against the code: every import of
 * the server's sources (tests and their fixtures aside) goes down the layers, and between modules
 * only where the table below allows it. The table is the bullet's: the test reads the bullet and
 * fails when the two differ. It opens no database.
 */

const SRC = path.dirname(fileURLToPath(import.meta.url));
const ARCHITECTURE = path.join(SRC, '..', '..', '..', 'docs', 'ARCHITECTURE.md');

/** The server's layers, lowest first: a file imports its own layer or a lower one. */
const LAYERS: ReadonlyArray<ReadonlyArray<string>> = [
  ['config.ts', 'errors.ts', 'logger.ts'],
  ['db', 'redis'],
  ['audit', 'access'],
  ['plugins'],
  ['resources', 'documents', 'mail', 'jobs', 'efris-fake'],
  ['modules'],
  ['seed'],
  ['app.ts'],
  ['server.ts', 'cli.ts'],
];

/** Which module may import which (modules/<name>/), besides itself. Mirrored in ARCHITECTURE.md. */
const MODULE_IMPORTS: Record<string, ReadonlyArray<string>> = {
  // The opening-stock upload records its movements through the stock ledger's one service.
  'business-uploads': ['stock'],
  // The EFRIS device's key is sealed as the sign-in providers' secrets are (auth/secret-box.ts).
  efris: ['auth'],
  comments: ['reports', 'settings', 'staff', 'students'],
  curriculum: ['marks', 'settings', 'staff'],
  fees: ['students'],
  marks: ['reports', 'settings', 'staff', 'students'],
  // Receipts and memos are numbered and posted through the books, settle invoices under their locks, restock returns and queue
  // credit notes for EFRIS; the counter sale issues an invoice and records its receipt in one transaction.
  payments: ['accounts', 'efris', 'sales', 'stock'],
  'report-settings': ['reports'],
  // Issuing an invoice numbers and posts it through the books, takes its goods out through the stock ledger and queues it for EFRIS.
  sales: ['accounts', 'efris', 'stock'],
  reports: ['settings', 'students'],
  // A print draws the business's logo, stored with the photos as a school's badge is (students/photos.ts).
  'sales-prints': ['students'],
  // A sign-up's logo is the school's badge: checked, re-encoded and stored by the reports' pipeline (school-logo.ts).
  tenants: ['auth', 'reports'],
  users: ['auth', 'tenants'],
  // A paid voucher posts to the books and an approved one is numbered by the accounts' services.
  vouchers: ['accounts'],
};

/** Imports up the layers that the architecture makes: a new school or business gets its defaults in the transaction that creates it. */
const UPWARD: ReadonlyArray<{ from: string; to: string }> = [
  { from: 'modules/tenants/', to: 'seed/school-defaults.ts' },
  { from: 'modules/tenants/', to: 'seed/business-defaults.ts' },
];

/**
 * Imports that break the rules today, each to go (`file -> imported file`); none now (the
 * document pool's import of the reports' drawers went in issue 25: a kind hands the pool its
 * drawer's address). The list only shrinks: an entry whose import is gone fails until deleted.
 */
const KNOWN_BREAKS = new Set<string>([]);

/** Tests and what only tests use: the test support folders, and the fixtures beside the modules' tests. */
const isTestSupport = (file: string) => /\.test\.ts$|fixtures?\.ts$/.test(file) || /^(test|operations|security)\//.test(file);

function sources(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .sort();
}

/** A file's relative imports (static, dynamic, re-exports, types too), as files under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(SRC, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map(
    (match) => match[1] ?? '',
  );
  return specifiers.map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts'));
}

/** The module a file belongs to (modules/<name>/…), if any. */
const moduleOf = (file: string) => /^modules\/([^/]+)\//.exec(file)?.[1];

/** The layer of a file: its first folder, or its own name at the root. */
function layerOf(file: string): number {
  const area = file.includes('/') ? file.slice(0, file.indexOf('/')) : file;
  return LAYERS.findIndex((layer) => layer.includes(area));
}

/** What is wrong with one import, or nothing. */
function breach(file: string, target: string): string | undefined {
  if (target.startsWith('../')) return `${file} imports ${target}, outside the server's sources`;
  if (isTestSupport(target)) return `${file} imports test support (${target})`;
  const [from, to] = [moduleOf(file), moduleOf(target)];
  if (from && to && from !== to && !MODULE_IMPORTS[from]?.includes(to))
    return `${file} imports ${target}: module ${from} may not import module ${to} (docs/ARCHITECTURE.md)`;
  if (layerOf(target) > layerOf(file) && !UPWARD.some((allowed) => file.startsWith(allowed.from) && target === allowed.to))
    return `${file} imports ${target}: a lower layer imports a higher one (docs/ARCHITECTURE.md)`;
  return undefined;
}

/** The module pairs the bullet names after "Between modules only": `a` → `b`. */
function documentedPairs(): string[] {
  const text = readFileSync(ARCHITECTURE, 'utf8');
  const start = text.indexOf('- **Which module may import which.**');
  if (start < 0) throw new Error('docs/ARCHITECTURE.md has no "Which module may import which" bullet');
  const end = text.indexOf('\n- **', start + 1);
  const bullet = text.slice(start, end < 0 ? undefined : end);
  const between = bullet.slice(bullet.search(/Between\s+modules\s+only/));
  return [...between.matchAll(/`([\w-]+)`\s*→\s*`([\w-]+)`/g)].map((match) => `${match[1]} → ${match[2]}`).sort();
}

const FILES = sources(SRC).filter((file) => !isTestSupport(file));

describe('which module may import which (docs/ARCHITECTURE.md)', () => {
  it('finds the layers and modules', () => {
    expect(FILES).toContain('app.ts');
    expect(FILES.some((file) => file.startsWith('modules/students/'))).toBe(true);
    expect(FILES.some((file) => isTestSupport(file))).toBe(false);
  });

  it('every folder and root file of the server has its layer', () => {
    expect(FILES.filter((file) => layerOf(file) < 0)).toEqual([]);
  });

  it('no import climbs a layer, reaches test support, or joins modules the table keeps apart', () => {
    const breaches = FILES.flatMap((file) =>
      importsOf(file)
        .filter((target) => !KNOWN_BREAKS.has(`${file} -> ${target}`))
        .flatMap((target) => breach(file, target) ?? []),
    );
    expect(breaches).toEqual([]);
  });

  it('every known break still exists (a mended one is deleted from the list)', () => {
    const present = new Set(FILES.flatMap((file) => importsOf(file).map((target) => `${file} -> ${target}`)));
    expect([...KNOWN_BREAKS].filter((entry) => !present.has(entry))).toEqual([]);
  });

  it('the rules catch what they are for', () => {
    expect(breach('modules/fees/fees.service.ts', 'modules/marks/marks.repository.ts')).toMatch(/module fees may not import module marks/);
    expect(breach('db/tenant.ts', 'plugins/school.ts')).toMatch(/a lower layer imports a higher one/);
    expect(breach('plugins/access.ts', 'modules/auth/auth.service.ts')).toMatch(/a lower layer imports a higher one/);
    expect(breach('modules/marks/entry.service.ts', 'test/factories.ts')).toMatch(/test support/);
    expect(breach('modules/tenants/tenants.service.ts', 'seed/school-defaults.ts')).toBeUndefined();
    expect(breach('modules/tenants/tenants.service.ts', 'seed/business-defaults.ts')).toBeUndefined();
    expect(breach('modules/tenants/tenants.service.ts', 'seed/demo.ts')).toMatch(/a lower layer/);
    expect(breach('modules/marks/entry.repository.ts', 'modules/students/class-learners.repository.ts')).toBeUndefined();
    expect(breach('app.ts', 'modules/marks/marks.routes.ts')).toBeUndefined();
  });

  it("the table is the one ARCHITECTURE.md's bullet states", () => {
    const table = Object.entries(MODULE_IMPORTS)
      .flatMap(([from, targets]) => targets.map((to) => `${from} → ${to}`))
      .sort();
    expect(documentedPairs()).toEqual(table);
  });
});
