import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import type { Database } from '../db/connect.js';
import type { Access } from '../plugins/access.js';

export interface AppRoute {
  method: string;
  url: string;
  access: Access | undefined;
  /** `METHOD url`, as the tests name routes. */
  key: string;
}

/**
 * Every route of the app, sorted by `METHOD url`: the real `buildApp`, told of each route as it
 * is registered. The route-table tests (access declared everywhere, isolation of every route)
 * read this one list.
 */
export async function appRoutes(config: Config, database: Database): Promise<AppRoute[]> {
  const routes: AppRoute[] = [];
  const app = await buildApp(config, database, {
    logger: false,
    onRoute: (route) => {
      for (const method of [route.method].flat()) {
        routes.push({ method, url: route.url, access: route.config?.access as Access | undefined, key: `${method} ${route.url}` });
      }
    },
  });
  await app.close();
  return routes.sort((a, b) => a.key.localeCompare(b.key));
}
