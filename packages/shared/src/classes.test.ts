import { describe, expect, it } from 'vitest';
import { classOptions, matchClass, matchStream } from './classes.js';

const PRIMARY = ['Nursery', 'Kinder', 'Pre-primary', 'P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7'];

describe('classOptions (spec §3)', () => {
  it('a secondary school offers S1..S6', () => {
    expect(classOptions({ schooltype: 'secondary' })).toEqual(['S1', 'S2', 'S3', 'S4', 'S5', 'S6']);
  });

  it('a secondary school offers S1..S6 even when its own forms are set', () => {
    expect(classOptions({ schooltype: 'secondary', forms: 'Baby,Middle,Top' })).toEqual(['S1', 'S2', 'S3', 'S4', 'S5', 'S6']);
  });

  it("a primary school's own forms are trimmed and empties dropped", () => {
    expect(classOptions({ schooltype: 'primary', forms: 'Baby, Middle ,Top,,' })).toEqual(['Baby', 'Middle', 'Top']);
  });

  it.each([[null], [''], ['   '], [' , ,, '], [undefined]])('a primary school with forms %j offers the default list', (forms) => {
    expect(classOptions({ schooltype: 'primary', forms })).toEqual(PRIMARY);
  });

  it('a missing school type is treated as primary', () => {
    expect(classOptions({})).toEqual(PRIMARY);
    expect(classOptions({ schooltype: null, forms: null })).toEqual(PRIMARY);
    expect(classOptions({ forms: 'Baby, Middle ,Top,,' })).toEqual(['Baby', 'Middle', 'Top']);
  });

  it('returns a fresh copy each call, so callers cannot change the constants', () => {
    const first = classOptions({ schooltype: 'secondary' });
    first.push('S7');
    expect(classOptions({ schooltype: 'secondary' })).toEqual(['S1', 'S2', 'S3', 'S4', 'S5', 'S6']);
    const second = classOptions({});
    second.length = 0;
    expect(classOptions({})).toEqual(PRIMARY);
  });
});

describe('matchClass and matchStream (issue 10 point 2)', () => {
  it('gives the school’s own spelling of a class typed any way, and null for a class it does not have', () => {
    const secondary = classOptions({ schooltype: 'secondary' });
    expect(matchClass(secondary, 's2')).toBe('S2');
    expect(matchClass(secondary, '  S2 ')).toBe('S2');
    expect(matchClass(secondary, 'S9')).toBeNull();
    expect(matchClass(secondary, 'P4')).toBeNull();
    expect(matchClass(PRIMARY, 'pre-PRIMARY')).toBe('Pre-primary');
    expect(matchClass(['Baby Class', 'Top'], 'baby   class')).toBe('Baby Class');
    expect(matchClass(PRIMARY, '')).toBeNull();
  });

  it('gives a stream the spelling the school already uses, else as typed; blank is none', () => {
    expect(matchStream(['East', 'West'], 'east')).toBe('East');
    expect(matchStream(['East', 'West'], ' WEST ')).toBe('West');
    expect(matchStream(['East'], 'North  Wing')).toBe('North Wing');
    expect(matchStream(['East'], '  ')).toBeNull();
    expect(matchStream(['East'], null)).toBeNull();
  });
});
