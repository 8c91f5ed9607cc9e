import {
  DEFAULT_GRADING_RULES,
  DEFAULT_REPORT_LAYOUT,
  defaultGradeBands,
  type Explanation,
  explainText,
  type GradingRules,
  GradingRulesSchema,
  type ReportLearner,
  ReportModelSchema,
  renderReportHtml,
} from '@mustard/shared';
import { describe, expect, it } from 'vitest';
import { buildReportModel, type ReportInputs, type ReportMarkRow } from './report-model.js';

/*
 * The report model's pure core: rows in, the model out, checked against hand-worked numbers.
 * No database (the API tests in reports.test.ts read the same rows from both).
 */

const BOT = { id: '00000000-0000-4000-8000-000000000001', label: 'BOT', outof: 100 };
const MOT = { id: '00000000-0000-4000-8000-000000000002', label: 'MOT', outof: 100 };
const EOT = { id: '00000000-0000-4000-8000-000000000003', label: 'EOT', outof: 100 };
const subjectId = (n: number) => `00000000-0000-4000-9000-00000000000${n}`;
const learnerId = (n: number) => `00000000-0000-4000-a000-00000000000${n}`;
const PLE = [
  { id: subjectId(1), name: 'English', code: 'ENG', category: 'english' },
  { id: subjectId(2), name: 'Mathematics', code: 'MTC', category: 'mathematics' },
  { id: subjectId(3), name: 'Science', code: 'SCI', category: 'science' },
  { id: subjectId(4), name: 'Social Studies', code: 'SST', category: 'humanity' },
];
const WEIGHTS = new Map([
  [BOT.id, 20],
  [MOT.id, 30],
  [EOT.id, 50],
]);

function learner(n: number, stream: string) {
  return { id: learnerId(n), studentid: `MPS/00${n}`, fullname: `Learner ${n}`, gender: 'F' as const, form: 'P7', stream, photo: null };
}

/** One mark per (learner, subject, mark type); `ABS` for an absence, null for no row. */
function marksOf(n: number, bySubject: Array<[number | 'ABS' | null, number | 'ABS' | null, number | 'ABS' | null]>): ReportMarkRow[] {
  return bySubject.flatMap((values, index) =>
    [BOT, MOT, EOT].flatMap((type, at) => {
      const value = values[at];
      if (value === null || value === undefined) return [];
      return [
        {
          student_id: learnerId(n),
          subject_id: subjectId(index + 1),
          marktype_id: type.id,
          paper: 'I',
          mark: value === 'ABS' ? null : value,
          absent: value === 'ABS',
        },
      ];
    }),
  );
}

function inputs(overrides: Partial<ReportInputs> = {}): ReportInputs {
  const bands = defaultGradeBands();
  return {
    school: {
      name: 'St. Kizito Primary School',
      address: 'P.O. Box 12, Masaka',
      phone: null,
      email: null,
      logo: null,
      lines: ['Strive for excellence'],
    },
    report: {
      label: 'END OF TERM',
      form: 'P7',
      stream: null,
      term: 'III',
      year: 2026,
      category: 'exam',
      level: 'primary',
      rawmark: false,
      separate: true,
    },
    rules: DEFAULT_GRADING_RULES,
    layout: DEFAULT_REPORT_LAYOUT,
    markTypes: [BOT, MOT, EOT],
    markTypeLabels: new Map([BOT, MOT, EOT].map((type) => [type.id, type.label])),
    subjects: PLE,
    learners: [learner(1, 'East'), learner(2, 'East'), learner(3, 'West'), learner(4, 'West')],
    printed: null,
    marks: [
      // Learner 1: 80 in every exam of every subject: D1 everywhere, aggregate 4.
      ...marksOf(1, [
        [80, 80, 80],
        [80, 80, 80],
        [80, 80, 80],
        [80, 80, 80],
      ]),
      // Learner 2: English 50/60/70 -> 10 + 18 + 35 = 63 (C5, 5); the rest 70 (C3, 3): aggregate 14, Division II.
      ...marksOf(2, [
        [50, 60, 70],
        [70, 70, 70],
        [70, 70, 70],
        [70, 70, 70],
      ]),
      // Learner 3: the same averages as learner 2 (a tie in the class).
      ...marksOf(3, [
        [50, 60, 70],
        [70, 70, 70],
        [70, 70, 70],
        [70, 70, 70],
      ]),
      // Learner 4: absent from the Science EOT: no Science total, Division X.
      ...marksOf(4, [
        [60, 60, 60],
        [60, 60, 60],
        [60, 60, 'ABS'],
        [60, 60, 60],
      ]),
    ],
    bands: new Map(PLE.map((subject) => [subject.id, bands])),
    proportions: new Map(PLE.map((subject) => [subject.id, WEIGHTS])),
    initials: new Map([[`${subjectId(1)}|East`, 'G.N.']]),
    attendance: new Map([[learnerId(1), { days: 60, total: 64 }]]),
    gradeKey: 'D1 80-100, D2 75-79',
    footers: [{ title: 'Next term begins', text: '1 February 2027' }],
    photoFiles: new Map(),
    remarkTypes: [],
    remarks: new Map(),
    subjectComments: new Map(),
    ...overrides,
  };
}

