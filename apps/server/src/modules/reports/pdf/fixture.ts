import {
  explanation,
  type ReportLearner,
  type ReportModel,
  ReportModelSchema,
  type ReportSubject,
  REPORT_WORDS as W,
} from '@mustard/shared';
import sharp from 'sharp';

/*
 * Report models made by hand for the PDF's tests and benchmark (not the grading engine's
 * output, which has tests of its own): a P7 class graded the PLE way or an S6 class the UACE
 * way, with Ugandan names, marks that spread like a real class's, an absence here and there,
 * positions, attendance, remarks, a grading key and footers. Deterministic: the same options
 * give the same model (ids apart).
 */

export interface ReportFixtureOptions {
  learners: number;
  level?: 'primary' | 'alevel';
  /** The streams learners are spread over, in turn (positions in the stream follow). */
  streams?: string[];
  /** No photos, one photo URL for every learner, or a URL of each learner's own. */
  photos?: 'none' | 'same' | 'each';
  /** Changes the marks (and names' order) for a different class. */
  seed?: number;
  /** The class (P7 or S6 by the level when not given). */
  form?: string;
}

export const FIXTURE_LOGO_URL = '/api/school/logo';
export const FIXTURE_SAME_PHOTO_URL = '/api/school/students/photo/same.jpg';
export const fixturePhotoUrl = (index: number) => `/api/school/students/photo/${index}.jpg`;

const SURNAMES = [
  'Nakato',
  'Mukasa',
  'Okello',
  'Nabirye',
  'Ssempala',
  'Achieng',
  'Opio',
  'Namubiru',
  'Kato',
  'Babirye',
  'Tumusiime',
  'Atim',
  'Mugisha',
  'Nansubuga',
  'Odongo',
  'Akello',
  'Wasswa',
  'Nalwanga',
  'Byaruhanga',
  'Asiimwe',
  'Kyomuhendo',
  'Ochieng',
  'Namutebi',
  'Lubega',
  'Ainembabazi',
  'Kisakye',
  'Otim',
  'Auma',
  'Kiggundu',
  'Nampijja',
];
const FIRST_NAMES = [
  'Sarah',
  'Brian',
  'Grace',
  'Joseph',
  'Esther',
  'Ivan',
  'Patience',
  'Moses',
  'Faith',
  'Daniel',
  'Prossy',
  'Isaac',
  'Shamim',
  'Ronald',
  'Winnie',
  'Emmanuel',
  'Doreen',
  'Hakim',
  'Juliet',
  'Allan',
];
const FEMALE = new Set(['Sarah', 'Grace', 'Esther', 'Patience', 'Faith', 'Prossy', 'Shamim', 'Winnie', 'Doreen', 'Juliet']);

/** The i-th learner's name: 600 different names before one comes again. */
export function fixtureName(index: number): string {
  const surname = SURNAMES[index % SURNAMES.length] as string;
  const first = FIRST_NAMES[(index + Math.floor(index / SURNAMES.length)) % FIRST_NAMES.length] as string;
  return `${surname} ${first}`;
}

