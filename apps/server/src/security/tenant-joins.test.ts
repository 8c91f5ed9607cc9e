// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the planted queries are TypeScript sources, their `${...}` included.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { GLOBAL_TABLES } from '../db/types.js';

/*
 * Every join between two tenant tables names tenant_id on both sides (issue 30 point 5). Row-level
 * security already keeps a query inside its school, so a join without it returns the same rows
 * today; but PostgreSQL spread over several nodes (Citus, distributed by tenant_id, every tenant
 * table co-located) can only answer a join on one node when its condition equates the two
 * tables' tenant_id: without it the join needs every node's rows, or is refused. The catalog test
 * holds the keys to the same rule; this one holds the queries, reading the server's sources (not
 * its tests) with the TypeScript compiler. It opens no database.
 *
 * What it reads:
 * - Kysely joins (innerJoin, leftJoin, rightJoin, fullJoin, their Lateral forms, crossJoin): a
 *   tenant table joined to a tenant table needs `onRef('a.tenant_id', '=', 'b.tenant_id')` in the
 *   callback; the two-column shorthand between tenant tables is refused. A join where either side
 *   is a global table (users, tenants, ... GLOBAL_TABLES: reference tables under Citus) passes. A
 *   table the checker cannot name (a subquery, a name computed at run time) counts as a tenant's.
 * - Kysely correlated subqueries: a `whereRef` from a tenant table to an outer tenant table needs
 *   a tenant_id `whereRef` beside it.
 * - Raw SQL (`sql` templates, `sql.raw`, and every SQL string of the migrations, their functions
 *   included): each `JOIN <tenant table> ... ON <condition>` compares `x.tenant_id = y.tenant_id`
 *   in its condition (or `USING (tenant_id, ...)`), a CROSS JOIN of two tenant tables is refused,
 *   and each subquery on a tenant table that refers to an outer query's tenant table compares
 *   tenant_id.
 * - Raw joins without JOIN (`FROM a x, b y`, `UPDATE a SET ... FROM b`, `DELETE FROM a USING b`)
 *   between tenant tables: the WHERE compares their tenant_id.
 * - Every Kysely query (selectFrom, updateTable, deleteFrom) of a tenant table filters on the
 *   school in its own chain (`$call(inTenant(...))`, `where('x.tenant_id', ...)`, or a `whereRef`
 *   of tenant_id), which is what a distributed database routes on (row-level security's setting
 *   is not); the few queries across schools by design are listed with why.
 * What it does not read: CTEs that wrap a tenant table (a join to the CTE's name is taken as a join
 * to no table), a comma list of more than two tables (the first two are read), a query built
 * across variables (`query = query.leftJoin(...)`: the tables of the earlier statement are not
 * followed, so the join must name tenant_id itself, and the filter must be in the first
 * statement), a table named at run time in a query's FROM, inserts (row-level security's WITH
 * CHECK already refuses a row of another school), and whether raw SQL filters on the school.
 */

const SRC = path.dirname(fileURLToPath(import.meta.url)).replace(/[\\/]security$/, '');

/** The tables of the `DB` interface of db/types.ts: every table the queries are typed against. */
function databaseTables(typesSource: string): string[] {
  const file = ts.createSourceFile('types.ts', typesSource, ts.ScriptTarget.Latest, true);
  const database = file.statements.find(
    (node): node is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(node) && node.name.text === 'DB',
  );
  if (!database) throw new Error('db/types.ts has no interface DB');
  return database.members.flatMap((member) => (member.name && ts.isIdentifier(member.name) ? [member.name.text] : [])).sort();
}

interface Tables {
  tenant: ReadonlySet<string>;
  global: ReadonlySet<string>;
}

interface Violation {
  file: string;
  line: number;
  query: string;
  reason: string;
}

const KYSELY_JOINS = new Set(['innerJoin', 'leftJoin', 'rightJoin', 'fullJoin', 'innerJoinLateral', 'leftJoinLateral']);
const KYSELY_CROSS_JOINS = new Set(['crossJoin', 'crossJoinLateral']);
/** Calls whose first argument names a table of the query. */
const KYSELY_SOURCES = new Set([
  'selectFrom',
  'updateTable',
  'deleteFrom',
  'insertInto',
  'mergeInto',
  ...KYSELY_JOINS,
  ...KYSELY_CROSS_JOINS,
]);

/** A literal's text; a template's with each `${...}` as `${}` (an alias or table made at run time). */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((span) => `\${}${span.literal.text}`).join('');
  return undefined;
}

/** A table of a query: its name (undefined when the checker cannot tell: a subquery, a computed name) and its alias. */
interface Source {
  table: string | undefined;
  alias: string;
}

