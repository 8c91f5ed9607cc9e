/**
 * The screen index (issue 25 point 10): docs/SCREENS.md, generated from the code by
 * `npm run screens`. For each signed-in page of apps/web/src/lib/pages.ts: its path, title key
 * and ability; its component (apps/web/src/app/registry.tsx); the endpoint contracts and
 * resource definitions of packages/shared it uses; the server files serving them; and the tests
 * that exercise it. apps/web/src/screens-index.test.ts regenerates it in memory and fails when
 * the file differs.
 *
 * How a page's contracts are found: from the component's declaration, every name it uses is
 * resolved through its file's declarations and imports (read with the TypeScript parser); a
 * declaration in apps/web/src/features, resources or components is walked in turn (that
 * declaration only, not its whole file), and a name imported from '@mustard/shared' that
 * packages/shared/src/endpoints or resources declares as an endpoint, a call route or a resource
 * is a contract of the page. Types are not followed: a contract named only as a type is not called.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SCREENS_FILE = path.join(ROOT, 'docs', 'SCREENS.md');

const WEB = path.join(ROOT, 'apps', 'web', 'src');
const SHARED = path.join(ROOT, 'packages', 'shared', 'src');
const SERVER = path.join(ROOT, 'apps', 'server', 'src');
const E2E = path.join(ROOT, 'e2e');
/** Where a page's code is followed: the web's features, list-screen mechanism and components. */
const WALKED = ['features', 'resources', 'components'].map((dir) => path.join(WEB, dir) + path.sep);
/** Where contracts are declared. */
const CONTRACTS = ['endpoints', 'resources'].map((dir) => path.join(SHARED, dir) + path.sep);

const posix = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');
const isTest = (file: string) => /\.test\.tsx?$/.test(file);

function sourcesUnder(dir: string, tests = false): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts') && isTest(file) === tests)
    .map((file) => path.join(dir, file))
    .sort();
}

interface Page {
  key: string;
  path: string;
  title: string;
  ability?: { action: string; subject: string };
}

/** A contract's routes as the server answers them. */
interface Route {
  method: string;
  path: string;
}

interface Contract {
  name: string;
  kind: 'endpoint' | 'route' | 'resource';
  routes: Route[];
  /** A call route's endpoint (same method and path): what the server registers. */
  endpoint?: string;
}

/** The names packages/shared/src/endpoints and resources export as constants. */
function contractNames(): Set<string> {
  const names = new Set<string>();
  for (const dir of CONTRACTS)
    for (const file of sourcesUnder(dir)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/^export const (\w+)/gm)) names.add(match[1] ?? '');
    }
  return names;
}

/** The endpoints, call routes and resources packages/shared exports, by export name. */
async function sharedContracts(): Promise<Map<string, Contract>> {
  const shared = (await import(pathToFileURL(path.join(SHARED, 'index.ts')).href)) as Record<string, unknown>;
  const declared = contractNames();
  const contracts = new Map<string, Contract>();
  for (const [name, value] of Object.entries(shared)) {
    if (!declared.has(name) || !value || typeof value !== 'object' || Array.isArray(value)) continue;
    const entry = value as Record<string, unknown>;
    if (typeof entry.path !== 'string') continue;
    if (typeof entry.method === 'string') {
      const kind = 'response' in entry ? 'endpoint' : 'route';
      contracts.set(name, { name, kind, routes: [{ method: entry.method, path: entry.path }] });
    } else if (typeof entry.listKey === 'string' && 'record' in entry) {
      const item = `${entry.path}/:id`;
      const routes = [
        { method: 'GET', path: entry.path },
        { method: 'POST', path: entry.path },
        { method: 'GET', path: item },
        { method: 'PUT', path: item },
        { method: 'DELETE', path: item },
      ];
      contracts.set(name, { name, kind: 'resource', routes });
    }
  }
  for (const route of contracts.values()) {
    if (route.kind !== 'route') continue;
    const [{ method, path: routePath }] = route.routes as [Route];
    const endpoint = [...contracts.values()].find(
      (contract) => contract.kind === 'endpoint' && contract.routes[0]?.method === method && contract.routes[0]?.path === routePath,
    );
    route.endpoint = endpoint?.name;
  }
  return contracts;
}

/** A web source file as the index reads it: its top-level declarations, imports and exports. */
interface Module {
  source: ts.SourceFile;
  declarations: Map<string, ts.Node[]>;
  /** Local name to where it comes from: a file of the web, or '@mustard/shared'; `*` for a namespace. */
  imports: Map<string, { from: string; name: string }>;
  /** Exported name to its local name, or to another file's export. */
  exports: Map<string, { local: string } | { from: string; name: string }>;
  stars: string[];
}

