import { describe, expect, it } from 'vitest';
import { exact } from '../exact.js';
import { explainText } from './explain.js';
import { classMeans, classPositions, meanScore, type RankBasis, type Ranked, rankGroup } from './positions.js';

const byTotal: RankBasis = { by: 'total', order: 'higher', tieByTotal: false, incomplete: 'after' };
const byAggregate: RankBasis = { by: 'aggregate', order: 'lower', tieByTotal: true, incomplete: 'after' };

/** Complete results scored by their total. */
const scored = (id: string, stream: string, score: number | null): Ranked => ({ id, stream, complete: true, score, total: score });

const learners = [
  scored('amina', 'East', 90),
  scored('brian', 'West', 85),
  scored('carol', 'East', 85),
  scored('david', 'West', 70),
  scored('esther', 'East', null),
  scored('frank', 'East', 60),
];

describe('positions', () => {
  it('ties share a rank: 1, 2, 2, 4, out of the learners ranked', () => {
    const ranks = rankGroup(learners, byTotal);
    expect(['amina', 'brian', 'carol', 'david', 'frank'].map((id) => ranks.get(id)?.value)).toEqual([
      { rank: 1, outOf: 5 },
      { rank: 2, outOf: 5 },
      { rank: 2, outOf: 5 },
      { rank: 4, outOf: 5 },
      { rank: 5, outOf: 5 },
    ]);
    expect(explainText(ranks.get('brian')!.explain)).toBe('Position 2 out of 5, ranked by total (higher first): 85; shared by 2.');
    expect(explainText(ranks.get('amina')!.explain)).toBe('Position 1 out of 5, ranked by total (higher first): 90.');
  });

  it('a learner without a total has no position', () => {
    const esther = rankGroup(learners, byTotal).get('esther');
    expect(esther?.value).toBeNull();
    expect(explainText(esther!.explain)).toBe('No position: no total to rank by.');
  });

  it('equal totals tie, compared exactly', () => {
    const ranks = rankGroup(
      [
        { id: 'a', stream: 'S', complete: true, score: exact(0.1).add(exact(0.2)), total: null },
        { id: 'b', stream: 'S', complete: true, score: exact(0.3), total: null },
        { id: 'c', stream: 'S', complete: true, score: exact(0.29), total: null },
      ],
      byTotal,
    );
    expect(['a', 'b', 'c'].map((id) => ranks.get(id)?.value?.rank)).toEqual([1, 1, 3]);
  });

  it('by aggregate the lower ranks first, ties broken by the total of the counted subjects', () => {
    const ranks = rankGroup(
      [
        { id: 'a', stream: 'S', complete: true, score: 12, total: 300 },
        { id: 'b', stream: 'S', complete: true, score: 4, total: 380 },
        { id: 'c', stream: 'S', complete: true, score: 12, total: 310 },
        { id: 'd', stream: 'S', complete: true, score: 12, total: 310 },
      ],
      byAggregate,
    );
    expect(['a', 'b', 'c', 'd'].map((id) => ranks.get(id)?.value?.rank)).toEqual([4, 1, 2, 2]);
    expect(explainText(ranks.get('c')!.explain)).toBe(
      'Position 2 out of 4, ranked by aggregate (lower first): 12, ties broken by the total 310; shared by 2.',
    );
  });

  it('an incomplete result never ranks above a complete one: it follows by total, or stays unranked', () => {
    const group: Ranked[] = [
      // 90, 90, 90 and ABS: Division X, no aggregate, a higher total than Brian's.
      { id: 'absent-once', stream: 'S', complete: false, score: null, total: 270 },
      { id: 'brian', stream: 'S', complete: true, score: 4, total: 260 },
      { id: 'carol', stream: 'S', complete: true, score: 20, total: 200 },
      { id: 'no-marks', stream: 'S', complete: false, score: null, total: null },
    ];
    const after = rankGroup(group, byAggregate);
    expect(['brian', 'carol', 'absent-once', 'no-marks'].map((id) => after.get(id)?.value)).toEqual([
      { rank: 1, outOf: 3 },
      { rank: 2, outOf: 3 },
      { rank: 3, outOf: 3 },
      null,
    ]);
    expect(explainText(after.get('absent-once')!.explain)).toBe(
      'Position 3 out of 3: the result is incomplete (a counted subject has no mark), so it follows every complete result, by the total 270.',
    );
    const unranked = rankGroup(group, { ...byAggregate, incomplete: 'unranked' });
    expect(['brian', 'carol', 'absent-once'].map((id) => unranked.get(id)?.value)).toEqual([
      { rank: 1, outOf: 2 },
      { rank: 2, outOf: 2 },
      null,
    ]);
    expect(explainText(unranked.get('absent-once')!.explain)).toContain('the school does not rank incomplete results');
  });

  it('in the class and in each stream', () => {
    const positions = classPositions(learners, byTotal);
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
