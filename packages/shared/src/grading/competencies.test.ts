import { describe, expect, it } from 'vitest';
import { ABSENT } from '../marks/cells.js';
import { competencyScores, displayScore, identifierOf, subjectCompetencyScore } from './competencies.js';
import { exact, toNumber } from './exact.js';

describe("a competency's score", () => {
  it('is the mean of its activities of integration, an absence neither a score nor a 0', () => {
    const [numbers, fractions] = competencyScores([
      { topic_id: 'numbers', marktype_id: 'aoi1', value: 2 },
      { topic_id: 'fractions', marktype_id: 'aoi1', value: 3 },
      { topic_id: 'numbers', marktype_id: 'aoi2', value: 3 },
      { topic_id: 'fractions', marktype_id: 'aoi2', value: ABSENT },
    ]);
    expect(numbers?.topic_id).toBe('numbers');
    expect(toNumber(numbers?.score ?? null)).toBe(2.5);
    expect(numbers?.identifier).toBe('Outstanding');
    expect(fractions?.aois).toEqual([3, ABSENT]);
    expect(toNumber(fractions?.score ?? null)).toBe(3);
  });

  it('has no score when every activity was missed, and is left off when nothing is stored', () => {
    const scores = competencyScores([
      { topic_id: 'missed', marktype_id: 'aoi1', value: ABSENT },
      { topic_id: 'empty', marktype_id: 'aoi1', value: null },
    ]);
    expect(scores).toEqual([{ topic_id: 'missed', aois: [ABSENT], score: null, identifier: null, absent: true }]);
  });

  it('is described exactly at the bands: 2.5 Outstanding, 2.4 and 1.5 Moderate, 1.4 Basic', () => {
    expect(identifierOf(exact(2.5))).toBe('Outstanding');
    expect(identifierOf(exact(2.4))).toBe('Moderate');
    expect(identifierOf(exact(1.5))).toBe('Moderate');
    expect(identifierOf(exact(1.4))).toBe('Basic');
    // (2.4 + 2.5 + 2.6) / 3 is 2.5 exactly: Outstanding, though floats add it to 2.4999...
    const [topic] = competencyScores([
      { topic_id: 't', marktype_id: 'a', value: 2.4 },
      { topic_id: 't', marktype_id: 'b', value: 2.5 },
      { topic_id: 't', marktype_id: 'c', value: 2.6 },
    ]);
    expect(topic?.identifier).toBe('Outstanding');
  });
});

describe("a subject's score", () => {
  it('is the mean of its scored competencies, shown to one decimal', () => {
    const topics = competencyScores([
      { topic_id: 'a', marktype_id: 'x', value: 3 },
      { topic_id: 'b', marktype_id: 'x', value: 2 },
      { topic_id: 'c', marktype_id: 'x', value: 2 },
      { topic_id: 'd', marktype_id: 'x', value: ABSENT },
    ]);
    const subject = subjectCompetencyScore(topics);
    expect(displayScore(subject.score)).toBe(2.3);
    expect(subject.identifier).toBe('Moderate');
    expect(subjectCompetencyScore([])).toEqual({ score: null, identifier: null });
    expect(displayScore(exact(2.45))).toBe(2.5);
  });
});