/** mulberry32: a small seeded generator, so a fixture is the same every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PLE_GRADES: Array<[number, string]> = [
  [80, 'D1'],
  [70, 'D2'],
  [65, 'C3'],
  [60, 'C4'],
  [55, 'C5'],
  [50, 'C6'],
  [45, 'P7'],
  [40, 'P8'],
  [0, 'F9'],
];
const gradeOf = (mark: number) => (PLE_GRADES.find(([from]) => mark >= from) as [number, string])[1];
const gradeNumber = (grade: string) => Number(grade.slice(1));
const COMMENTS: Record<string, string> = {
  D1: 'Excellent work, keep it up',
  D2: 'Very good performance',
  C3: 'Good, aim higher',
  C4: 'Good, aim higher',
  C5: 'Fair, work harder',
  C6: 'Fair, work harder',
  P7: 'Needs more effort',
  P8: 'Needs more effort',
  F9: 'Weak, seek help from your teacher',
};
const GRADE_KEY = 'D1: 80-100, D2: 70-79, C3: 65-69, C4: 60-64, C5: 55-59, C6: 50-54, P7: 45-49, P8: 40-44, F9: 0-39';
const MARK_TYPES = ['BOT', 'MOT', 'EOT'] as const;
const WEIGHTS = { BOT: 0.2, MOT: 0.3, EOT: 0.5 };

const PRIMARY_SUBJECTS = [
  { subject: 'English', code: 'ENG', initials: 'N.S.' },
  { subject: 'Mathematics', code: 'MTC', initials: 'O.J.' },
  { subject: 'Science', code: 'SCI', initials: 'K.M.' },
  { subject: 'Social Studies with Religious Education', code: 'SST', initials: 'A.P.' },
];
const ALEVEL_SUBJECTS = [
  { subject: 'Physics', code: 'P510', initials: 'M.B.', papers: ['I', 'II', 'III'], principal: true },
  { subject: 'Chemistry', code: 'P525', initials: 'N.G.', papers: ['I', 'II', 'III'], principal: true },
  { subject: 'Mathematics', code: 'P425', initials: 'O.D.', papers: ['I', 'II'], principal: true },
  { subject: 'General Paper', code: 'S101', initials: 'K.E.', papers: ['I'], principal: false },
  { subject: 'Subsidiary ICT', code: 'S850', initials: 'T.R.', papers: ['I'], principal: false },
];
const LETTER_POINTS: Record<string, number> = { A: 6, B: 5, C: 4, D: 3, E: 2, O: 1, F: 0 };
const letterOf = (meanGrade: number) =>
  meanGrade <= 2.5
    ? 'A'
    : meanGrade <= 3.5
      ? 'B'
      : meanGrade <= 4.5
        ? 'C'
        : meanGrade <= 5.5
          ? 'D'
          : meanGrade <= 6.5
            ? 'E'
            : meanGrade <= 8
              ? 'O'
              : 'F';

const noExplain = { total: explanation('learner.noTotal'), grade: explanation('learner.noTotal') };
const clamp = (value: number) => Math.max(0, Math.min(100, Math.round(value)));

const PRIMARY_DIVISIONS: Array<[number, string]> = [
  [12, 'I'],
  [23, 'II'],
  [29, 'III'],
  [34, 'IV'],
];

/** A class's report model of `learners` learners, validated by ReportModelSchema. */
export function reportFixture(options: ReportFixtureOptions): ReportModel {
  const { learners: count, level = 'primary', streams = ['Blue'], photos = 'same', seed = 1 } = options;
  const next = random(seed * 7919 + count);
  const alevel = level === 'alevel';
  const form = options.form ?? (alevel ? 'S6' : 'P7');

  type Draft = Omit<ReportLearner, 'position'> & { stream: string };
  const drafts: Draft[] = [];
  for (let index = 0; index < count; index++) {
    const ability = 35 + next() * 60;
    const mark = () => (next() < 0.02 ? ('ABS' as const) : clamp(ability + (next() - 0.5) * 24));
    const stream = streams[index % streams.length] as string;
    const name = fixtureName(index + (seed - 1) * 7);
    let subjects: ReportSubject[];
    let aggregate: number | null = null;
    let division: string | null = null;
    let points: number | null = null;
    if (!alevel) {
      subjects = PRIMARY_SUBJECTS.map((each) => {
        const marks = Object.fromEntries(MARK_TYPES.map((type) => [type, mark()])) as Record<(typeof MARK_TYPES)[number], number | 'ABS'>;
        const sat = MARK_TYPES.filter((type) => marks[type] !== 'ABS');
        const weight = sat.reduce((sum, type) => sum + WEIGHTS[type], 0);
        const total = weight === 0 ? null : clamp(sat.reduce((sum, type) => sum + (marks[type] as number) * WEIGHTS[type], 0) / weight);
        const grade = total === null ? null : gradeOf(total);
        return {
          subject_id: crypto.randomUUID(),
          subject: each.subject,
          code: each.code,
          marks,
          total,
          grade,
          missed: total === null ? [] : MARK_TYPES.filter((type) => marks[type] === 'ABS'),
          points: null,
          comment: grade ? (COMMENTS[grade] as string) : '',
          initials: each.initials,
          explain: noExplain,
        };
      });
      const grades = subjects.map((subject) => subject.grade);
      if (grades.every((grade): grade is string => grade !== null)) {
        aggregate = grades.reduce((sum, grade) => sum + gradeNumber(grade), 0);
        division = PRIMARY_DIVISIONS.find(([atMost]) => (aggregate as number) <= atMost)?.[1] ?? 'U';
      } else {
        division = 'X';
      }
    } else {
      points = 0;
      subjects = ALEVEL_SUBJECTS.map((each) => {
        const papers = each.papers.map((paper) => {
          const value = clamp(ability + (next() - 0.5) * 30);
          return { paper, mark: value, grade: gradeOf(value) };
        });
        const total = clamp(papers.reduce((sum, paper) => sum + paper.mark, 0) / papers.length);
        const meanGrade = papers.reduce((sum, paper) => sum + gradeNumber(paper.grade), 0) / papers.length;
        const grade = each.principal ? letterOf(meanGrade) : (papers[0]?.grade ?? null);
        const subjectPoints = each.principal ? (LETTER_POINTS[grade as string] ?? 0) : meanGrade <= 6 ? 1 : 0;
        points = (points as number) + subjectPoints;
        return {
          subject_id: crypto.randomUUID(),
          subject: each.subject,
          code: each.code,
          marks: Object.fromEntries(MARK_TYPES.map((type) => [type, clamp(total + (next() - 0.5) * 10)])),
          papers,
          total,
          grade,
          missed: [],
          points: subjectPoints,
          comment: COMMENTS[gradeOf(total)] as string,
          initials: each.initials,
          explain: noExplain,
        };
      });
    }
    const totals = subjects.map((subject) => subject.total).filter((total): total is number => total !== null);
    const total = totals.length ? totals.reduce((sum, each) => sum + each, 0) : null;
    const first = name.split(' ')[1] as string;
    drafts.push({
      id: crypto.randomUUID(),
      studentid: `${alevel ? 'S' : 'P'}${String(2019 + (seed % 5))}${String(index + 1).padStart(4, '0')}`,
      fullname: name,
      gender: FEMALE.has(first) ? 'F' : 'M',
      lin: `U${String(1000000 + seed * 1000 + index)}`,
      form,
      stream,
      photo: photos === 'none' ? null : photos === 'same' ? FIXTURE_SAME_PHOTO_URL : fixturePhotoUrl(index),
      subjects,
      total,
      average: total === null ? null : total / totals.length,
      aggregate,
      division,
      points,
      attendance: index % 9 === 8 ? null : { days: 52 + Math.floor(next() * 13), total: 64 },
      remarks: [
        {
          remarktype_id: null,
          label: W.classTeacher,
          text:
            index % 3 === 2
              ? ''
              : `${first} is ${ability > 70 ? 'a hardworking learner' : 'capable of doing better'}; keep reading every day.`,
        },
        { remarktype_id: null, label: W.headTeacher, text: index % 2 === 0 ? '' : 'Promoted. Work hard next term.' },
      ],
      footers: [
        { title: 'Next term begins', text: 'Monday, 2 February 2026' },
        { title: 'Fees', text: 'School fees for next term are UGX 450,000, payable at any branch of Stanbic Bank before the term begins.' },
      ],
      feesBalance: index % 4 === 0 ? null : String(25000 * (index % 4)),
      explain: {
        total: explanation('learner.noTotal'),
        average: explanation('learner.noTotal'),
        aggregate: null,
        division: null,
        points: null,
        position: { stream: explanation('position.unranked'), class: explanation('position.unranked') },
      },
    });
  }

  // Positions by average, in the class and in each stream (ties share the rank).
  const ranked = drafts.filter((each) => each.average !== null);
  const rank = (among: Draft[], learner: Draft) =>
    learner.average === null ? null : 1 + among.filter((other) => (other.average as number) > (learner.average as number)).length;
  const learners: ReportLearner[] = drafts.map((learner) => {
    const stream = ranked.filter((other) => other.stream === learner.stream);
    return {
      ...learner,
      position: { stream: rank(stream, learner), class: rank(ranked, learner), of: ranked.length, streamOf: stream.length },
    };
  });

  return ReportModelSchema.parse({
    school: {
      name: alevel ? 'Mustard Hill Secondary School' : 'Mustard Hill Primary School',
      address: 'Plot 12, Gayaza Road, Kampala',
      phone: '+256 772 123456',
      email: 'info@mustardhill.ac.ug',
      logo: FIXTURE_LOGO_URL,
      lines: ['Motto: Knowledge is Light', 'P.O. Box 1234, Kampala'],
    },
    report: {
      label: 'END OF TERM',
      form,
      stream: streams.length === 1 ? streams[0] : null,
      term: 'III',
      year: 2025,
      category: 'exam',
      level,
      rawmark: false,
      separate: true,
    },
    markTypes: MARK_TYPES.map((label) => ({ id: crypto.randomUUID(), label, heading: label })),
    warnings: [],
    gradeKey: alevel
      ? `${GRADE_KEY}. Principal subjects: A 6, B 5, C 4, D 3, E 2, O 1, F 0 points; subsidiaries 1 point at C6 or better.`
      : GRADE_KEY,
    key: [],
    streams: new Set(drafts.map((each) => each.stream)).size,
    nextTerm: null,
    signatures: [W.classTeacherSigns, W.headTeacherSigns],
    means: { class: null, streams: {} },
    learners,
  });
}

