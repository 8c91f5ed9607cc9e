import { describe, expect, it } from 'vitest';
import { defaultGradeBands } from '../grading/bands.js';
import { explainText } from '../grading/engine/explain.js';
import { DEFAULT_GRADING_RULES } from '../grading/engine/rules.js';
import { gradeClass } from './graded-class.js';
import type { GradingInputs, GradingMark, GradingSubject } from './graded-results.js';

/*
 * A class graded once (issue 25 point 2): every learner's result, positions in the class and
 * the stream counting only the ranked, the means of the class and of each stream, each number
 * with its explanation.
 */

const EOT = { id: 'eot', label: 'EOT', outof: 50 };
const SUBJECTS: GradingSubject[] = [
  { id: 'eng', name: 'English', code: null, category: 'english' },
  { id: 'mat', name: 'Mathematics', code: null, category: 'mathematics' },
];
const inputs: GradingInputs = {
  level: 'plain',
  rawmark: true,
  rules: DEFAULT_GRADING_RULES,
  markTypes: [EOT],
  markTypeLabels: new Map([[EOT.id, EOT.label]]),
  subjects: SUBJECTS,
  bands: new Map(SUBJECTS.map((subject) => [subject.id, defaultGradeBands()])),
  proportions: new Map(),
};

const mark = (student_id: string, subject_id: string, value: number | null): GradingMark => ({
  student_id,
  subject_id,
  marktype_id: EOT.id,
  paper: 'I',
  mark: value,
  absent: value === null,
});

const learners = [
  { id: 'amina', stream: 'East' },
  { id: 'brian', stream: 'East' },
  { id: 'carol', stream: 'West' },
  { id: 'david', stream: 'West' },
];
const marks = [
  mark('amina', 'eng', 40),
  mark('amina', 'mat', 45),
  mark('brian', 'eng', 30),
  mark('brian', 'mat', 35),
  mark('carol', 'eng', 45),
  mark('carol', 'mat', 48),
  // David has no mark: graded, never ranked.
];

describe('gradeClass', () => {
  const graded = gradeClass(learners, marks, inputs);

  it('grades every learner in the order given, a mark out of 50 as its percentage', () => {
    expect(graded.results.map((each) => each.learner.id)).toEqual(['amina', 'brian', 'carol', 'david']);
    const amina = graded.results[0];
    // 40 out of 50 is 80%, 45 out of 50 is 90%.
    expect(amina?.subjects.map((subject) => subject.row.total)).toEqual([80, 90]);
    expect(amina?.subjects[0]?.row.grade).toBe('D1');
    expect(explainText(amina?.average.explain as never, true)).toContain('85');
  });

  it('ranks in the class and in each stream, counting only the ranked', () => {
    const rank = (id: string) => {
      const position = graded.positions.get(id);
      return [position?.class.value?.rank ?? null, position?.stream.value?.rank ?? null];
    };
    expect(rank('carol')).toEqual([1, 1]);
    expect(rank('amina')).toEqual([2, 1]);
    expect(rank('brian')).toEqual([3, 2]);
    expect(rank('david')).toEqual([null, null]);
    expect(graded.ranked).toEqual({
      class: 3,
      streams: new Map([
        ['East', 2],
        ['West', 1],
      ]),
    });
  });

  it('gives the means of the class and of each stream, explained', () => {
    // Averages 85, 65, 93: the class's mean 81, East's 75, West's 93 (David has none).
    expect(graded.means.class.value).toBe(81);
    expect(graded.means.streams.get('East')?.value).toBe(75);
    expect(graded.means.streams.get('West')?.value).toBe(93);
    expect(graded.means.class.explain.code).toBeTruthy();
  });
});