const byStudent = (learners: ReportLearner[], n: number) => learners.find((each) => each.id === learnerId(n)) as ReportLearner;

/** Every explanation of a learner's numbers, so that none is missing. */
function explanationsOf(learner: ReportLearner): Array<Explanation | null> {
  return [
    ...learner.subjects.flatMap((subject) => [subject.explain.total, subject.explain.grade]),
    learner.explain.total,
    learner.explain.average,
    learner.explain.aggregate,
    learner.explain.division,
    learner.explain.position.stream,
    learner.explain.position.class,
  ];
}

describe('the report model of a primary class', () => {
  // The school rule `none` for a missed mark type (learner 4's Science EOT): no total, Division X.
  const model = buildReportModel(inputs({ rules: { ...DEFAULT_GRADING_RULES, missed: 'none' } }));

  it('is what the contract declares', () => {
    expect(ReportModelSchema.parse(model)).toEqual(model);
  });

  it('totals each subject through its proportions, and grades it', () => {
    const english = byStudent(model.learners, 2).subjects[0];
    expect(english).toMatchObject({ subject: 'English', total: 63, grade: 'C5', marks: { BOT: 10, MOT: 18, EOT: 35 }, initials: 'G.N.' });
    expect(explainText(english?.explain.total as Explanation, true)).toContain('MOT: 60% weighted 30% gives 18.');
    expect(explainText(english?.explain.grade as Explanation)).toBe('63 is in C5 (60 to 64), value 5.');
  });

  it('gives aggregates and divisions by PLE, and X to a learner absent from a counted exam', () => {
    expect([1, 2, 3, 4].map((n) => [byStudent(model.learners, n).aggregate, byStudent(model.learners, n).division])).toEqual([
      [4, 'I'],
      [14, 'II'],
      [14, 'II'],
      [null, 'X'],
    ]);
    const absent = byStudent(model.learners, 4);
    expect(absent.subjects[2]).toMatchObject({ subject: 'Science', total: null, grade: null, marks: { EOT: 'ABS' } });
    expect(explainText(absent.explain.division as Explanation, true)).toContain('Science has no mark (missing).');
  });

  it('by default a missed exam is re-weighted: Science on BOT and MOT (12 + 18) / 50 x 100 = 60, C5, EOT named; Division II, ranked', () => {
    const reweighted = byStudent(buildReportModel(inputs()).learners, 4);
    expect(reweighted.subjects[2]).toMatchObject({ subject: 'Science', total: 60, grade: 'C5', missed: ['EOT'], marks: { EOT: 'ABS' } });
    expect(reweighted.subjects[0]?.missed).toEqual([]);
    expect([reweighted.aggregate, reweighted.division, reweighted.position.class]).toEqual([20, 'II', 4]);
    expect(reweighted.explain.position.class.code).toBe('position.rank');
  });

  it('ranks by aggregate then the counted total, in the class and in the stream, ties sharing a rank, the incomplete after', () => {
    const positions = [1, 2, 3, 4].map((n) => byStudent(model.learners, n).position);
    expect(positions).toEqual([
      { stream: 1, class: 1, of: 4, streamOf: 2 },
      { stream: 2, class: 2, of: 4, streamOf: 2 },
      { stream: 1, class: 2, of: 4, streamOf: 2 },
      { stream: 2, class: 4, of: 4, streamOf: 2 },
    ]);
    expect(explainText(byStudent(model.learners, 3).explain.position.class)).toBe(
      'Position 2 out of 4, ranked by aggregate (lower first): 14, ties broken by the total 273; shared by 2.',
    );
    expect(explainText(byStudent(model.learners, 4).explain.position.class)).toBe(
      'Position 4 out of 4: the result is incomplete (a counted subject has no mark), so it follows every complete result, by the total 180.',
    );
  });

  it('explains every number', () => {
    for (const each of model.learners) {
      for (const explain of explanationsOf(each)) {
        expect(explain).not.toBeNull();
        expect(explainText(explain as Explanation).length).toBeGreaterThan(5);
      }
    }
  });

  it('carries attendance, the grading key and the footers', () => {
    expect(byStudent(model.learners, 1).attendance).toEqual({ days: 60, total: 64 });
    expect(byStudent(model.learners, 2).attendance).toBeNull();
    expect(model.gradeKey).toBe('D1 80-100, D2 75-79');
    expect(byStudent(model.learners, 1).footers).toEqual([{ title: 'Next term begins', text: '1 February 2027' }]);
  });

  it('prints one stream, still ranked in the whole class', () => {
    const west = buildReportModel(inputs({ printed: new Set([learnerId(3), learnerId(4)]) }));
    expect(west.learners.map((each) => each.id)).toEqual([learnerId(3), learnerId(4)]);
    expect(west.learners[0]?.position).toEqual({ stream: 1, class: 2, of: 4, streamOf: 2 });
  });
});

