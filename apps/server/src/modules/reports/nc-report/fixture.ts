import {
  DEFAULT_NC_RULES,
  DEFAULT_REPORT_LAYOUT,
  explanation,
  type NcLearnerCard,
  type NcReportModel,
  NcReportModelSchema,
  type NcSubjectRow,
  type ReportLayout,
} from '@mustard/shared';
import { fixtureName } from '../pdf/fixture.js';

/*
 * A new-curriculum class's cards made by hand for the drawer's benchmark and tests (not the
 * grader's output, which has tests of its own): S2 learners with ten subjects of four
 * competencies each, scores that spread like a class's, an ABS here and there, remarks on
 * competency and generic skills of a sentence each, a project, the report remarks and both
 * keys. Deterministic: the same options give the same model.
 */

const SUBJECTS = [
  'English Language',
  'Mathematics',
  'Biology',
  'Chemistry',
  'Physics',
  'Geography',
  'History and Political Education',
  'Christian Religious Education',
  'Kiswahili',
  'Physical Education',
];
const TOPICS = [
  'Number bases',
  'Working with integers',
  'Reading for meaning',
  'Cells and their functions',
  'Maps and scale',
  'Forces and motion',
];
const REMARKS = [
  'Reads with understanding and explains ideas clearly in class.',
  'Works carefully; should practise more problems at home.',
  'Shows curiosity and asks good questions during practical work.',
];
const SKILLS = [
  'Works well with others and shares ideas.',
  'Communicates clearly and listens to peers.',
  'Shows creativity in solving problems.',
];

export interface NcFixtureOptions {
  learners: number;
  topics?: boolean;
  comments?: boolean;
  summary?: boolean;
  seed?: number;
}

/** A score out of 3 to one decimal, spread 1.0 to 3.0 by the learner and subject; null now and then (ABS). */
function scoreOf(learner: number, subject: number, topic: number, seed: number): number | null {
  const value = ((learner * 37 + subject * 11 + topic * 7 + seed * 13) % 21) / 10 + 1;
  return (learner + subject + topic) % 29 === 0 ? null : Math.round(value * 10) / 10;
}

const identifierOf = (score: number | null) => (score === null ? null : score >= 2.5 ? 'Outstanding' : score >= 1.5 ? 'Moderate' : 'Basic');
const gradeOf = (total: number) => DEFAULT_NC_RULES.grades.find((band) => total >= band.atLeast) ?? null;
const cut = (value: number) => Math.trunc(value * 10) / 10;