/** The file a relative specifier names: `./x.js` is x.ts, x.tsx or x/index.ts. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (specifier === '@mustard/shared') return specifier;
  if (!specifier.startsWith('.')) return undefined;
  const target = path.resolve(path.dirname(from), specifier);
  const base = target.replace(/\.(js|jsx|ts|tsx)$/, '');
  return [`${base}.ts`, `${base}.tsx`, path.join(target, 'index.ts')].find((file) => existsSync(file));
}

const nameOf = (node: ts.ModuleExportName) => node.text;

function readModule(file: string): Module {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const module: Module = { source, declarations: new Map(), imports: new Map(), exports: new Map(), stars: [] };
  const declare = (name: string, node: ts.Node) => module.declarations.set(name, [...(module.declarations.get(name) ?? []), node]);
  const exported = (node: ts.Node) =>
    ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const from = resolveSpecifier(file, statement.moduleSpecifier.text);
      const clause = statement.importClause;
      if (!from || !clause || clause.isTypeOnly) continue;
      if (clause.name) module.imports.set(clause.name.text, { from, name: 'default' });
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) module.imports.set(bindings.name.text, { from, name: '*' });
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements)
          if (!element.isTypeOnly) module.imports.set(element.name.text, { from, name: nameOf(element.propertyName ?? element.name) });
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly) continue;
      const from =
        statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
          ? resolveSpecifier(file, statement.moduleSpecifier.text)
          : undefined;
      const clause = statement.exportClause;
      if (!clause) {
        if (from) module.stars.push(from);
      } else if (ts.isNamedExports(clause)) {
        for (const element of clause.elements) {
          if (element.isTypeOnly) continue;
          const local = nameOf(element.propertyName ?? element.name);
          module.exports.set(nameOf(element.name), from ? { from, name: local } : { local });
        }
      }
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name)) continue;
        declare(declaration.name.text, declaration);
        if (exported(statement)) module.exports.set(declaration.name.text, { local: declaration.name.text });
      }
    } else if (
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) &&
      statement.name
    ) {
      declare(statement.name.text, statement);
      if (exported(statement)) module.exports.set(statement.name.text, { local: statement.name.text });
    } else if (ts.isExportAssignment(statement) && ts.isIdentifier(statement.expression)) {
      module.exports.set('default', { local: statement.expression.text });
    }
  }
  return module;
}

/** What a name resolves to: declarations in a web file, a namespace (a whole file), or an export of '@mustard/shared'. */
type Target = { declarations: ts.Node[] } | { namespace: string } | { shared: string };

class Web {
  private modules = new Map<string, Module>();

  module(file: string): Module {
    let module = this.modules.get(file);
    if (!module) {
      module = readModule(file);
      this.modules.set(file, module);
    }
    return module;
  }

  /** A name as a file's own code uses it. */
  resolve(file: string, name: string): Target | undefined {
    const module = this.module(file);
    const declarations = module.declarations.get(name);
    if (declarations) return { declarations };
    const imported = module.imports.get(name);
    if (!imported) return undefined;
    return this.resolveImport(imported.from, imported.name);
  }

  resolveImport(from: string, name: string): Target | undefined {
    if (from === '@mustard/shared') return name === '*' || name === 'default' ? undefined : { shared: name };
    if (name === '*') return { namespace: from };
    return this.resolveExport(from, name, new Set());
  }

  /** A name another file imports from this one. */
  resolveExport(file: string, name: string, seen: Set<string>): Target | undefined {
    if (seen.has(file)) return undefined;
    seen.add(file);
    const module = this.module(file);
    const exported = module.exports.get(name);
    if (exported && 'local' in exported) return this.resolve(file, exported.local);
    if (exported) return this.resolveImport(exported.from, exported.name);
    for (const star of module.stars) {
      const found = star === '@mustard/shared' ? { shared: name } : this.resolveExport(star, name, seen);
      if (found) return found;
    }
    return undefined;
  }
}

const inside = (file: string, dirs: string[]) => dirs.some((dir) => path.normalize(file).startsWith(dir));

/** Whether an identifier names a value where it stands (not a property's name, a JSX attribute, a label). */
function isReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent)) && parent.name === node)
    return false;
  if (ts.isJsxAttribute(parent) || (ts.isBindingElement(parent) && parent.propertyName === node)) return false;
  if (ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent)) return false;
  return true;
}

