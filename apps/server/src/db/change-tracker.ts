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

  get generation(): number {
    return this.count;
  }

  /** For writes made outside Kysely's query builder (raw SQL). */
  bump(): void {
    this.count += 1;
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
