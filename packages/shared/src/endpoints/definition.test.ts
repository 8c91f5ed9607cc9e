import { describe, expect, it } from 'vitest';
import { endpointUrl } from './definition.js';

describe('endpointUrl', () => {
  it('fills path parameters, encoded, and appends the non-empty query values', () => {
    expect(endpointUrl('/api/school/students/:id', { id: 'a b/c' })).toBe('/api/school/students/a%20b%2Fc');
    expect(endpointUrl('/api/school/termdates', undefined, { year: 2026, empty: '', none: null, gone: undefined, flag: false })).toBe(
      '/api/school/termdates?year=2026&flag=false',
    );
  });

  it('refuses a missing path parameter instead of calling ":id"', () => {
    expect(() => endpointUrl('/api/school/students/:id', {})).toThrow(':id');
    expect(() => endpointUrl('/api/school/students/:id', { id: '' })).toThrow(':id');
  });
});