function sourceOf(node: ts.Node | undefined): Source | undefined {
  if (!node) return undefined;
  const text = literalText(node);
  if (text !== undefined) {
    const match = /^\s*(\S+?)(?:\s+as\s+(\S+))?\s*$/i.exec(text);
    if (!match?.[1]) return undefined;
    const table = match[1].includes('${}') ? undefined : match[1].replace(/^public\./, '');
    return { table, alias: match[2] ?? match[1] };
  }
  // `subquery.as('x')`: a derived table whose rows the checker does not follow.
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'as') {
    const alias = node.arguments[0] && literalText(node.arguments[0]);
    if (alias !== undefined) return { table: undefined, alias };
  }
  return undefined;
}

/** `x.tenant_id` -> { alias: 'x', column: 'tenant_id' }. */
function columnRef(node: ts.Node | undefined): { alias: string; column: string } | undefined {
  const text = node && literalText(node);
  const dot = text?.lastIndexOf('.') ?? -1;
  if (text === undefined || dot < 0) return undefined;
  return { alias: text.slice(0, dot), column: text.slice(dot + 1) };
}

const methodOf = (call: ts.CallExpression) => (ts.isPropertyAccessExpression(call.expression) ? call.expression.name.text : undefined);

/** The tables named earlier in a builder chain (`a.selectFrom(...).innerJoin(...).<call>`), by alias. */
function chainSources(call: ts.CallExpression): Map<string, Source> {
  const sources = new Map<string, Source>();
  let receiver: ts.Expression | undefined = ts.isPropertyAccessExpression(call.expression) ? call.expression.expression : undefined;
  while (receiver) {
    if (ts.isCallExpression(receiver)) {
      const method = methodOf(receiver);
      if (method && KYSELY_SOURCES.has(method)) {
        const first = receiver.arguments[0];
        const named = first && ts.isArrayLiteralExpression(first) ? first.elements.map(sourceOf) : [sourceOf(first)];
        for (const source of named) if (source && !sources.has(source.alias)) sources.set(source.alias, source);
      }
      receiver = ts.isPropertyAccessExpression(receiver.expression) ? receiver.expression.expression : undefined;
    } else if (ts.isPropertyAccessExpression(receiver) || ts.isParenthesizedExpression(receiver) || ts.isAsExpression(receiver)) {
      receiver = receiver.expression;
    } else {
      receiver = undefined;
    }
  }
  return sources;
}

type Kind = 'tenant' | 'global';

/** A Kysely alias's table kind: named in the chain, or a table's own name; otherwise a tenant's, to be safe. */
function kindOfAlias(alias: string, sources: Map<string, Source>, tables: Tables): Kind {
  const table = sources.get(alias)?.table ?? (sources.has(alias) ? undefined : alias);
  return table !== undefined && tables.global.has(table) ? 'global' : 'tenant';
}