describe('what the report options change', () => {
  it('Display raw marks shows the marks as entered rather than weighted', () => {
    const model = buildReportModel(inputs({ report: { ...inputs().report, rawmark: true } }));
    expect(byStudent(model.learners, 2).subjects[0]?.marks).toEqual({ BOT: 50, MOT: 60, EOT: 70 });
    expect(byStudent(model.learners, 2).subjects[0]?.total).toBe(63);
  });

  it('a mid-term report (BOT and MOT) averages its marks and says the proportions weigh EOT too', () => {
    const model = buildReportModel(inputs({ markTypes: [BOT, MOT] }));
    const english = byStudent(model.learners, 2).subjects[0];
    expect(english).toMatchObject({ total: 55, grade: 'C6', marks: { BOT: 50, MOT: 60 } });
    expect(explainText(english?.explain.total as Explanation, true)).toContain(
      'The proportions also weigh EOT, which this report does not cover: the marks shown are averaged instead.',
    );
  });

  it("a school's own rules change the division: Division I up to an aggregate of 14", () => {
    const rules: GradingRules = structuredClone(DEFAULT_GRADING_RULES);
    rules.primary.divisions[0]!.aggregateAtMost = 14;
    const model = buildReportModel(inputs({ rules: GradingRulesSchema.parse(rules) }));
    expect(byStudent(model.learners, 2).division).toBe('I');
  });
});

describe('what a head teacher must fix before printing', () => {
  it('names proportions that do not add up to 100, a subject without a grade set and a grade set with a gap', () => {
    const gapped = defaultGradeBands().filter((band) => band.grade !== 'C4');
    const model = buildReportModel(
      inputs({
        proportions: new Map(PLE.map((subject, index) => [subject.id, index === 1 ? new Map([...WEIGHTS, [EOT.id, 40]]) : WEIGHTS])),
        bands: new Map([
          [subjectId(1), defaultGradeBands()],
          [subjectId(2), defaultGradeBands()],
          [subjectId(3), gapped],
        ]),
      }),
    );
    expect(model.warnings.map((warning) => `${warning.subject}: ${explainText(warning.explain)}`)).toEqual([
      'Mathematics: The proportions add up to 90%, not 100%; the total is not scaled.',
      'Science: The grade set of Science gives no grade to marks from 65 to 69.',
      'Social Studies: Social Studies has no grade set for this class and term: its marks have no grade.',
    ]);
    expect(byStudent(model.learners, 2).subjects[3]).toMatchObject({ total: 70, grade: null });
  });
});