/**
 * What a page's component reaches: the files whose declarations it uses, and the shared
 * contracts it names as values. A name is resolved by the file's top-level declarations and
 * imports (a local that shadows one is read as the top-level one: the index may list more, never less).
 */
function reach(web: Web, start: { file: string; declarations: ts.Node[] }, contracts: Map<string, Contract>) {
  const files = new Set<string>();
  /** Each contract named, with the files that name it. */
  const used = new Map<string, Set<string>>();
  const visited = new Set<ts.Node>();
  const follow = (file: string, target: Target | undefined) => {
    if (!target) return;
    if ('shared' in target) {
      if (contracts.has(target.shared)) used.set(target.shared, (used.get(target.shared) ?? new Set()).add(file));
    } else if ('declarations' in target) {
      for (const declaration of target.declarations) visit(declaration);
    } else files.add(target.namespace);
  };
  const visit = (declaration: ts.Node) => {
    const file = path.normalize(declaration.getSourceFile().fileName);
    if (visited.has(declaration) || !inside(file, WALKED) || isTest(file)) return;
    visited.add(declaration);
    files.add(file);
    const walk = (node: ts.Node): void => {
      if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
      if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
        const target = web.resolve(file, node.expression.text);
        if (target && 'namespace' in target) follow(file, web.resolveExport(target.namespace, node.name.text, new Set()));
      }
      if (ts.isIdentifier(node) && isReference(node)) follow(file, web.resolve(file, node.text));
      ts.forEachChild(node, walk);
    };
    walk(declaration);
  };
  for (const declaration of start.declarations) visit(declaration);
  return { files, used };
}

/**
 * Each page key's component in the registries (a school's and the common pages in app/registry.tsx,
 * a business's in app/business-registry.tsx): `key: page(loader, (m) => m.Name)`, the loader `() => import('…')`.
 */
function registry(web: Web) {
  const components = new Map<string, { name: string; file: string; declarations: ts.Node[] }>();
  for (const [fileName, tableName] of [
    ['registry.tsx', 'PAGE_COMPONENTS'],
    ['business-registry.tsx', 'BUSINESS_PAGE_COMPONENTS'],
  ] as const)
    readRegistry(web, path.join(WEB, 'app', fileName), tableName, components);
  if (components.size === 0) throw new Error('the page registries are empty');
  return components;
}

