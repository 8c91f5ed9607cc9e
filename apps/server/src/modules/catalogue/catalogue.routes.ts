import {
  BUSINESS_MESSAGES,
  banks,
  companies,
  countriesEndpoint,
  currencies,
  productGroups,
  products,
  SETTINGS_MESSAGES,
  taxes,
  whduties,
} from '@mustard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpointRoute } from '../../plugins/endpoints.js';
import { registerResource } from '../../resources/resource-routes.js';
import { checkCurrency, checkCurrencyRemoval, checkProduct } from './catalogue.service.js';
import { COUNTRIES } from './countries.js';

const taxName = { table: 'taxes', key: 'tax_id', column: 'name' } as const;

/**
 * The business catalogue (issue 31 points 1 to 3): products and their groups, partners and the
 * reference data, each a resource on the one list mechanism; and the countries. A school's
 * TENANTCODE on these routes is answered 404 (shared tenant-kinds.ts), the countries excepted.
 */
export const catalogueRoutes: FastifyPluginAsyncZod = async (app) => {
  registerResource(app, currencies, {
    table: 'currencies',
    beforeWrite: checkCurrency,
    beforeRemove: checkCurrencyRemoval,
    // Two currencies made the default at once: the second is told to try again.
    constraints: { currencies_one_default: { field: 'is_default', message: BUSINESS_MESSAGES.oneDefaultCurrency } },
  });
  registerResource(app, taxes, { table: 'taxes' });
  registerResource(app, whduties, { table: 'whduties' });
  registerResource(app, banks, { table: 'banks' });
  registerResource(app, productGroups, { table: 'product_groups', references: { tax: taxName } });
  registerResource(app, products, {
    table: 'products',
    references: { group: { table: 'product_groups', key: 'group_id', column: 'name' }, tax: taxName },
    beforeWrite: checkProduct,
    // A product has two unique fields, each with its own message; the foreign keys' names omit the column.
    constraints: {
      products_tenant_id_code_key: { field: 'code', message: BUSINESS_MESSAGES.codeTaken },
      products_barcode_key: { field: 'barcode', message: BUSINESS_MESSAGES.barcodeTaken },
      products_group_fkey: { field: 'group_id', message: SETTINGS_MESSAGES.referenceMissing },
      products_tax_fkey: { field: 'tax_id', message: SETTINGS_MESSAGES.referenceMissing },
    },
  });
  registerResource(app, companies, { table: 'companies' });

  endpointRoute(app, countriesEndpoint, async () => ({ countries: [...COUNTRIES], totalRecords: COUNTRIES.length }));
};