describe('an A-level class', () => {
  const subjects = [
    { id: subjectId(5), name: 'Physics', code: 'PHY', category: 'science' },
    { id: subjectId(6), name: 'General Paper', code: 'GP', category: 'subsidiary' },
  ];
  const paperMark = (subject: number, paper: string, mark: number | null, absent = false): ReportMarkRow => ({
    student_id: learnerId(1),
    subject_id: subjectId(subject),
    marktype_id: EOT.id,
    paper,
    mark,
    absent,
  });
  const alevel = (marks: ReportMarkRow[]) =>
    buildReportModel(
      inputs({
        report: { ...inputs().report, form: 'S6', level: 'alevel' },
        markTypes: [EOT],
        subjects,
        learners: [{ ...learner(1, 'A'), form: 'S6' }],
        marks,
        proportions: new Map(),
        bands: new Map(subjects.map((subject) => [subject.id, defaultGradeBands()])),
      }),
    ).learners[0] as ReportLearner;

  it('grades each paper, gives the subject letter and points, and the subsidiary its point', () => {
    // Physics papers 80 (D1), 72 (C3), 76 (D2): values 1, 3, 2, the worst 3 and the others at most 2: A.
    const result = alevel([paperMark(5, 'I', 80), paperMark(5, 'II', 72), paperMark(5, 'III', 76), paperMark(6, 'I', 58)]);
    const [physics, gp] = result.subjects;
    expect(physics).toMatchObject({
      papers: [
        { paper: 'I', mark: 80, grade: 'D1' },
        { paper: 'II', mark: 72, grade: 'C3' },
        { paper: 'III', mark: 76, grade: 'D2' },
      ],
      grade: 'A',
      points: 6,
      total: 76,
    });
    expect(gp).toMatchObject({ grade: 'C6', points: 1 });
    expect(result.points).toBe(7);
    expect(explainText(result.explain.points as Explanation)).toBe('Total 7 points from 2 subjects.');
  });

  it('an absent paper leaves the principal without a letter and 0 points', () => {
    const result = alevel([paperMark(5, 'I', 80), paperMark(5, 'II', null, true), paperMark(6, 'I', 58)]);
    expect(result.subjects[0]).toMatchObject({ grade: null, points: 0 });
    expect(result.points).toBe(1);
  });
});

describe('a card a head teacher signs (issue 24 point 3)', () => {
  const raw = (overrides: Partial<ReportInputs> = {}) => {
    const base = inputs({ footers: [], ...overrides });
    return buildReportModel({ ...base, report: { ...base.report, rawmark: true } });
  };

  it('raw marks under the plain mark type heads; weighted parts headed with their proportion, or "weighted" where subjects differ', () => {
    const model = raw();
    expect(model.markTypes.map((type) => type.heading)).toEqual(['BOT', 'MOT', 'EOT']);
    expect(model.learners[1]?.subjects[0]?.marks).toEqual({ BOT: 50, MOT: 60, EOT: 70 });
    expect(renderReportHtml(model, DEFAULT_REPORT_LAYOUT)).toContain('<th>BOT</th><th>MOT</th><th>EOT</th>');
    const mixed = new Map(
      PLE.map((subject, index) => [
        subject.id,
        index === 0
          ? new Map([
              [BOT.id, 40],
              [MOT.id, 10],
              [EOT.id, 50],
            ])
          : WEIGHTS,
      ]),
    );
    const weighted = buildReportModel(inputs({ proportions: mixed }));
    expect(weighted.markTypes.map((type) => type.heading)).toEqual(['BOT weighted', 'MOT weighted', 'EOT 50%']);
  });

  it('the key: the grades, the division rule in force, X, the missed-test rule and what the marks are', () => {
    expect(raw().key).toEqual([
      'Grades: D1–C6 credit, P7–P8 pass, F9 fail',
      'Division I: aggregate 4–12; Division II: aggregate 13–23; Division III: aggregate 24–29; Division IV: aggregate 30–34; Division U: aggregate above 34 (the 4 counted subjects)',
      'X: no mark in a counted subject, not graded',
      expect.stringMatching(/^MOT ABS: a test missed/),
      'BOT, MOT, EOT: marks as entered; Total: out of 100',
    ]);
    const rules = {
      ...DEFAULT_GRADING_RULES,
      primary: { ...DEFAULT_GRADING_RULES.primary, divisions: [{ division: 'I', aggregateAtMost: 10 }] },
    };
    expect(raw({ rules }).key[1]).toBe('Division I: aggregate 4–10; Division U: aggregate above 10 (the 4 counted subjects)');
    const zero = raw({ rules: { ...DEFAULT_GRADING_RULES, missed: 'zero' } as GradingRules });
    expect(zero.key).toContain('MOT ABS: a test missed, counted as 0');
  });

  it('the learner’s LIN, next term’s dates and the fees balance where known, and the two signature lines', () => {
    const model = raw({
      learners: [{ ...learner(1, 'East'), lin: 'U0012345' }, learner(2, 'East')],
      marks: [...marksOf(1, [[80, 80, 80]]), ...marksOf(2, [[70, 70, 70]])],
      nextTerm: { term: 'I', year: 2027, starts: '2027-02-01', ends: '2027-04-30' },
      feesBalances: new Map([[learnerId(1), '150000.00']]),
    });
    expect(model.learners.map((each) => [each.lin, each.feesBalance])).toEqual([
      ['U0012345', '150000.00'],
      [null, null],
    ]);
    expect(model.signatures).toEqual(["Class teacher's signature", "Head teacher's signature"]);
    const html = renderReportHtml(model, DEFAULT_REPORT_LAYOUT);
    const [first, second] = html.split('<section').slice(1) as [string, string];
    expect(first).toContain('<span class="label">LIN</span> <b>U0012345</b>');
    expect(first).toContain('<span class="label">Next term begins</span> <b>1 February 2027</b>');
    expect(first).toContain('<span class="label">Next term ends</span> <b>30 April 2027</b>');
    expect(first).toContain('<span class="label">Fees balance</span> <b>150,000</b>');
    expect(second).not.toContain('Fees balance');
    expect(second).toContain('Head teacher&#39;s signature');
  });

  it('the school’s own footers for next term and signatures are printed once, the school’s', () => {
    const model = raw({
      footers: [
        { title: 'Next term begins', text: 'Monday, 2 February 2027' },
        { title: "Head teacher's signature", text: '______' },
      ],
      nextTerm: { term: 'I', year: 2027, starts: '2027-02-01', ends: '2027-04-30' },
    });
    expect(model.nextTerm).toBeNull();
    expect(model.signatures).toEqual(["Class teacher's signature"]);
  });

  it('no position in stream for a class of one stream; both positions for a class of two', () => {
    const one = raw({
      learners: [learner(1, 'East'), learner(2, 'East')],
      marks: [...marksOf(1, [[80, 80, 80]]), ...marksOf(2, [[70, 70, 70]])],
    });
    expect(one.streams).toBe(1);
    const html = renderReportHtml(one, DEFAULT_REPORT_LAYOUT);
    expect(html).not.toContain('Position in stream');
    expect(html).toContain('Position in class');
    expect(renderReportHtml(raw(), DEFAULT_REPORT_LAYOUT)).toContain('Position in stream');
  });
});