/** A school badge as a PNG (with transparency, as logos are). */
export async function fixtureLogo(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240">
    <circle cx="120" cy="120" r="112" fill="#e0a800" stroke="#6b4f00" stroke-width="8"/>
    <path d="M120 40 L150 120 L120 200 L90 120 Z" fill="#2f5d1e"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A passport photo as the server stores one (JPEG, at most 600 px): a face-like shape over a noisy backdrop, different for each seed. */
export async function fixturePhoto(seed = 1, width = 480, height = 600): Promise<Buffer> {
  const next = random(seed);
  const pixels = Buffer.alloc(width * height * 3);
  const tone = 90 + next() * 80;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dx = (x - width / 2) / (width * 0.28);
      const dy = (y - height * 0.4) / (height * 0.3);
      const face = dx * dx + dy * dy < 1 || (y > height * 0.72 && Math.abs(x - width / 2) < width * (0.2 + (y / height - 0.72)));
      const noise = (next() - 0.5) * 18;
      const offset = (y * width + x) * 3;
      pixels[offset] = Math.max(0, Math.min(255, (face ? tone : 200 - y / 8) + noise));
      pixels[offset + 1] = Math.max(0, Math.min(255, (face ? tone * 0.7 : 210 - y / 10) + noise));
      pixels[offset + 2] = Math.max(0, Math.min(255, (face ? tone * 0.5 : 230) + noise));
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** The images a fixture's model names: the logo and the photo(s). */
export async function fixtureImages(model: ReportModel): Promise<Map<string, Uint8Array>> {
  const images = new Map<string, Uint8Array>([[FIXTURE_LOGO_URL, await fixtureLogo()]]);
  const urls = [...new Set(model.learners.map((learner) => learner.photo).filter((url): url is string => url !== null))];
  await Promise.all(urls.map(async (url, index) => images.set(url, await fixturePhoto(index + 1))));
  return images;
}
