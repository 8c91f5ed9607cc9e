import { describe, expect, it } from 'vitest';
import { explainText } from './explain.js';
import { classMeans, classPositions, meanScore, rankScores } from './positions.js';

const learners = [
  { id: 'amina', stream: 'East', score: 90 },
  { id: 'brian', stream: 'West', score: 85 },
  { id: 'carol', stream: 'East', score: 85 },
  { id: 'david', stream: 'West', score: 70 },
  { id: 'esther', stream: 'East', score: null },
  { id: 'frank', stream: 'East', score: 60 },
];

describe('positions', () => {
  it('ties share a rank: 1, 2, 2, 4, out of the learners with a score', () => {
    const ranks = rankScores(learners);
    expect(['amina', 'brian', 'carol', 'david', 'frank'].map((id) => ranks.get(id)?.value)).toEqual([
      { rank: 1, outOf: 5 },
      { rank: 2, outOf: 5 },
      { rank: 2, outOf: 5 },
      { rank: 4, outOf: 5 },
      { rank: 5, outOf: 5 },
    ]);
    expect(explainText(ranks.get('brian')!.explain)).toBe('Position 2 out of 5 with 85, shared by 2.');
    expect(explainText(ranks.get('amina')!.explain)).toBe('Position 1 out of 5 with 90.');
  });

  it('a learner without a total has no position', () => {
    const esther = rankScores(learners).get('esther');
    expect(esther?.value).toBeNull();
    expect(explainText(esther!.explain)).toBe('No position: no total to rank by.');
  });

  it('totals equal but for floating-point noise tie', () => {
    const ranks = rankScores([
      { id: 'a', stream: 'S', score: 0.1 + 0.2 },
      { id: 'b', stream: 'S', score: 0.3 },
    ]);
    expect([ranks.get('a')?.value?.rank, ranks.get('b')?.value?.rank]).toEqual([1, 1]);
  });

  it('by aggregate, the lower ranks first', () => {
    const ranks = rankScores(
      [
        { id: 'a', stream: 'S', score: 12 },
        { id: 'b', stream: 'S', score: 4 },
        { id: 'c', stream: 'S', score: 12 },
      ],
      'lower',
    );
    expect(['a', 'b', 'c'].map((id) => ranks.get(id)?.value?.rank)).toEqual([2, 1, 2]);
  });

  it('in the class and in each stream', () => {
    const positions = classPositions(learners);
    expect(positions.get('carol')).toMatchObject({ class: { value: { rank: 2, outOf: 5 } }, stream: { value: { rank: 2, outOf: 3 } } });
    expect(positions.get('brian')).toMatchObject({ class: { value: { rank: 2, outOf: 5 } }, stream: { value: { rank: 1, outOf: 2 } } });
    expect(positions.get('esther')?.stream.value).toBeNull();
  });
});

describe('means', () => {
  it('class and stream means over the learners with a total', () => {
    const means = classMeans(learners);
    expect(means.class.value).toBe(78);
    expect(explainText(means.class.explain)).toBe('Mean 78: 390 over 5 learners.');
    expect(means.streams.get('East')?.value).toBeCloseTo(235 / 3);
    expect(means.streams.get('West')?.value).toBe(77.5);
  });

  it('no total, no mean', () => {
    expect(meanScore([null, null])).toEqual({ value: null, explain: { code: 'mean.none', params: {} } });
  });
});
