import { describe, expect, it } from 'vitest';
import { oneOpen } from './one-open.js';

describe('oneOpen (two explanation pop-ups never open at once)', () => {
  it('closes the open one when another opens, and tells every listener', () => {
    const open = oneOpen();
    let told = 0;
    open.subscribe(() => told++);
    open.set('grades', true);
    expect(open.current()).toBe('grades');
    open.set('positions', true);
    expect(open.current()).toBe('positions');
    expect(told).toBe(2);
  });

  it('closing one that is not open leaves the open one alone', () => {
    const open = oneOpen();
    open.set('grades', true);
    open.set('positions', false);
    expect(open.current()).toBe('grades');
    open.set('grades', false);
    expect(open.current()).toBeNull();
  });

  it('stops telling a listener that unsubscribed', () => {
    const open = oneOpen();
    let told = 0;
    const stop = open.subscribe(() => told++);
    stop();
    open.set('grades', true);
    expect(told).toBe(0);
  });
});