function readRegistry(
  web: Web,
  file: string,
  tableName: string,
  components: Map<string, { name: string; file: string; declarations: ts.Node[] }>,
) {
  const module = web.module(file);
  const source = module.source;
  const loaded = (node: ts.Node): string | undefined => {
    let found: string | undefined;
    const find = (inner: ts.Node): void => {
      if (ts.isCallExpression(inner) && inner.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [argument] = inner.arguments;
        if (argument && ts.isStringLiteralLike(argument)) found = resolveSpecifier(file, argument.text);
      } else if (ts.isIdentifier(inner) && isReference(inner)) {
        // A loader named by a constant: `const settings = () => import('…')`.
        for (const declaration of module.declarations.get(inner.text) ?? [])
          if (ts.isVariableDeclaration(declaration) && declaration.initializer && ts.isArrowFunction(declaration.initializer))
            found ??= loaded(declaration.initializer);
      }
      ts.forEachChild(inner, find);
    };
    find(node);
    return found;
  };
  const table = module.declarations.get(tableName)?.[0];
  if (!table || !ts.isVariableDeclaration(table) || !table.initializer || !ts.isObjectLiteralExpression(table.initializer))
    throw new Error(`${posix(file)}: ${tableName} is not an object literal`);
  for (const property of table.initializer.properties) {
    if (!ts.isPropertyAssignment(property)) continue;
    const key = property.name.getText(source).replace(/^['"]|['"]$/g, '');
    const moduleFile = loaded(property.initializer);
    let name: string | undefined;
    const pick = (inner: ts.Node): void => {
      if (ts.isArrowFunction(inner) && ts.isPropertyAccessExpression(inner.body)) name = inner.body.name.text;
      ts.forEachChild(inner, pick);
    };
    pick(property.initializer);
    const target = moduleFile && name ? web.resolveExport(moduleFile, name, new Set()) : undefined;
    if (!name || !target || !('declarations' in target)) throw new Error(`${posix(file)}: the component of page ${key} is not found`);
    const declared = path.normalize(target.declarations[0]!.getSourceFile().fileName);
    components.set(key, { name, file: declared, declarations: target.declarations });
  }
}

/** The names each server file imports from '@mustard/shared' as values, and those it registers as a resource. */
function serverUses() {
  const uses = new Map<string, { file: string; registersResource: boolean }[]>();
  for (const file of sourcesUnder(SERVER)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const imported = new Set<string>();
    const registered = new Set<string>();
    const visit = (node: ts.Node) => {
      if (
        ts.isImportDeclaration(node) &&
        ts.isStringLiteral(node.moduleSpecifier) &&
        node.moduleSpecifier.text === '@mustard/shared' &&
        !node.importClause?.isTypeOnly
      ) {
        const bindings = node.importClause?.namedBindings;
        if (bindings && ts.isNamedImports(bindings))
          for (const element of bindings.elements) if (!element.isTypeOnly) imported.add((element.propertyName ?? element.name).text);
      }
      if (ts.isCallExpression(node) && node.expression.getText(source) === 'registerResource')
        for (const argument of node.arguments) if (ts.isIdentifier(argument)) registered.add(argument.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
    for (const name of imported) {
      const list = uses.get(name) ?? [];
      list.push({ file: posix(file), registersResource: registered.has(name) });
      uses.set(name, list);
    }
  }
  return uses;
}

/**
 * The server files serving a contract, as the index writes them: the route files and the
 * resource routes that use it; else the route files registering the file that declares it, or
 * registering the registry that lists it (a report kind: `reports.routes.ts` (through `kinds.ts`,
 * `marksheet.service.ts`)); else the files that use it.
 */
function servedBy(contract: Contract, uses: ReturnType<typeof serverUses>): string[] {
  const files = uses.get(contract.endpoint ?? contract.name) ?? [];
  if (contract.kind === 'resource') return files.filter((use) => use.registersResource).map((use) => `\`${use.file}\``);
  const isRoutes = (file: string) => file.endsWith('.routes.ts') || file.startsWith('apps/server/src/resources/');
  const routes = files.filter((use) => isRoutes(use.file));
  if (routes.length > 0) return routes.map((use) => `\`${use.file}\``);
  const importers = (target: string) => sourcesUnder(SERVER).filter((file) => relativeImports(file).includes(path.join(ROOT, target)));
  return files.map((use) => {
    const registering = importers(use.file)
      .filter((file) => isRoutes(posix(file)))
      .map((file) => `\`${posix(file)}\``);
    if (registering.length > 0) return `${registering.join(', ')} (through \`${use.file}\`)`;
    // A report kind: its registry (reports/kinds.ts) is what a route file serves.
    const throughRegistry = importers(use.file).flatMap((registry) =>
      importers(posix(registry))
        .filter((file) => isRoutes(posix(file)))
        .map((file) => `\`${posix(file)}\` (through \`${posix(registry)}\`, \`${use.file}\`)`),
    );
    return throughRegistry.length > 0 ? throughRegistry.join(', ') : `\`${use.file}\``;
  });
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The addresses a test writes as literals, read from its text: `'/marks/create'`, `` `/students/${id}` ``. */
function addresses(text: string): string[] {
  return [...text.matchAll(/['"`](\/[^'"`\s?#]*)/g)].map((match) => match[1] ?? '');
}

/** Whether an address a test names is the page's: exact for a fixed path, any value for a `:param`. */
function visits(page: Page, address: string, fixedPaths: Set<string>): boolean {
  if (!page.path.includes('/:')) return address === page.path;
  if (fixedPaths.has(address)) return false;
  const pattern = new RegExp(`^${page.path.split(/:\w+/).map(literal).join('(?:\\$\\{[^}]+\\}|[^/$]+)')}$`);
  return pattern.test(address);
}

/** The relative imports of a file, resolved to the sources they name. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].flatMap((match) => {
    const target = path.resolve(path.dirname(file), match[1] ?? '');
    const base = target.replace(/\.(js|jsx|ts|tsx)$/, '');
    return [`${base}.ts`, `${base}.tsx`, path.join(target, 'index.ts')];
  });
}

/** A contract's routes, those on one path together: `GET, POST /api/school/subjects`. */
function describeRoutes(contract: Contract): string {
  const byPath = new Map<string, string[]>();
  for (const route of contract.routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route.method]);
  return [...byPath].map(([routePath, methods]) => `${methods.join(', ')} \`${routePath}\``).join('; ');
}

function cell(values: string[]): string {
  return values.length === 0 ? 'none' : values.join(', ');
}

/** docs/SCREENS.md as the code stands. */
export async function screensIndex(): Promise<string> {
  const { PAGES } = (await import(pathToFileURL(path.join(WEB, 'lib', 'pages.ts')).href)) as { PAGES: Record<string, Omit<Page, 'key'>> };
  const pages: Page[] = Object.entries(PAGES).map(([key, page]) => ({ key, ...page }));
  const fixedPaths = new Set(pages.filter((page) => !page.path.includes('/:')).map((page) => page.path));
  const contracts = await sharedContracts();
  const web = new Web();
  const components = registry(web);
  const uses = serverUses();
  const e2e = sourcesUnder(E2E, true).map((file) => ({
    file,
    addresses: addresses(readFileSync(file, 'utf8')),
    imports: new Set(relativeImports(file)),
  }));
  const unitTests = sourcesUnder(WEB, true).map((file) => ({ file, imports: new Set(relativeImports(file)) }));

  const lines = [
    '# Screens',
    '',
    '<!-- Generated by `npm run screens` (scripts/screens-index.ts): do not edit by hand. -->',
    '',
    'Every signed-in page of the web app, generated from the code: its path, title key and ability',
    '(`apps/web/src/lib/pages.ts`), its component (`apps/web/src/app/registry.tsx`), the endpoint',
    'contracts and resource definitions of `packages/shared` it uses (followed from the component',
    'through `apps/web/src/features`, `resources` and `components`), the server files serving them,',
    'and the tests that exercise it (browser tests that visit its path or import its files, unit',
    'tests beside its files that import them). `apps/web/src/screens-index.test.ts` fails when this file is stale.',
    '',
    '| Page | Path | Component |',
    '| --- | --- | --- |',
  ];
  for (const page of pages) {
    const component = components.get(page.key);
    lines.push(`| ${page.key} | \`${page.path}\` | ${component ? `\`${component.name}\`` : 'none yet (shows its title)'} |`);
  }
  for (const page of pages) {
    const component = components.get(page.key);
    lines.push('', `## ${page.key}: \`${page.path}\``, '');
    lines.push(`- Title: \`${page.title}\``);
    lines.push(`- Ability: ${page.ability ? `\`${page.ability.action}\` on \`${page.ability.subject}\`` : 'any member'}`);
    if (!component) {
      lines.push('- Component: none yet: the page shows its title until its issue lands.');
      const visitors = e2e.filter((test) => test.addresses.some((address) => visits(page, address, fixedPaths)));
      lines.push(`- Tests: ${cell(visitors.map((test) => posix(test.file)))}`);
      continue;
    }
    const { files, used } = reach(web, component, contracts);
    lines.push(`- Component: \`${component.name}\` in \`${posix(component.file)}\``);
    // What only the list-screen mechanism names (a field's choices) is listed apart: a page calls it when a field asks.
    const mechanism = path.join(WEB, 'resources') + path.sep;
    const byMechanism = (name: string) => [...(used.get(name) ?? [])].every((file) => file.startsWith(mechanism));
    const names = [...used.keys()].filter((name) => !byMechanism(name)).sort();
    const choices = [...used.keys()].filter(byMechanism).sort();
    lines.push(`- Contracts:${names.length === 0 ? ' none' : ''}`);
    for (const name of names) {
      const contract = contracts.get(name)!;
      const served = servedBy(contract, uses);
      if (contract.kind === 'resource' && served.length === 0) {
        lines.push(`  - \`${name}\` (resource definition: fields and columns; no routes registered from it)`);
        continue;
      }
      const server = served.length === 0 ? 'no server file found' : served.join(', ');
      const routes = describeRoutes(contract);
      const kind = contract.endpoint ? `call route of \`${contract.endpoint}\`` : contract.kind;
      lines.push(`  - \`${name}\` (${kind}): ${routes}; served by ${server}`);
    }
    if (choices.length > 0)
      lines.push(`- Choices of the list-screen mechanism, called when a field asks: ${choices.map((name) => `\`${name}\``).join(', ')}`);
    const pageFiles = [...files].filter((file) => inside(file, WALKED));
    const visitors = e2e.filter(
      (test) => test.addresses.some((address) => visits(page, address, fixedPaths)) || pageFiles.some((file) => test.imports.has(file)),
    );
    const units = unitTests.filter(
      (test) =>
        pageFiles.some((file) => path.dirname(file) === path.dirname(test.file)) && pageFiles.some((file) => test.imports.has(file)),
    );
    lines.push(`- Files: ${cell(pageFiles.map((file) => `\`${posix(file)}\``).sort())}`);
    lines.push(`- Tests: ${cell([...visitors, ...units].map((test) => `\`${posix(test.file)}\``).sort())}`);
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  writeFileSync(SCREENS_FILE, await screensIndex());
  console.log(`wrote ${posix(SCREENS_FILE)}`);
}