describe('the HTML preview', () => {
  const model = buildReportModel(inputs());

  it('shows each learner once, with marks, division and positions, each number explaining itself', () => {
    const html = renderReportHtml(model, DEFAULT_REPORT_LAYOUT);
    expect(html.match(/class="card"/g)).toHaveLength(4);
    expect(html).toContain('St. Kizito Primary School');
    expect(html).toContain('Strive for excellence');
    expect(html).toContain('END OF TERM — TERM III 2026');
    expect(html).toMatch(/data-explain="division"><summary>II<\/summary><div class="because">Aggregate 14 is at most 23: Division II\./);
    expect(html).toContain('2 out of 2');
    // Weighted parts (the pure core was asked for them): each head says its proportion.
    expect(html).toContain('<th>BOT 20%</th><th>MOT 30%</th><th>EOT 50%</th>');
    expect(html).not.toContain('<script');
  });

  it('follows the layout: sections, columns, positions', () => {
    const html = renderReportHtml(model, {
      ...DEFAULT_REPORT_LAYOUT,
      sections: ['subjects', 'header'],
      columns: ['grade'],
      showPositions: false,
    });
    const card = html.slice(html.indexOf('<section'));
    expect(card.indexOf('<table')).toBeLessThan(card.indexOf('<header'));
    expect(card).not.toContain('<th>Total</th>');
    expect(card).not.toContain('Position in class');
    expect(card).not.toContain('Days attended');
  });

  it('makes every text of the school and the learners inert', () => {
    const hostile = buildReportModel(
      inputs({
        school: { ...inputs().school, name: '<img src=x onerror=alert(1)>' },
        learners: [{ ...learner(1, 'East'), fullname: '"><script>alert(1)</script>' }],
        marks: marksOf(1, [[80, 80, 80]]),
      }),
    );
    const html = renderReportHtml(hostile, DEFAULT_REPORT_LAYOUT);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;script&gt;');
  });
});
