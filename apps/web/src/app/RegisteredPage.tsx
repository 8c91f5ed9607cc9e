import { type ComponentType, use } from 'react';
import { isBusinessPage, PAGES, type PageKey } from '../lib/pages.js';
import { PlaceholderPage } from './PlaceholderPage.js';
import { PAGE_COMPONENTS } from './registry.js';

type Registry = { readonly [Key in PageKey]?: ComponentType };

let businessRegistry: Promise<Registry> | undefined;

/** The business pages' registry, its own chunk: fetched by the first business page shown, never by a school. */
export function loadBusinessPages(): Promise<Registry> {
  businessRegistry ??= import('./business-registry.js').then((module) => module.BUSINESS_PAGE_COMPONENTS);
  return businessRegistry;
}

/**
 * The component of a signed-in page, by its key. It travels with the signed-in frame (the router
 * in the first paint names only the paths), so the registry weighs nothing on /login; a
 * business's pages come from their own registry, so nothing of them weighs on a school's cold load.
 * A page without a component shows its title until its issue lands.
 */
export function RegisteredPage({ pageKey }: { pageKey: PageKey }) {
  const route = PAGES[pageKey];
  const Page = PAGE_COMPONENTS[pageKey] ?? (isBusinessPage(route) ? use(loadBusinessPages())[pageKey] : undefined);
  return Page ? <Page /> : <PlaceholderPage title={route.title} />;
}
