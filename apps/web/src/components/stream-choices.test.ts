import { describe, expect, it } from 'vitest';
import { streamChoices } from './stream-choices.js';

const CLASSES = [
  { form: 'P5', streams: ['East', 'West'] },
  { form: 'P6', streams: ['North'] },
];

describe('the streams a filter offers', () => {
  it('are the class’s streams, its spelling whatever the case, none before a class is chosen', () => {
    expect(streamChoices(CLASSES, 'p5', null)).toEqual(['East', 'West']);
    expect(streamChoices(CLASSES, 'P7', null)).toEqual([]);
    expect(streamChoices(CLASSES, null, null)).toEqual([]);
  });

  it('for a teacher, the streams he teaches in the class; a whole-class assignment is every stream', () => {
    expect(streamChoices(CLASSES, 'P5', [{ form: 'P5', stream: 'west' }])).toEqual(['West']);
    expect(streamChoices(CLASSES, 'P5', [{ form: 'P6', stream: 'North' }])).toEqual([]);
    expect(streamChoices(CLASSES, 'P5', [{ form: 'P5', stream: null }])).toEqual(['East', 'West']);
    expect(
      streamChoices(CLASSES, 'P5', [
        { form: 'P5', stream: 'East' },
        { form: 'P5', stream: 'West' },
      ]),
    ).toEqual(['East', 'West']);
  });
});
