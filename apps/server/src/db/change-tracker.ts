import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/**
 * Counts writes to the tables that decide who may do what (users, sessions, tenants,
 * memberships, roles and permissions). Caches of sign-in state are valid only while this
 * generation is unchanged, so every write through Kysely, whatever code path made it,
 * invalidates them: no call site has to remember to.
 */
export const ACCESS_TABLES = new Set(['tenants', 'users', 'sessions', 'memberships', 'roles', 'role_permissions', 'membership_roles']);

export class AccessChangeTracker implements KyselyPlugin {
  private count = 0;
  private blind = false;

  get generation(): number {
    return this.count;
  }

  /**
   * Whether every change is seen: on the embedded database always (one process owns the data);
   * on PostgreSQL only while the server listens for the database's notices of changes made
   * elsewhere (db/access-notices.ts). While not, caches must read from the database.
   */
  get seesEveryChange(): boolean {
    return !this.blind;
  }

  /** For writes made outside Kysely's query builder (raw SQL), and for each notice of a change made elsewhere. */
  bump(): void {
    this.count += 1;
  }

  /** Changes made elsewhere can no longer be seen: what is cached is void, and nothing new is cached. */
  goBlind(): void {
    this.blind = true;
    this.bump();
  }

  /** Listening again: what changed meanwhile is unknown, so what is cached stays void. */
  seeAgain(): void {
    this.bump();
    this.blind = false;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node as OperationNode & Record<string, any>;
    const targets =
      node.kind === 'InsertQueryNode'
        ? [node.into]
        : node.kind === 'UpdateQueryNode'
          ? [node.table]
          : node.kind === 'DeleteQueryNode'
            ? (node.from?.froms ?? [])
            : [];
    if (targets.some((target: OperationNode | undefined) => ACCESS_TABLES.has(tableName(target) ?? ''))) this.bump();
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

function tableName(node: (OperationNode & Record<string, any>) | undefined): string | undefined {
  if (!node) return undefined;
  if (node.kind === 'TableNode') return node.table?.identifier?.name;
  if (node.kind === 'AliasNode') return tableName(node.node);
  return undefined;
}
