import { ResourceListPage } from '../../resources/ResourceListPage.js';
import type { ScreenDefinition } from '../../resources/screen.js';
import * as screens from './screens.js';

/** The catalogue, partners and reference data of a business, one chunk: setting up a shop moves between them. */
function listPage<Row extends { id: string }>(screen: ScreenDefinition<Row>) {
  return function CatalogueListPage() {
    return <ResourceListPage screen={screen} />;
  };
}

export const ProductsPage = listPage(screens.productsScreen);
export const ProductGroupsPage = listPage(screens.productGroupsScreen);
export const PartnersPage = listPage(screens.partnersScreen);
export const CurrenciesPage = listPage(screens.currenciesScreen);
export const TaxesPage = listPage(screens.taxesScreen);
export const WhdutiesPage = listPage(screens.whdutiesScreen);
export const BanksPage = listPage(screens.banksScreen);
