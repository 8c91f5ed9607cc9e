import { describe, expect, it } from 'vitest';
import { routeTenantKind, tenantKindOf } from './tenant-kinds.js';

/**
 * The edges of the wall's path rules (tenant-kinds.ts): a prefix is a whole segment, and the one
 * path two kinds share a start of (/api/uploads) is told apart exactly.
 * The wall itself, on every route of the app: apps/server/src/security/tenant-kinds.test.ts.
 */
describe('routeTenantKind', () => {
  it('tells the business upload from the school journals upload that starts the same', () => {
    expect(routeTenantKind('/api/uploads')).toBe('business');
    expect(routeTenantKind('/api/uploads?kind=products')).toBe('business');
    expect(routeTenantKind('/api/uploads/template')).toBe('business');
    expect(routeTenantKind('/api/uploads/template/:kind')).toBe('business');
    expect(routeTenantKind('/api/uploads/studentjournals')).toBe('school');
    expect(routeTenantKind('/api/uploads/studentjournals/:id')).toBe('school');
    // Neither: a path no rule names is unclassed, and the route table test names it.
    expect(routeTenantKind('/api/uploads/other')).toBeUndefined();
    expect(routeTenantKind('/api/uploads/studentjournalsx')).toBeUndefined();
  });

  it('matches a prefix as a whole segment: /api/productsx is not /api/products', () => {
    expect(routeTenantKind('/api/products')).toBe('business');
    expect(routeTenantKind('/api/products/:id')).toBe('business');
    expect(routeTenantKind('/api/productsx')).toBeUndefined();
    expect(routeTenantKind('/api/productgroups')).toBe('business');
    expect(routeTenantKind('/api/productgroups/:id')).toBe('business');
    expect(routeTenantKind('/api/companiesx')).toBeUndefined();
    expect(routeTenantKind('/api/stockrecords/onhand')).toBe('business');
    expect(routeTenantKind('/api/home/business')).toBe('business');
    expect(routeTenantKind('/api/home/businessx')).toBeUndefined();
    expect(routeTenantKind('/api/business/settings')).toBe('business');
    expect(routeTenantKind('/api/businessx')).toBeUndefined();
  });

  it('classes school routes, shared routes, and leaves the unknown undefined (never both by default)', () => {
    expect(routeTenantKind('/api/school/marks')).toBe('school');
    expect(routeTenantKind('/api/student/:id')).toBe('school');
    expect(routeTenantKind('/api/home/setup')).toBe('school');
    expect(routeTenantKind('/api/home/setupx')).toBeUndefined();
    expect(routeTenantKind('/api/users')).toBeNull();
    expect(routeTenantKind('/api/users/:id')).toBeNull();
    expect(routeTenantKind('/api/usersx')).toBeUndefined();
    expect(routeTenantKind('/api/countries')).toBeNull();
    expect(routeTenantKind('/api/home/mustard')).toBeNull();
    expect(routeTenantKind('/api/home')).toBeUndefined();
    expect(routeTenantKind('/api')).toBeUndefined();
    expect(routeTenantKind('/auth/login')).toBeUndefined();
  });

  it('reads a tenant kind from its category', () => {
    expect(tenantKindOf('School')).toBe('school');
    expect(tenantKindOf('Retail')).toBe('business');
    expect(tenantKindOf('Farm')).toBe('business');
  });
});