/** Calls to `method` anywhere under node. */
function callsIn(node: ts.Node, methods: ReadonlySet<string>): ts.CallExpression[] {
  const found: ts.CallExpression[] = [];
  const visit = (child: ts.Node) => {
    if (ts.isCallExpression(child) && methods.has(methodOf(child) ?? '')) found.push(child);
    ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
}

/** Whether two references equate the tenant_id of two different aliases. */
function tenantPair(left: ts.Node | undefined, right: ts.Node | undefined, operator?: ts.Node): boolean {
  const a = columnRef(left);
  const b = columnRef(right);
  const equals = !operator || literalText(operator) === '=';
  return equals && a?.column === 'tenant_id' && b?.column === 'tenant_id' && a.alias !== b.alias;
}

function checkKyselyJoin(call: ts.CallExpression, tables: Tables): string | undefined {
  const method = methodOf(call) ?? '';
  const joined = sourceOf(call.arguments[0]) ?? { table: undefined, alias: '' };
  if (joined.table !== undefined && tables.global.has(joined.table)) return undefined;
  const earlier = chainSources(call);
  const onGlobal = (aliases: string[]) => aliases.length > 0 && aliases.every((alias) => kindOfAlias(alias, earlier, tables) === 'global');
  if (KYSELY_CROSS_JOINS.has(method)) {
    return earlier.size > 0 && onGlobal([...earlier.keys()]) ? undefined : `${method} of a tenant table: no tenant_id to join on`;
  }
  const [, first, second] = call.arguments;
  if (first && second) {
    // The shorthand `innerJoin('x as y', 'y.id', 'z.x_id')`: one equality, which is not tenant_id's.
    if (tenantPair(first, second)) return undefined;
    const others = [columnRef(first), columnRef(second)].flatMap((ref) => (ref && ref.alias !== joined.alias ? [ref.alias] : []));
    return onGlobal(others) ? undefined : 'two-column join between tenant tables: use the callback with onRef on tenant_id';
  }
  if (first && (ts.isArrowFunction(first) || ts.isFunctionExpression(first))) {
    const refs = callsIn(first.body, new Set(['onRef']));
    if (refs.some((ref) => tenantPair(ref.arguments[0], ref.arguments[2], ref.arguments[1]))) return undefined;
    const others = refs
      .flatMap((ref) => [columnRef(ref.arguments[0]), columnRef(ref.arguments[2])])
      .flatMap((ref) => (ref && ref.alias !== joined.alias ? [ref.alias] : []));
    return onGlobal(others) ? undefined : 'join between tenant tables without onRef(a.tenant_id, =, b.tenant_id)';
  }
  return 'join whose condition the checker cannot read: write it as a callback with onRef on tenant_id';
}

/** A `whereRef` that reaches an outer query's tenant table needs a tenant_id `whereRef` in the same query. */
function checkKyselyCorrelation(call: ts.CallExpression, tables: Tables): string | undefined {
  const local = chainSources(call);
  const [left, operator, right] = call.arguments;
  const refs = [columnRef(left), columnRef(right)];
  if (refs.some((ref) => !ref) || local.size === 0) return undefined;
  const outer = refs.filter((ref) => ref && !local.has(ref.alias)).map((ref) => ref?.alias ?? '');
  if (outer.length === 0 || outer.length === 2) return undefined;
  if ([...local.values()].every((source) => source.table !== undefined && tables.global.has(source.table))) return undefined;
  if (outer.every((alias) => tables.global.has(alias))) return undefined;
  if (tenantPair(left, right, operator)) return undefined;
  // Another whereRef of the same chain (before or after this one) on tenant_id.
  let top: ts.Node = call;
  while (ts.isPropertyAccessExpression(top.parent) || (ts.isCallExpression(top.parent) && top.parent.expression === top)) top = top.parent;
  const siblings = callsIn(top, new Set(['whereRef']));
  return siblings.some((ref) => tenantPair(ref.arguments[0], ref.arguments[2], ref.arguments[1]))
    ? undefined
    : 'subquery on a tenant table correlated to an outer tenant table without whereRef on tenant_id';
}

// ---- raw SQL ----

/** A `${...}` of a sql template, as the SQL it stands for: a ref's or table's name when literal, else a value. */
function placeholder(expression: ts.Expression): string {
  if (ts.isCallExpression(expression) && ts.isPropertyAccessExpression(expression.expression)) {
    const { name } = expression.expression;
    const argument = expression.arguments[0];
    const text = argument && literalText(argument);
    if (name.text === 'ref' && text !== undefined) return text.replaceAll('${}', 'dynamic');
    // A table chosen at run time: named `dynamic_table`, which the rules count as a tenant's.
    if (name.text === 'table') return text !== undefined && !text.includes('${}') ? text : 'dynamic_table';
  }
  return '$value';
}

function templateSql(node: ts.TemplateLiteral): string {
  if (ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  return node.head.text + node.templateSpans.map((span) => ` ${placeholder(span.expression)} ${span.literal.text}`).join('');
}

const SQL_WORDS = new Set(
  'select from where join inner left right full outer cross lateral on using and or not group order by limit offset union all having window returning set values as with into update delete insert natural exists in is null case when then else end'.split(
    ' ',
  ),
);

/** Where a clause starting at `start` ends: a closing parenthesis of its level, or a keyword that starts another clause. */
function clauseEnd(text: string, start: number): number {
  let depth = 0;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (char === '(') depth++;
    else if (char === ')') {
      if (depth === 0) return index;
      depth--;
    } else if (char === ';' && depth === 0) return index;
    else if (depth === 0 && /\w/.test(char ?? '') && !/\w/.test(text[index - 1] ?? '')) {
      const word = /^\w+/.exec(text.slice(index))?.[0].toLowerCase() ?? '';
      if (
        [
          'join',
          'inner',
          'left',
          'right',
          'full',
          'cross',
          'where',
          'group',
          'order',
          'limit',
          'union',
          'having',
          'window',
          'returning',
          'into',
        ].includes(word)
      )
        return index;
    }
  }
  return text.length;
}

/** Where the parenthesis opened just before `start` closes (or the text's end). */
function closingParenthesis(text: string, start: number): number {
  let depth = 0;
  for (let index = start; index < text.length; index++) {
    if (text[index] === '(') depth++;
    else if (text[index] === ')' && depth-- === 0) return index;
  }
  return text.length;
}

/** The statement's tables by alias (every FROM, JOIN, UPDATE, INTO, USING), a name used twice taking every table it names. */
function sqlAliases(text: string): Map<string, Set<string>> {
  const aliases = new Map<string, Set<string>>();
  for (const match of text.matchAll(/\b(?:from|join|update|into|using)\s+(?:only\s+)?([a-z_][\w.]*)(?:\s+(?:as\s+)?([a-z_]\w*))?/gi)) {
    const table = (match[1] ?? '').toLowerCase().replace(/^public\./, '');
    const alias = match[2] && !SQL_WORDS.has(match[2].toLowerCase()) ? match[2].toLowerCase() : table;
    for (const name of new Set([alias, table])) aliases.set(name, new Set([...(aliases.get(name) ?? []), table]));
  }
  return aliases;
}

/** A raw table name's kind: tenant, global, or neither (a CTE, a function, VALUES); a table named at run time is a tenant's. */
function kindOfTable(table: string, tables: Tables): Kind | undefined {
  if (table === 'dynamic_table') return 'tenant';
  if (tables.global.has(table)) return 'global';
  return tables.tenant.has(table) ? 'tenant' : undefined;
}

const TENANT_PAIR = /\b([a-z_][\w$]*)\.tenant_id\s*=\s*([a-z_][\w$]*)\.tenant_id\b/gi;
const hasTenantPair = (condition: string) => [...condition.matchAll(TENANT_PAIR)].some((match) => match[1] !== match[2]);

function checkSqlText(text: string, tables: Tables): string[] {
  const problems: string[] = [];
  const aliases = sqlAliases(text);
  const kindOfAliasSql = (alias: string): Kind | undefined => {
    const kinds = [...(aliases.get(alias.toLowerCase()) ?? [alias.toLowerCase()])].map((table) => kindOfTable(table, tables));
    return kinds.includes('tenant') ? 'tenant' : kinds.includes('global') ? 'global' : undefined;
  };
  for (const match of text.matchAll(
    /\b(cross\s+)?join\s+(?:lateral\s+)?(?:only\s+)?([a-z_][\w.]*)(?:\s+(?:as\s+)?(?!(?:on|using|where|join|inner|left|right|full|cross|natural|group|order|limit)\b)([a-z_]\w*))?\s*(on\b|using\b)?/gi,
  )) {
    const table = (match[2] ?? '').toLowerCase().replace(/^public\./, '');
    const alias = match[3] && !SQL_WORDS.has(match[3].toLowerCase()) ? match[3].toLowerCase() : table;
    if (kindOfTable(table, tables) !== 'tenant') continue;
    const start = (match.index ?? 0) + match[0].length;
    const condition = text.slice(start, clauseEnd(text, start));
    const summary = `JOIN ${table}${alias === table ? '' : ` ${alias}`}`;
    if (match[1] || !match[4]) {
      // A cross join (or a comma-less join without a condition) of a tenant table to another.
      const before = sqlAliases(text.slice(0, match.index));
      const kinds = [...before.keys()].map((name) => kindOfAliasSql(name));
      if (kinds.includes('tenant')) problems.push(`${summary}: a cross join of tenant tables, no tenant_id equality`);
      continue;
    }
    if (match[4].toLowerCase() === 'using') {
      if (!/\btenant_id\b/i.test(condition)) problems.push(`${summary} USING without tenant_id`);
      continue;
    }
    if (hasTenantPair(condition)) continue;
    const others = [...condition.matchAll(/\b([a-z_]\w*)\.[a-z_]\w*/gi)]
      .map((ref) => (ref[1] ?? '').toLowerCase())
      .filter((name) => name !== alias);
    if (others.length > 0 && others.every((name) => kindOfAliasSql(name) !== 'tenant')) continue;
    problems.push(`${summary} ON ${condition.replace(/\s+/g, ' ').trim()}: no tenant_id equality`);
  }
  // Joins without JOIN: `FROM a x, b y`, `UPDATE a x SET ... FROM b y`, `DELETE FROM a x USING b y`; their condition is the WHERE.
  const NAMED = String.raw`(?:only\s+)?([a-z_][\w.]*)(?:\s+(?:as\s+)?(?!(?:set|where|using|from|on|returning)\b)([a-z_]\w*))?`;
  const pairs = [
    new RegExp(String.raw`\bfrom\s+${NAMED}\s*,\s*${NAMED}`, 'gi'),
    new RegExp(String.raw`\bupdate\s+${NAMED}\s+set\b[^;]*?\bfrom\s+${NAMED}`, 'gi'),
    new RegExp(String.raw`\bdelete\s+from\s+${NAMED}\s+using\s+${NAMED}`, 'gi'),
  ];
  for (const pattern of pairs) {
    for (const match of text.matchAll(pattern)) {
      const [first, second] = [match[1], match[3]].map((table) => (table ?? '').toLowerCase().replace(/^public\./, ''));
      if (kindOfTable(first ?? '', tables) !== 'tenant' || kindOfTable(second ?? '', tables) !== 'tenant') continue;
      const rest = text.slice((match.index ?? 0) + match[0].length);
      const where = /\bwhere\b/i.exec(rest);
      const condition = where ? rest.slice(where.index + 5, where.index + 5 + clauseEnd(rest.slice(where.index + 5), 0)) : '';
      if (!hasTenantPair(condition)) problems.push(`${first} with ${second} (no JOIN): no tenant_id equality in the WHERE`);
    }
  }
  // Correlated subqueries: `(SELECT ... FROM <tenant table> x WHERE ... outer.col ...)`.
  for (const open of text.matchAll(/\(\s*select\b/gi)) {
    const start = (open.index ?? 0) + 1;
    const body = text.slice(start, closingParenthesis(text, start));
    const local = sqlAliases(body);
    const ownTenantTables = [...local.values()].some((names) => [...names].some((table) => kindOfTable(table, tables) === 'tenant'));
    if (!ownTenantTables) continue;
    const outer = [...body.matchAll(/\b([a-z_]\w*)\.[a-z_]\w*/gi)]
      .map((ref) => (ref[1] ?? '').toLowerCase())
      .filter((alias) => !local.has(alias) && kindOfAliasSql(alias) === 'tenant');
    if (outer.length > 0 && !/\btenant_id\s*=|=\s*[\w.]*\btenant_id\b/i.test(body))
      problems.push(`subquery ${body.replace(/\s+/g, ' ').trim().slice(0, 80)}: correlated to ${outer[0]} without tenant_id`);
  }
  return problems;
}

const isSqlTag = (node: ts.Expression) => ts.isIdentifier(node) && node.text === 'sql';

/** Every join without tenant_id in one source file. */
function tenantJoinViolations(file: string, source: string, tables: Tables, seen = { kyselyJoins: 0, sqlJoins: 0 }): Violation[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const migration = /(^|\/)migrations\//.test(file);
  const violations: Violation[] = [];
  const report = (node: ts.Node, reason: string) =>
    violations.push({
      file,
      line: sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1,
      query: node.getText(sourceFile).replace(/\s+/g, ' ').slice(0, 160),
      reason,
    });
  const checkSql = (node: ts.Node, text: string) => {
    seen.sqlJoins += [...text.matchAll(/\bjoin\b/gi)].length;
    for (const problem of checkSqlText(text, tables)) report(node, problem);
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const method = methodOf(node) ?? '';
      if (KYSELY_JOINS.has(method) || KYSELY_CROSS_JOINS.has(method)) {
        seen.kyselyJoins++;
        const problem = checkKyselyJoin(node, tables);
        if (problem) report(node, problem);
      } else if (method === 'whereRef') {
        const problem = checkKyselyCorrelation(node, tables);
        if (problem) report(node, problem);
      }
      // sql.raw(`...`) / sql.raw('...'): SQL as a string.
      if (method === 'raw' && ts.isPropertyAccessExpression(node.expression) && isSqlTag(node.expression.expression)) {
        const argument = node.arguments[0];
        if (argument && (ts.isStringLiteral(argument) || ts.isTemplateLiteral(argument)))
          checkSql(argument, ts.isStringLiteral(argument) ? argument.text : templateSql(argument));
        return;
      }
    }
    if (ts.isTaggedTemplateExpression(node) && isSqlTag(node.tag)) {
      checkSql(node, templateSql(node.template));
      // Templates nested in its `${...}` are read on their own.
      ts.forEachChild(node.template, visit);
      return;
    }
    // A migration's SQL in a plain string (runStatements' scripts, a function's body).
    if (migration && (ts.isStringLiteral(node) || ts.isTemplateLiteral(node)) && !ts.isTaggedTemplateExpression(node.parent)) {
      checkSql(node, ts.isStringLiteral(node) ? node.text : templateSql(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return violations;
}

// ---- every query of a tenant table names its school ----

/** The calls of one builder chain, outermost first: `a.selectFrom(x).where(y).execute()` gives execute, where, selectFrom. */
function chainCalls(top: ts.CallExpression): ts.CallExpression[] {
  const calls: ts.CallExpression[] = [];
  let node: ts.Expression = top;
  for (;;) {
    if (ts.isCallExpression(node)) {
      calls.push(node);
      node = node.expression;
    } else if (ts.isPropertyAccessExpression(node) || ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) {
      node = node.expression;
    } else {
      return calls;
    }
  }
}

/** A chain's own filter on the school: `$call(inTenant(...))`, `where('x.tenant_id', ...)`, or `whereRef` of tenant_id with an outer school's key. */
function filtersTenant(call: ts.CallExpression, sourceFile: ts.SourceFile): boolean {
  const method = methodOf(call);
  const [first, , third] = call.arguments;
  if (method === '$call') return /^inTenant\(/.test(first?.getText(sourceFile) ?? '');
  if (method === 'where') return first !== undefined && (columnRef(first)?.column === 'tenant_id' || literalText(first) === 'tenant_id');
  if (method === 'whereRef') {
    const refs = [columnRef(first), columnRef(third)];
    return refs.some((ref) => ref?.column === 'tenant_id') && refs.every((ref) => ref?.column === 'tenant_id' || ref?.alias === 'tenants');
  }
  return false;
}

/** The name of the function (or the variable holding it) a node is in. */
function enclosingFunction(node: ts.Node): string {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if ((ts.isFunctionDeclaration(parent) || ts.isMethodDeclaration(parent)) && parent.name) return parent.name.getText();
    const holdsFunction = (value: ts.Node | undefined) =>
      value !== undefined && (ts.isArrowFunction(value) || ts.isFunctionExpression(value));
    if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && holdsFunction(parent.initializer))
      return parent.name.getText();
  }
  return '(top level)';
}

/**
 * Kysely queries (selectFrom, updateTable, deleteFrom) that read or write a tenant table, from it or
 * joined, without filtering on the school in their own chain, as `file#function`. A query built
 * across statements must filter in its first one; a table named at run time is not read here.
 */
function unfilteredTenantQueries(file: string, source: string, tables: Tables, seen = { queries: 0 }): string[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ['selectFrom', 'updateTable', 'deleteFrom'].includes(methodOf(node) ?? '')) {
      let top: ts.CallExpression = node;
      while (
        ts.isPropertyAccessExpression(top.parent) &&
        ts.isCallExpression(top.parent.parent) &&
        top.parent.parent.expression === top.parent
      )
        top = top.parent.parent;
      const calls = chainCalls(top);
      const named = calls
        .filter((call) => KYSELY_SOURCES.has(methodOf(call) ?? ''))
        .map((call) => sourceOf(call.arguments[0])?.table)
        .filter((table): table is string => table !== undefined);
      // From a subquery (`selectFrom(rows.as('r'))`): the subquery is a query of its own, filtered there, and
      // the join check holds every tenant table joined to it to its tenant_id.
      const fromSubquery = ts.isCallExpression(node.arguments[0] ?? node) && sourceOf(node.arguments[0])?.table === undefined;
      if (named.some((table) => tables.tenant.has(table))) seen.queries++;
      if (!fromSubquery && named.some((table) => tables.tenant.has(table)) && !calls.some((call) => filtersTenant(call, sourceFile)))
        found.push(`${file}#${enclosingFunction(node)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/**
 * Queries across schools, by design, each with why: the list only shrinks (an entry no longer
 * found fails until deleted). Under Citus each is a query of every node (the plan's "Queries across
 * schools").
 */
const ACROSS_SCHOOLS: Record<string, string> = {
  'access/membership.repository.ts#tenantsOfUser': 'the schools a person belongs to, at sign-in, before one is chosen',
  'modules/users/invitations.repository.ts#findOwnInvitation': "a person's own invitation, by id, before joining its school",
  'modules/users/invitations.repository.ts#findInvitationByCode': "an invitation by its link's code, before joining its school",
  'modules/users/invitations.repository.ts#myInvitations': "a person's pending invitations to every school",
};

// ---- the server's sources ----

const isTest = (file: string) => /\.test\.ts$|fixtures?\.ts$/.test(file) || /^(test|security)\//.test(file);

function serverSources(): string[] {
  return (readdirSync(SRC, { recursive: true }) as string[])
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !isTest(file))
    .sort();
}

const databaseTableNames = databaseTables(readFileSync(path.join(SRC, 'db', 'types.ts'), 'utf8'));
const TABLES: Tables = {
  global: new Set<string>(GLOBAL_TABLES),
  tenant: new Set(databaseTableNames.filter((table) => !(GLOBAL_TABLES as readonly string[]).includes(table))),
};

describe('no query joins tenant tables without tenant_id (issue 30 point 5)', () => {
  it('reads the tables from db/types.ts: tenant and global ones', () => {
    expect([...TABLES.tenant]).toEqual(expect.arrayContaining(['students', 'marks', 'memberships', 'roles', 'subjects']));
    for (const table of GLOBAL_TABLES) expect(databaseTableNames).toContain(table);
  });

  // Parsing the sources takes a second or two; more on a busy machine.
  it('every join and correlated subquery of the server code compares tenant_id', { timeout: 30_000 }, () => {
    const files = serverSources();
    expect(files).toEqual(expect.arrayContaining(['modules/marks/entry.repository.ts', 'db/migrations/2026_11_23_0009_sign_in_state.ts']));
    const seen = { kyselyJoins: 0, sqlJoins: 0 };
    // Only files that can hold a query are parsed (a Kysely join or whereRef, or `sql`, which raw SQL needs): a third of them.
    const violations = files.flatMap((file) => {
      const text = readFileSync(path.join(SRC, file), 'utf8');
      return /\bsql\b|Join(Lateral)?\(|whereRef\(/.test(text) ? tenantJoinViolations(file, text, TABLES, seen) : [];
    });
    expect(violations.map((violation) => `${violation.file}:${violation.line} ${violation.reason} — ${violation.query}`)).toEqual([]);
    // It read them: the code has some 35 Kysely joins and a few raw ones (the sign-in function's three among them).
    expect(seen.kyselyJoins).toBeGreaterThanOrEqual(30);
    expect(seen.sqlJoins).toBeGreaterThanOrEqual(5);
  });

  it('reads the joins it must: the code has Kysely joins with tenant_id, raw SQL joins and a migration function', () => {
    const text = (file: string) => readFileSync(path.join(SRC, file), 'utf8');
    expect(text('modules/marks/entry.repository.ts')).toMatch(/innerJoin\('students as st', \(join\) => join\.onRef\('st\.tenant_id'/);
    expect(text('db/migrations/2026_11_23_0009_sign_in_state.ts')).toMatch(/JOIN roles r ON r\.tenant_id = mr\.tenant_id/);
  });
});

describe('every query of a tenant table filters on its school (issue 30 point 5)', () => {
  it('every Kysely query of a tenant table names tenant_id, but the known ones across schools', { timeout: 30_000 }, () => {
    const seen = { queries: 0 };
    const found = serverSources().flatMap((file) => {
      const text = readFileSync(path.join(SRC, file), 'utf8');
      return /\b(selectFrom|updateTable|deleteFrom)\(/.test(text) ? unfilteredTenantQueries(file, text, TABLES, seen) : [];
    });
    // It read them: the code has some 190 queries of tenant tables.
    expect(seen.queries).toBeGreaterThanOrEqual(150);
    expect(found.filter((key) => !(key in ACROSS_SCHOOLS))).toEqual([]);
    expect(Object.keys(ACROSS_SCHOOLS).filter((key) => !found.includes(key))).toEqual([]);
  });

  it('reports a query that does not filter, and accepts each way of filtering', () => {
    const find = (source: string) => unfilteredTenantQueries('modules/example/example.repository.ts', source, TABLES);
    expect(find("function f() { return trx.selectFrom('marks').selectAll().where('student_id', '=', id).execute(); }")).toEqual([
      'modules/example/example.repository.ts#f',
    ]);
    expect(find("const g = () => trx.selectFrom('users').innerJoin('memberships', 'memberships.user_id', 'users.id').selectAll()")).toEqual(
      ['modules/example/example.repository.ts#g'],
    );
    // A filter inside a subquery is the subquery's, not the outer query's.
    expect(
      find(
        "function h() { return trx.selectFrom('marks').where('student_id', 'in', (eb) => eb.selectFrom('students').select('id').$call(inTenant(t))); }",
      ),
    ).toEqual(['modules/example/example.repository.ts#h']);
    expect(find("trx.selectFrom('marks').$call(inTenant(tenantId)).selectAll()")).toEqual([]);
    expect(find("trx.updateTable('students as s').set({ form: 'P2' }).where('s.tenant_id', '=', tenantId)")).toEqual([]);
    expect(find("trx.deleteFrom('marks').where('tenant_id', '=', tenantId)")).toEqual([]);
    expect(find("trx.selectFrom('users').select('id')")).toEqual([]);
  });
});

describe('the checker, on planted queries', () => {
  const check = (source: string, file = 'modules/example/example.repository.ts') =>
    tenantJoinViolations(file, source, TABLES).map((violation) => violation.reason);

  it('refuses the two-column shorthand between tenant tables', () => {
    expect(check("trx.selectFrom('marks as m').innerJoin('students as st', 'st.id', 'm.student_id').selectAll()")).toEqual([
      expect.stringMatching(/two-column join between tenant tables/),
    ]);
  });

  it('refuses a callback join between tenant tables with no tenant_id onRef, or one comparing tenant_id with a value', () => {
    expect(check("trx.selectFrom('marks as m').leftJoin('subjects as s', (join) => join.onRef('s.id', '=', 'm.subject_id'))")).toHaveLength(
      1,
    );
    expect(
      check(
        "trx.selectFrom('roles').leftJoin('role_permissions', (j) => j.on('role_permissions.tenant_id', '=', tenantId).onRef('role_permissions.role_id', '=', 'roles.id'))",
      ),
    ).toHaveLength(1);
    // A table named at run time counts as a tenant's.
    expect(check("q.leftJoin(`${table} as x`, (join) => join.onRef('x.id', '=', 'r.x_id'))")).toHaveLength(1);
    expect(check("trx.selectFrom('marks').crossJoin('students')")).toHaveLength(1);
  });

  it('accepts tenant_id on both sides, and joins to global tables in any form', () => {
    expect(
      check(
        "trx.selectFrom('marks as m').innerJoin('students as st', (join) => join.onRef('st.tenant_id', '=', 'm.tenant_id').onRef('st.id', '=', 'm.student_id')).leftJoin('users as u', 'u.id', 'm.user_id')",
      ),
    ).toEqual([]);
    expect(check("trx.selectFrom('users').innerJoin('memberships', 'memberships.user_id', 'users.id')")).toEqual([]);
    expect(check("trx.selectFrom('memberships').innerJoin('tenants', 'tenants.id', 'memberships.tenant_id')")).toEqual([]);
    expect(check('q.leftJoin(`users as ${joined}`, `${joined}.id`, `r.${key}`)')).toEqual([]);
    expect(
      check("q.leftJoin(`${table} as ${j}`, (join) => join.onRef(`${j}.tenant_id`, '=', 'r.tenant_id').onRef(`${j}.id`, '=', 'r.x'))"),
    ).toEqual([]);
  });

  it('refuses a Kysely subquery correlated to an outer tenant table on its id alone', () => {
    const exists = (refs: string) =>
      `trx.selectFrom('students as s').where((eb) => eb.exists(eb.selectFrom('marks as m').select('m.id')${refs}))`;
    expect(check(exists(".whereRef('m.student_id', '=', 's.id')"))).toHaveLength(1);
    expect(check(exists(".whereRef('m.tenant_id', '=', 's.tenant_id').whereRef('m.student_id', '=', 's.id')"))).toEqual([]);
    expect(
      check(
        "trx.selectFrom('tenants').where((eb) => eb.exists(eb.selectFrom('memberships').whereRef('memberships.tenant_id', '=', 'tenants.id')))",
      ),
    ).toEqual([]);
  });

  it('refuses a raw SQL JOIN of tenant tables without tenant_id, in sql templates, sql.raw and migrations', () => {
    expect(check('sql`SELECT * FROM marks m JOIN students s ON s.id = m.student_id WHERE m.tenant_id = ${tenantId}`')).toEqual([
      expect.stringMatching(/JOIN students s ON s\.id = m\.student_id: no tenant_id equality/),
    ]);
    expect(check("sql.raw('select 1 from roles r left join role_permissions p on p.role_id = r.id')")).toHaveLength(1);
    expect(
      check(
        'const F = sql`CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT count(*) FROM memberships m INNER JOIN membership_roles mr ON mr.membership_id = m.id $$`',
        'db/migrations/2099_01_01_0099_example.ts',
      ),
    ).toHaveLength(1);
    expect(
      check(
        'await runStatements(db, `SELECT 1 FROM marks m JOIN subjects s ON s.id = m.subject_id;`)',
        'db/migrations/2099_01_01_0099_example.ts',
      ),
    ).toHaveLength(1);
    // A table named at run time counts as a tenant's; a CROSS JOIN of two tenant tables has no condition.
    expect(check('sql`SELECT 1 FROM roles r JOIN ${sql.table(link)} AS link ON link.role_id = r.id`')).toHaveLength(1);
    expect(check('sql`SELECT 1 FROM students s CROSS JOIN marks m`')).toHaveLength(1);
  });

  it('accepts raw SQL joins on tenant_id, to global tables, to CTEs, and sql.ref names of tenant_id', () => {
    expect(check('sql`SELECT 1 FROM membership_roles mr JOIN roles r ON r.tenant_id = mr.tenant_id AND r.id = mr.role_id`')).toEqual([]);
    expect(check('sql`SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id`')).toEqual([]);
    expect(check('sql`SELECT 1 FROM memberships m JOIN tenants t ON t.id = m.tenant_id WHERE m.user_id = $1`')).toEqual([]);
    expect(check('sql`WITH k(form) AS (VALUES (1)) SELECT 1 FROM students s JOIN k ON lower(s.form) = k.form`')).toEqual([]);
    expect(
      check('sql`SELECT 1 FROM ${sql.table(link)} AS link JOIN roles ON roles.tenant_id = link.tenant_id AND roles.id = link.role_id`'),
    ).toEqual([]);
    expect(check('sql`SELECT 1 FROM roles r CROSS JOIN (VALUES (1)) AS s(subject)`')).toEqual([]);
  });

  it('refuses a raw join without JOIN between tenant tables unless its WHERE pairs tenant_id', () => {
    expect(check('sql`SELECT 1 FROM marks m, students s WHERE s.id = m.student_id`')).toHaveLength(1);
    expect(check('sql`UPDATE marks m SET mark = 1 FROM students s WHERE s.id = m.student_id`')).toHaveLength(1);
    expect(check('sql`DELETE FROM marks m USING students s WHERE s.id = m.student_id AND s.status = $1`')).toHaveLength(1);
    expect(check('sql`DELETE FROM marks m USING students s WHERE s.tenant_id = m.tenant_id AND s.id = m.student_id`')).toEqual([]);
    expect(check('sql`UPDATE role_permissions p SET action = 1 FROM unedited u WHERE p.role_id = u.id`')).toEqual([]);
    expect(check('sql`SELECT 1 FROM marks m, users u WHERE u.id = m.user_id`')).toEqual([]);
  });

  it('reports a real query once its tenant_id is taken out: the marks entry’s join of students', () => {
    const file = 'modules/marks/entry.repository.ts';
    const real = readFileSync(path.join(SRC, file), 'utf8');
    const planted = real.replace(
      "join.onRef('st.tenant_id', '=', 'm.tenant_id').onRef('st.id', '=', 'm.student_id')",
      "join.onRef('st.id', '=', 'm.student_id')",
    );
    expect(planted).not.toBe(real);
    expect(tenantJoinViolations(file, real, TABLES)).toEqual([]);
    expect(tenantJoinViolations(file, planted, TABLES).map((violation) => violation.query)).toEqual([
      expect.stringContaining("innerJoin('students as st'"),
    ]);
  });

  it('refuses a raw subquery on a tenant table correlated to an outer tenant table without tenant_id', () => {
    expect(check('sql`SELECT r.id, (SELECT count(*) FROM role_permissions p WHERE p.role_id = r.id) FROM roles r`')).toHaveLength(1);
    expect(
      check(
        'sql`SELECT r.id, (SELECT count(*) FROM role_permissions p WHERE p.tenant_id = r.tenant_id AND p.role_id = r.id) FROM roles r`',
      ),
    ).toEqual([]);
    expect(
      check(
        'sql`(SELECT json_agg(roles.name) FROM link JOIN roles ON roles.tenant_id = link.tenant_id WHERE link.tenant_id = ${sql.ref(`${owner}.tenant_id`)})`',
      ),
    ).toEqual([]);
  });
});
