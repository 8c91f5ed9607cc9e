import { describe, expect, it } from 'vitest';
import { GENERIC_DESCRIPTORS, genericDescriptor } from './index.js';

describe('genericDescriptor: the new curriculum’s generic bands on a 1..3 score', () => {
  it('2.5 to 3 Outstanding, 1.5 to 2.49 Moderate, otherwise Basic', () => {
    expect([3, 2.5, 2.49, 2, 1.5, 1.49, 1, 0].map(genericDescriptor)).toEqual([
      'Outstanding',
      'Outstanding',
      'Moderate',
      'Moderate',
      'Moderate',
      'Basic',
      'Basic',
      'Basic',
    ]);
  });

  it('an average with decimals is described by the same bands (2.33 Moderate, 2.67 Outstanding)', () => {
    expect(genericDescriptor(Math.round((7 / 3) * 100) / 100)).toBe('Moderate');
    expect(genericDescriptor(Math.round((8 / 3) * 100) / 100)).toBe('Outstanding');
  });

  it('answers one of the listed descriptors', () => {
    expect(GENERIC_DESCRIPTORS).toEqual(['Outstanding', 'Moderate', 'Basic']);
  });
});