export function ncReportFixture(options: NcFixtureOptions): NcReportModel {
  const seed = options.seed ?? 1;
  const comments = options.comments ?? true;
  const learners: NcLearnerCard[] = Array.from({ length: options.learners }, (_, l) => {
    const subjects: NcSubjectRow[] = SUBJECTS.map((subject, s) => {
      const topics = Array.from({ length: 4 }, (_, c) => {
        const score = scoreOf(l, s, c, seed);
        return {
          topic_id: `00000000-0000-4000-8000-${String(s * 10 + c).padStart(12, '0')}`,
          title: TOPICS[(s + c) % TOPICS.length] as string,
          score,
          identifier: identifierOf(score),
          explain: { score: explanation('nc.topic', { title: 'T', aois: [score ?? '-'], score }) },
        };
      });
      const scored = topics.flatMap((topic) => (topic.score === null ? [] : [topic.score]));
      const score = scored.length ? scored.reduce((sum, value) => sum + value, 0) / scored.length : null;
      const exam = 35 + ((l * 17 + s * 23 + seed) % 60);
      const formative = score === null ? null : cut((score / 3) * 20);
      const summative = cut(exam * 0.8);
      const total = formative === null ? null : cut(formative + summative);
      const grade = total === null ? null : gradeOf(total);
      return {
        subject_id: `00000000-0000-4000-9000-${String(s).padStart(12, '0')}`,
        subject,
        topics,
        score: score === null ? null : Math.round(score * 10) / 10,
        identifier: identifierOf(score),
        formative,
        summative,
        total,
        grade: grade?.grade ?? null,
        descriptor: grade?.descriptor ?? null,
        comment: comments ? (REMARKS[(l + s) % REMARKS.length] as string) : '',
        skills: comments ? (SKILLS[(l + s) % SKILLS.length] as string) : '',
        initials: 'G.N.',
        explain: {
          score: explanation('nc.subjectScore', { scores: [score ?? 0], score, identifier: identifierOf(score) }),
          formative: explanation('nc.formative', { score, formative }),
          summative: explanation('nc.summative', { mark: exam, outof: 100, percent: exam, summative }),
          total: explanation('nc.total', { formative, summative, total }),
          grade: explanation('grade.noMark', {}),
        },
      };
    });
    const totals = subjects.flatMap((subject) => (subject.total === null ? [] : [subject.total]));
    const total = totals.length ? cut(totals.reduce((sum, value) => sum + value, 0) / totals.length) : null;
    return {
      id: `00000000-0000-4000-a000-${String(l).padStart(12, '0')}`,
      studentid: `S2/${String(l + 1).padStart(4, '0')}`,
      fullname: fixtureName(l + seed),
      lin: `LIN${String(100000 + l)}`,
      form: 'S2',
      stream: l % 2 ? 'East' : 'West',
      photo: null,
      attendance: { days: 58 + (l % 4), total: 62 },
      subjects,
      unscored: [],
      overall: {
        score: 2.1,
        identifier: 'Moderate',
        total,
        grade: total === null ? null : (gradeOf(total)?.grade ?? null),
        explain: { score: explanation('nc.subjectNoScore', {}), total: explanation('nc.totalIncomplete', {}) },
      },
      project: [
        {
          title: 'Community water survey',
          subject: 'Geography',
          score: 6 + (l % 5),
          max: 10,
          comment: comments ? 'A careful survey of the village wells.' : '',
        },
      ],
      remarks: [
        { remarktype_id: null, label: "Class teacher's remarks", text: comments ? 'A steady term; keep reading every day.' : '' },
        { remarktype_id: null, label: "Head teacher's remarks", text: comments ? 'Good progress. Aim higher next term.' : '' },
      ],
      certificate: null,
      feesBalance: null,
    };
  });
  return NcReportModelSchema.parse({
    school: {
      name: 'Mustard Demo Secondary School',
      address: 'P.O. Box 123, Kampala',
      phone: '+256 700 000000',
      email: 'info@demo.ug',
      logo: null,
      lines: ['Education for life'],
    },
    report: {
      label: 'END OF TERM',
      form: 'S2',
      stream: null,
      term: 'I',
      year: 2026,
      exam: 'EOT',
      summary: options.summary ?? true,
      topics: options.topics ?? true,
      noformative: false,
      comments,
    },
    keys: {
      identifiers: [
        { label: 'Outstanding', from: 2.5, to: 3, descriptor: DEFAULT_NC_RULES.identifiers[0]?.descriptor ?? '' },
        { label: 'Moderate', from: 1.5, to: 2.49, descriptor: DEFAULT_NC_RULES.identifiers[1]?.descriptor ?? '' },
        { label: 'Basic', from: 0, to: 1.49, descriptor: DEFAULT_NC_RULES.identifiers[2]?.descriptor ?? '' },
      ],
      grades: DEFAULT_NC_RULES.grades.map((band, index, all) => ({
        grade: band.grade,
        from: band.atLeast,
        to: index === 0 ? 100 : (all[index - 1]?.atLeast ?? 100) - 1,
        descriptor: band.descriptor,
      })),
    },
    nextTerm: { term: 'II', year: 2026, starts: '2026-05-25', ends: '2026-08-21' },
    signatures: ["Class teacher's signature", "Head teacher's signature"],
    learners,
  });
}

/** The default layout, photos on (the fixture has none). */
export const NC_FIXTURE_LAYOUT: ReportLayout = DEFAULT_REPORT_LAYOUT;
