import { TERMS, type Term } from '@mustard/shared';
import { sql } from 'kysely';
import { inBatches } from '../db/batches.js';
import { newId } from '../db/ids.js';
import type { Trx } from '../db/tenant.js';
import { inTenant } from '../db/tenant-filter.js';
import { abilityOf, sits, type TeacherOf, taper, teacherLookup } from './demo-marks.js';
import { seededRandom } from './demo-people.js';

/*
 * The secondary demo's new curriculum (issue 26 point 7; guide new-curriculum.md). S1 to S4 are
 * new-curriculum classes by the school's default (no row needed); this adds what they are
 * assessed by:
 *
 * - two mark types for the activities of integration, AOI 1 and AOI 2 (scored 1 to 3);
 * - competencies (topics) for every subject of S1 to S4 in each of the three terms, three or
 *   four a term, by the NCDC lower secondary syllabus's topic names;
 * - AOI scores for the marks term (demo-marks.ts) for every learner of S1 to S4 in every
 *   competency of each subject they sit: AOI 1 in each, AOI 2 as well in the first competency
 *   of the term (several activities on one competency are averaged), the rest of AOI 2 left for
 *   the teachers to enter (the demo teacher's S2 English Language among them); values 1 to 3
 *   with at most one decimal, mostly 1.5 to 3, a few ABS (absent, no number), each entered by
 *   the subject teacher of the learner's class and stream;
 * - one project per subject in S3 and S4 for the marks term, out of 10, with a score and a
 *   short comment for every learner who sits the subject.
 *
 * The end-of-term exam of these classes is the demo's EOT (demo-marks.ts marks S1 to S4).
 *
 * Safe to run again: a class's subject and term that has competencies (or a project) keeps them
 * as they are, and scores are inserted skipping what a unique key already holds. Scores go only
 * to the demo's own competencies, never to one a school added. Size: some 550 competencies,
 * 26 projects, about 10,000 AOI scores and 1,300 project scores, each table in a few statements.
 */

export const AOI_MARK_TYPES: ReadonlyArray<{ label: string; position: number }> = [
  { label: 'AOI 1', position: 4 },
  { label: 'AOI 2', position: 5 },
];
/** The most an activity of integration scores (the identifier scale). */
const AOI_OUT_OF = 3;
/** The new-curriculum classes of a secondary school, by default. */
export const NEW_CURRICULUM_FORMS: readonly string[] = ['S1', 'S2', 'S3', 'S4'];
/** The classes that do a project per subject each term. */
export const PROJECT_FORMS: readonly string[] = ['S3', 'S4'];
export const PROJECT_MAX_SCORE = 10;
const MARKS_PER_STATEMENT = 1000;

type Terms = readonly [I: readonly string[], II: readonly string[], III: readonly string[]];
type ByForm = Readonly<Record<'S1' | 'S2' | 'S3' | 'S4', Terms>>;

/**
 * Competencies by subject (the settings seed's names), class and term (I, II, III): the NCDC
 * lower secondary syllabus's topics, in the order taught.
 */
export const COMPETENCIES: Readonly<Record<string, ByForm>> = {
  'English Language': {
    S1: [
      ['Personal life and family', 'Finding information', 'Food and nutrition'],
      ["Children's rights and responsibilities", 'At the market', 'Travel'],
      ['Environment and pollution', 'Health and sanitation', 'Celebrations'],
    ],
    S2: [
      ['Relationships', 'Integrity', 'Tourism'],
      ['Gender', 'Sports and leisure', 'Careers'],
      ['Technology and communication', 'The media', 'Culture', 'Letter writing'],
    ],
    S3: [
      ['Democracy', 'Urbanisation', 'Correspondence'],
      ['Peace and conflict resolution', 'Population', 'Public speaking'],
      ['Agriculture', 'Patriotism', 'Writing reports'],
    ],
    S4: [
      ['Globalisation', 'Science and technology', 'Entrepreneurship'],
      ['Human rights', 'Mass media', 'Formal and informal writing'],
      ['Identity', 'Appreciating literature', 'Summary writing'],
    ],
  },
  Mathematics: {
    S1: [
      ['Number bases', 'Working with integers', 'Fractions, percentages and decimals', 'Rectilinear figures'],
      ['Geometric construction skills', 'Cartesian coordinates in two dimensions', 'Sequences and patterns', 'Bearings'],
      ['General and angle properties of geometric figures', 'Data collection and presentation', 'Algebra'],
    ],
    S2: [
      ['Mappings and relations', 'Set theory', 'Business mathematics'],
      ['Equations of lines and curves', 'Similarities and enlargement', 'Nets, areas and volumes of solids'],
      ['Circle properties', 'Vectors and translation', 'Simultaneous linear equations'],
    ],
    S3: [
      ['Indices and logarithms', 'Quadratic equations', 'Matrices'],
      ['Trigonometry', 'Inequalities and linear programming', 'Statistics'],
      ['Probability', 'Loci', 'Reflection and rotation'],
    ],
    S4: [
      ['Sequences and series', 'Compound interest and depreciation', 'Three-dimensional geometry'],
      ['Matrices and transformations', 'Measures of dispersion', 'Rates of change'],
      ['Dimensions and units', 'Mathematical modelling', 'Networks'],
    ],
  },
  Physics: {
    S1: [
      ['Introduction to Physics', 'Measurements in Physics', 'Forces'],
      ['Temperature and its measurement', 'States of matter', 'Heat transfer'],
      ['Light: reflection at plane surfaces', 'Simple machines', 'Energy sources'],
    ],
    S2: [
      ['Turning effect of forces', 'Pressure', 'Motion'],
      ['Work, energy and power', 'Expansion of matter', 'Electrostatics'],
      ['Refraction of light', 'Magnetism', 'Sound'],
    ],
    S3: [
      ['Current electricity', 'Waves', 'Thermal properties of matter'],
      ['Electromagnetism', 'Gas laws', 'Curved mirrors'],
      ['Lenses and optical instruments', 'Electric power and energy', 'Momentum'],
    ],
    S4: [
      ['Electromagnetic induction', 'Electronics', 'Modern physics'],
      ['Nuclear processes', 'Domestic electricity', 'The Earth and space'],
      ['Energy resources and the environment', 'Circular motion', 'Oscillations'],
    ],
  },
  Chemistry: {
    S1: [
      ['Chemistry and society', 'Experimental chemistry', 'States and changes of state of matter'],
      ['Using materials', 'Mixtures, elements and compounds', 'Air'],
      ['Water', 'Temperature and heat in chemistry', 'Rocks and minerals'],
    ],
    S2: [
      ['Acids and alkalis', 'Salts', 'Carbon in the environment'],
      ['The periodic table', 'Chemical bonding', 'Oxidation and reduction'],
      ['Formulae, stoichiometry and the mole concept', 'Sulphur and its compounds', 'Fuels and energy'],
    ],
    S3: [
      ['Nitrogen and its compounds', 'Chlorine and its compounds', 'Rates of reaction'],
      ['Energy changes during chemical reactions', 'Metals and the reactivity series', 'Extraction of metals'],
      ['Electrolysis', 'Chemical equilibrium', 'Qualitative analysis'],
    ],
    S4: [
      ['Organic chemistry', 'Polymers and plastics', 'Soaps and detergents'],
      ['Industrial processes', 'Chemistry and the environment', 'Nuclear chemistry'],
      ['Volumetric analysis', 'Chemistry in agriculture', 'Chemistry and health'],
    ],
  },
  Biology: {
    S1: [
      ['Introduction to Biology', 'Cells', 'Classification of living things'],
      ['Insects', 'Flowering plants', 'Microorganisms'],
      ['Soil', 'Nutrition in plants', 'Nutrition in animals'],
    ],
    S2: [
      ['Transport in plants', 'Transport in animals', 'Diseases of the circulatory system'],
      ['Gaseous exchange', 'Respiration', 'Excretion'],
      ['Homeostasis', 'Ecology', 'Food chains and food webs'],
    ],
    S3: [
      ['Coordination in animals', 'Coordination in plants', 'Support and locomotion'],
      ['Reproduction in plants', 'Reproduction in animals', 'Growth and development'],
      ['Sexually transmitted infections', 'Population and the environment', 'Human health and disease'],
    ],
    S4: [
      ['Genetics', 'Variation', 'Evolution'],
      ['Biotechnology', 'Conservation of natural resources', 'Immunity'],
      ['Nutrition and health', 'Drug and substance abuse', 'Ecosystems and human activity'],
    ],
  },
  Geography: {
    S1: [
      ['Introduction to Geography', 'Map work', 'The Earth and the solar system'],
      ['Weather', 'Location of East Africa', 'Physical features of East Africa'],
      ['Climate of East Africa', 'Vegetation of East Africa', 'Drainage of East Africa'],
    ],
    S2: [
      ['Population of East Africa', 'Agriculture in East Africa', 'Forestry'],
      ['Fishing', 'Mining in East Africa', 'Energy resources'],
      ['Industrialisation in East Africa', 'Trade and transport', 'Tourism'],
    ],
    S3: [
      ['Location and size of Africa', 'Physical features of Africa', 'Climate of Africa'],
      ['Natural vegetation of Africa', 'Agriculture in Africa', 'Mining in Africa'],
      ['Urbanisation in Africa', 'Regional cooperation in Africa', 'Fieldwork'],
    ],
    S4: [
      ['Rivers and drainage of the world', 'Industry in the world', 'Population and migration'],
      ['Environmental management', 'Climate change', 'Land use and land tenure'],
      ['Disaster management', 'Photographs and statistical maps', 'Global trade'],
    ],
  },
  History: {
    S1: [
      ['Introduction to History and Political Education', 'Our school and community', 'Migration and settlement in East Africa'],
      ['Social, economic and political organisation of East African societies', 'Trade in pre-colonial East Africa', 'Culture'],
      ['The coming of foreigners to East Africa', 'The Coastal City States', 'Long distance trade'],
    ],
    S2: [
      ['Colonisation of East Africa', 'Collaboration and resistance', 'Colonial rule in East Africa'],
      ['The colonial economy', 'Social services in colonial East Africa', 'Nationalism'],
      ['The road to independence in East Africa', 'Constitutions and constitutionalism', 'Citizenship'],
    ],
    S3: [
      ['Post-independence East Africa', 'Regional integration', 'The East African Community'],
      ['Democracy and governance', 'Human rights', 'Conflicts in East Africa'],
      ['The First World War', 'The Second World War', 'The United Nations'],
    ],
    S4: [
      ['Independence of African states', 'Apartheid in South Africa', 'The African Union'],
      ['Pan-Africanism', 'The Cold War', 'Globalisation'],
      ['Africa and the wider world', 'Leadership', 'Patriotism'],
    ],
  },
  'Christian Religious Education': {
    S1: [
      ['The Bible', 'Creation', 'The people of God'],
      ['Relationships', 'Leisure', 'Worship'],
      ['Family', 'Prayer', 'Sin and its consequences'],
    ],
    S2: [
      ['The covenant', 'The Prophets', 'Justice'],
      ['Marriage', 'The life of Jesus', 'The Holy Spirit'],
      ['The early Church', 'Christian living', 'Stewardship'],
    ],
    S3: [
      ['Christian approaches to wealth', 'Work and money', 'Law and order'],
      ['Christian approaches to sex and marriage', 'Peace and reconciliation', 'Church and state'],
      ['Christian approaches to health', 'Respect for life', 'Service'],
    ],
    S4: [
      ['The Church in Uganda', 'Christian approaches to leadership', 'Media and religion'],
      ['Christian ethics', 'Science and religion', 'Inter-religious relationships'],
      ['Death and the life after death', 'Christian approaches to corruption', 'Gender and faith'],
    ],
  },
  'Literature in English': {
    S1: [
      ['Introduction to literature', 'Oral literature', 'Short stories'],
      ['Poetry: sound and rhythm', 'Folk tales', 'Drama: character and dialogue'],
      ['Reading a novel', 'Songs and riddles', 'Writing a short story'],
    ],
    S2: [
      ['Plot and setting', 'Imagery in poetry', 'Proverbs'],
      ['Drama: performance', 'Themes in the novel', 'Narrative poetry'],
      ['Biography and autobiography', 'Satire', 'Creative writing'],
    ],
    S3: [
      ['The set novel', 'Poetry appreciation', 'Literary devices'],
      ['The set play', 'African poetry', 'Literary criticism'],
      ['Comparative reading', 'Writing a critical essay', 'Adaptation of texts'],
    ],
    S4: [
      ['The novel and society', 'Drama and society', 'Poetry and society'],
      ['Unseen poetry', 'Unseen prose', 'Context questions'],
      ['Literature and the media', 'Performing literature', 'Review writing'],
    ],
  },
  Kiswahili: {
    S1: [
      ['Salamu na maamkizi', 'Familia', 'Shuleni'],
      ['Nyumbani', 'Sokoni', 'Afya'],
      ['Usafiri', 'Mazingira', 'Michezo'],
    ],
    S2: [
      ['Sherehe', 'Kilimo', 'Biashara'],
      ['Utalii', 'Ajira', 'Hadithi'],
      ['Mawasiliano', 'Methali na nahau', 'Barua'],
    ],
    S3: [
      ['Utamaduni', 'Haki za watoto', 'Ushairi'],
      ['Teknolojia', 'Uongozi', 'Insha'],
      ['Utawala bora', 'Riwaya', 'Tamthilia'],
    ],
    S4: [
      ['Uzalendo', 'Jinsia', 'Fasihi simulizi'],
      ['Utandawazi', 'Ufupisho', 'Mjadala'],
      ['Ukimwi na afya', 'Hotuba', 'Ripoti'],
    ],
  },
  Agriculture: {
    S1: [
      ['Introduction to agriculture', 'Farm tools and equipment', 'Soil formation'],
      ['Soil fertility', 'Land preparation', 'Crop propagation'],
      ['Vegetable growing', 'Weeds and their control', 'Farm records'],
    ],
    S2: [
      ['Poultry production', 'Crop pests and their control', 'Crop diseases'],
      ['Soil and water conservation', 'Irrigation and drainage', 'Cereal crops'],
      ['Legume crops', 'Root crops', 'Harvesting and storage'],
    ],
    S3: [
      ['Cattle production', 'Pig production', 'Animal health'],
      ['Goat and sheep production', 'Bee keeping', 'Fish farming'],
      ['Farm structures', 'Agroforestry', 'Pasture management'],
    ],
    S4: [
      ['Farm management', 'Agricultural marketing', 'Agricultural credit'],
      ['Value addition', 'Farm power and mechanisation', 'Cash crops'],
      ['Climate-smart agriculture', 'Agricultural extension', 'Cooperatives'],
    ],
  },
  'Computer Studies': {
    S1: [
      ['Introduction to computers', 'Computer laboratory care', 'Computer hardware'],
      ['Computer software', 'Keyboard and mouse skills', 'Word processing'],
      ['File management', 'Computer ethics', 'Introduction to the internet'],
    ],
    S2: [
      ['Electronic spreadsheets', 'Presentation software', 'Electronic mail'],
      ['The world wide web', 'Data and information', 'Computer security'],
      ['Desktop publishing', 'Digital citizenship', 'Graphics'],
    ],
    S3: [
      ['Data communication and networking', 'Databases', 'Computer systems'],
      ['Web design', 'Programming concepts', 'Algorithms'],
      ['Multimedia', 'Cloud computing', 'Troubleshooting'],
    ],
    S4: [
      ['Programming', 'System development', 'Computer maintenance'],
      ['ICT and society', 'Emerging technologies', 'E-commerce'],
      ['Project management', 'Careers in ICT', 'Data protection'],
    ],
  },
  Entrepreneurship: {
    S1: [
      ['Introduction to entrepreneurship', 'Business opportunities', 'Creativity and innovation'],
      ['Starting a small business', 'Record keeping', 'Saving'],
      ['Marketing', 'Customer care', 'Business ethics'],
    ],
    S2: [
      ['Business planning', 'Sources of business finance', 'Production'],
      ['Costing and pricing', 'Selling', 'Consumer protection'],
      ['Business communication', 'Teamwork', 'Business growth'],
    ],
    S3: [
      ['Financial management', 'Business records and accounts', 'Taxation'],
      ['Business and the law', 'Insurance', 'Banking'],
      ['International trade', 'Business associations', 'Social entrepreneurship'],
    ],
    S4: [
      ['Business plan writing', 'Managing a business', 'Human resource management'],
      ['Investment', 'Business and the environment', 'Risk management'],
      ['Exporting and importing', 'Franchising', 'Entrepreneurial careers'],
    ],
  },
};

/** The project of each subject in S3 and S4, by subject name. */
export const PROJECTS: Readonly<Record<string, Readonly<Record<'S3' | 'S4', string>>>> = {
  'English Language': {
    S3: 'Producing a class newsletter on school life',
    S4: 'Writing and presenting a radio talk show on youth and careers',
  },
  Mathematics: {
    S3: 'Planning the budget and layout of a school canteen',
    S4: 'Surveying and costing a new classroom block',
  },
  Physics: {
    S3: 'Building a simple circuit to light a model classroom',
    S4: 'Making a solar water heater from local materials',
  },
  Chemistry: {
    S3: 'Making soap from locally available materials',
    S4: 'Testing the quality of water from local sources',
  },
  Biology: {
    S3: 'Growing vegetables in the school garden and recording their growth',
    S4: 'Investigating hygiene and the spread of disease in the community',
  },
  Geography: {
    S3: 'Mapping land use around the school',
    S4: 'Studying waste management in Mukono town',
  },
  History: {
    S3: 'Collecting oral histories from elders of the community',
    S4: 'Documenting a historical site in Mukono district',
  },
  'Christian Religious Education': {
    S3: 'Organising a community service day',
    S4: 'Campaigning against drug abuse among the youth',
  },
  'Literature in English': {
    S3: 'Staging a short play on a social issue',
    S4: 'Writing an anthology of poems about our community',
  },
  Kiswahili: {
    S3: 'Kuandaa jarida la Kiswahili la shule',
    S4: 'Kutunga na kuigiza mchezo mfupi',
  },
  Agriculture: {
    S3: 'Designing a school garden irrigation plan',
    S4: 'Raising broiler chickens and keeping farm records',
  },
  'Computer Studies': {
    S3: "Designing a database of the school library's books",
    S4: 'Building a website for the school',
  },
  Entrepreneurship: {
    S3: 'Running the school tuck shop for a term',
    S4: 'Preparing a business plan for a liquid soap enterprise',
  },
};

/** Short comments on a project, by how well it went (at least 8, 6.5, 5, below). */
const PROJECT_COMMENTS: ReadonlyArray<readonly [least: number, comments: readonly string[]]> = [
  [8, ['Excellent work, well researched and presented', 'Outstanding; creative and thorough', 'Very good: clear findings and neat work']],
  [6.5, ['Good effort; explain your findings more fully', 'Good work; improve the presentation', 'Well done; add more of your own data']],
  [
    5,
    [
      'Fair; the data collected needs more detail',
      'Satisfactory; finish every part of the task',
      'Fair attempt; work more with your group',
    ],
  ],
  [0, ['Incomplete; see me to finish the work', 'Needs more effort and care', 'Below expectation; hand in the missing parts']],
];

/* ---- Deciding: pure. ---- */

/** A number from a text (FNV-1a): the seed of one learner's draws. */
function hashOf(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return hash >>> 0;
}

const drawsOf = (...names: string[]) => seededRandom(hashOf(names.join('|')));

function normal(random: () => number): number {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** How well a learner did in a piece of work, as a percentage: their ability, their liking for the subject and the day's luck. */
function percentOf(studentid: string, subject: string, ...work: string[]): number {
  const liking = 8 * normal(drawsOf('nc-liking', studentid, subject));
  const luck = 7 * normal(drawsOf('nc-luck', studentid, subject, ...work));
  return taper(abilityOf(studentid) + liking + luck);
}

/**
 * One learner's score in one activity of integration: 1 to 3 with at most one decimal (a
 * quarter of them whole, as teachers often give), or absent (about 1.5%).
 */
export function aoiScoreOf(studentid: string, subject: string, topic: string, marktype: string): { mark: number | null; absent: boolean } {
  const draws = drawsOf('aoi', studentid, subject, topic, marktype);
  if (draws() < 0.015) return { mark: null, absent: true };
  const score = clamp(0.85 + (2.3 * percentOf(studentid, subject, topic, marktype)) / 100, 1, AOI_OUT_OF);
  return { mark: draws() < 0.25 ? Math.round(score) : Math.round(score * 10) / 10, absent: false };
}

/** One learner's project score (0 to the maximum, at most one decimal) and the teacher's comment on it. */
export function projectScoreOf(studentid: string, subject: string, title: string, max = PROJECT_MAX_SCORE) {
  const percent = percentOf(studentid, subject, 'project', title);
  const score = clamp(Math.round(((percent + 5) * max) / 10) / 10, 0, max);
  const band = PROJECT_COMMENTS.find(([least]) => (score / max) * 10 >= least)![1];
  return { score, comment: band[Math.floor(drawsOf('project-comment', studentid, title)() * band.length)]! };
}

const key = (...parts: Array<string | null>) => parts.map((part) => (part ?? '').trim().toLowerCase()).join('|');

export interface CompetencySlot {
  form: string;
  subject_id: string;
  subject: string;
}

/** The competencies to add: every term's titles of each class's subject, where the class, subject and term has none yet. */
export function planCompetencies(slots: readonly CompetencySlot[], held: ReadonlySet<string>) {
  return slots.flatMap((slot) =>
    TERMS.flatMap((term, index) =>
      held.has(key(slot.form, slot.subject_id, term))
        ? []
        : (COMPETENCIES[slot.subject]?.[slot.form as keyof ByForm]?.[index] ?? []).map((title) => ({
            subject_id: slot.subject_id,
            form: slot.form,
            term,
            title,
          })),
    ),
  );
}

export interface AoiPlan {
  student_id: string;
  subject_id: string;
  marktype_id: string;
  topic_id: string;
  form: string;
  stream: string | null;
  mark: number | null;
  absent: boolean;
  user_id: string | null;
}

/**
 * The term's AOI scores: every learner, in every demo competency of the term of each subject
 * they sit, AOI 1; AOI 2 as well in the subject's first competency of the term.
 */
export function planAoiScores(input: {
  learners: ReadonlyArray<{ id: string; studentid: string; form: string; stream: string | null }>;
  topics: ReadonlyArray<{ id: string; subject_id: string; subject: string; form: string; title: string }>;
  markTypes: ReadonlyArray<{ id: string; label: string }>;
  teacherOf: TeacherOf;
}): AoiPlan[] {
  const [first, second] = AOI_MARK_TYPES.map(({ label }) => input.markTypes.find((type) => type.label === label));
  if (!first) return [];
  // The subject's first competency of the term, in the syllabus's order: the one with two activities.
  const opening = new Map<string, { id: string; rank: number }>();
  const byClass = new Map<string, typeof input.topics>();
  for (const topic of input.topics) {
    byClass.set(topic.form, [...(byClass.get(topic.form) ?? []), topic]);
    const rank = (COMPETENCIES[topic.subject]?.[topic.form as keyof ByForm]?.flat() ?? []).indexOf(topic.title);
    const slot = key(topic.form, topic.subject_id);
    const held = opening.get(slot);
    if (rank >= 0 && (!held || rank < held.rank)) opening.set(slot, { id: topic.id, rank });
  }
  const plan: AoiPlan[] = [];
  for (const learner of input.learners) {
    for (const topic of byClass.get(learner.form) ?? []) {
      if (!sits(learner, topic.subject)) continue;
      const types = second && opening.get(key(topic.form, topic.subject_id))?.id === topic.id ? [first, second] : [first];
      for (const type of types) {
        plan.push({
          student_id: learner.id,
          subject_id: topic.subject_id,
          marktype_id: type.id,
          topic_id: topic.id,
          form: learner.form,
          stream: learner.stream,
          ...aoiScoreOf(learner.studentid, topic.subject, topic.title, type.label),
          user_id: input.teacherOf(learner.form, learner.stream, topic.subject_id),
        });
      }
    }
  }
  return plan;
}

/* ---- The shell: read the school, write what is missing. ---- */

/** AOI scores in statements of 1,000 rows, as arrays (unnest); a row whose unique key (marks_key) is taken is skipped. */
async function insertAoiScores(trx: Trx, tenantId: string, at: { term: Term; year: number }, marks: readonly AoiPlan[]) {
  for (let start = 0; start < marks.length; start += MARKS_PER_STATEMENT) {
    const part = marks.slice(start, start + MARKS_PER_STATEMENT);
    const column = <K extends keyof AoiPlan>(name: K) => part.map((plan) => plan[name]);
    await sql`
      INSERT INTO marks (tenant_id, term, year, paper, id, student_id, subject_id, marktype_id, topic_id, form, stream, mark, absent, user_id)
      SELECT ${tenantId}::uuid, ${at.term}, ${at.year}::integer, 'I', given.*
      FROM unnest(
        ${part.map(() => newId())}::uuid[], ${column('student_id')}::uuid[], ${column('subject_id')}::uuid[],
        ${column('marktype_id')}::uuid[], ${column('topic_id')}::uuid[], ${column('form')}::text[], ${column('stream')}::text[],
        ${column('mark')}::numeric[], ${column('absent')}::boolean[], ${column('user_id')}::uuid[]
      ) AS given
      ON CONFLICT DO NOTHING
    `.execute(trx);
  }
}

/** The AOI mark types, added if the school has none of the name; answers them with their ids. */
async function aoiMarkTypes(trx: Trx, tenantId: string) {
  const labels = AOI_MARK_TYPES.map(({ label }) => label);
  const held = async () =>
    trx
      .selectFrom('mark_types')
      .select(['id', 'label'])
      .$call(inTenant(tenantId))
      .where(
        sql`lower(label)`,
        'in',
        labels.map((label) => label.toLowerCase()),
      )
      .execute();
  const existing = await held();
  const missing = AOI_MARK_TYPES.filter(({ label }) => !existing.some((type) => type.label.toLowerCase() === label.toLowerCase()));
  if (missing.length === 0) return existing;
  await trx
    .insertInto('mark_types')
    .values(
      missing.map(({ label, position }) => ({
        tenant_id: tenantId,
        id: newId(),
        label,
        category: 'assesment',
        position,
        outof: AOI_OUT_OF,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
  return held();
}

/**
 * Writes the secondary demo's competencies, AOI scores, projects and project scores (in the
 * caller's tenant transaction, after its marks: `at` is the marks term). The classes' subjects
 * and teachers are read from `year`'s rows, as the marks seed reads them.
 */
export async function seedDemoCurriculum(
  trx: Trx,
  tenantId: string,
  school: { classes: readonly string[] },
  at: { term: Term; year: number },
  year: number,
): Promise<void> {
  const forms = NEW_CURRICULUM_FORMS.filter((form) => school.classes.includes(form));
  if (forms.length === 0) return;
  const row = () => ({ tenant_id: tenantId, id: newId() });

  const markTypes = await aoiMarkTypes(trx, tenantId);
  const subjects = await trx
    .selectFrom('subjects')
    .select(['id', 'name'])
    .$call(inTenant(tenantId))
    .where('active', '=', true)
    .where('name', 'in', Object.keys(COMPETENCIES))
    .execute();
  const pairs = await trx
    .selectFrom('grades')
    .select(['form', 'subject_id'])
    .distinct()
    .$call(inTenant(tenantId))
    .where('year', '=', year)
    .where('form', 'in', forms)
    .execute();
  const studied = new Set(pairs.map((pair) => key(pair.form, pair.subject_id)));
  const slots = forms.flatMap((form) =>
    subjects
      .filter((subject) => studied.has(key(form, subject.id)))
      .map((subject) => ({ form, subject_id: subject.id, subject: subject.name })),
  );
  const subjectName = new Map(subjects.map((subject) => [subject.id, subject.name]));

  // Competencies: a class's subject and term with none gets the syllabus's.
  const heldTopics = await trx
    .selectFrom('topics')
    .select(['form', 'subject_id', 'term'])
    .distinct()
    .$call(inTenant(tenantId))
    .where('form', 'in', forms)
    .execute();
  const newTopics = planCompetencies(slots, new Set(heldTopics.map((topic) => key(topic.form, topic.subject_id, topic.term))));
  await inBatches(
    newTopics.map((topic) => ({ ...row(), ...topic })),
    (batch) => trx.insertInto('topics').values(batch).execute(),
  );

  // AOI scores of the marks term, in the demo's own competencies only.
  const topics = (
    await trx
      .selectFrom('topics')
      .select(['id', 'subject_id', 'form', 'title'])
      .$call(inTenant(tenantId))
      .where('form', 'in', forms)
      .where('term', '=', at.term)
      .orderBy('id')
      .execute()
  )
    .map((topic) => ({ ...topic, subject: subjectName.get(topic.subject_id) ?? '' }))
    .filter((topic) => {
      const index = TERMS.indexOf(at.term);
      return (COMPETENCIES[topic.subject]?.[topic.form as keyof ByForm]?.[index] ?? []).includes(topic.title);
    });
  const learners = await trx
    .selectFrom('students')
    .select(['id', 'studentid', 'form', 'stream'])
    .$call(inTenant(tenantId))
    .where('status', '=', 'active')
    .where('form', 'in', forms)
    .orderBy('studentid')
    .execute();
  const teacherOf = teacherLookup(
    await trx
      .selectFrom('subject_teachers')
      .select(['user_id', 'form', 'stream', 'subject_id'])
      .$call(inTenant(tenantId))
      .where('year', '=', year)
      .where('term', '=', at.term)
      .where('form', 'in', forms)
      .orderBy('id')
      .execute(),
  );
  const scores = planAoiScores({ learners, topics, markTypes, teacherOf });
  await insertAoiScores(trx, tenantId, at, scores);

  // A project per subject in S3 and S4 for the marks term, where the subject has none.
  const projectForms = PROJECT_FORMS.filter((form) => forms.includes(form));
  const heldProjects =
    projectForms.length === 0
      ? []
      : await trx
          .selectFrom('projects')
          .select(['form', 'subject_id'])
          .$call(inTenant(tenantId))
          .where('form', 'in', projectForms)
          .where('term', '=', at.term)
          .where('year', '=', at.year)
          .execute();
  const projectHeld = new Set(heldProjects.map((project) => key(project.form, project.subject_id)));
  const newProjects = slots
    .filter((slot) => projectForms.includes(slot.form) && !projectHeld.has(key(slot.form, slot.subject_id)))
    .flatMap((slot) => {
      const title = PROJECTS[slot.subject]?.[slot.form as 'S3' | 'S4'];
      return title
        ? [{ ...row(), subject_id: slot.subject_id, form: slot.form, term: at.term, year: at.year, title, max_score: PROJECT_MAX_SCORE }]
        : [];
    });
  if (newProjects.length > 0) await trx.insertInto('projects').values(newProjects).execute();

  // Project scores: every learner who sits the subject, in the demo's own projects.
  const projects =
    projectForms.length === 0
      ? []
      : (
          await trx
            .selectFrom('projects')
            .select(['id', 'subject_id', 'form', 'title', 'max_score'])
            .$call(inTenant(tenantId))
            .where('form', 'in', projectForms)
            .where('term', '=', at.term)
            .where('year', '=', at.year)
            .execute()
        ).filter((project) => PROJECTS[subjectName.get(project.subject_id) ?? '']?.[project.form as 'S3' | 'S4'] === project.title);
  const projectScores = projects.flatMap((project) => {
    const subject = subjectName.get(project.subject_id)!;
    return learners
      .filter((learner) => learner.form === project.form && sits(learner, subject))
      .map((learner) => ({
        ...row(),
        project_id: project.id,
        student_id: learner.id,
        ...projectScoreOf(learner.studentid, subject, project.title, project.max_score),
        user_id: teacherOf(learner.form, learner.stream, project.subject_id),
      }));
  });
  await inBatches(projectScores, (batch) =>
    trx
      .insertInto('project_scores')
      .values(batch)
      .onConflict((oc) => oc.doNothing())
      .execute(),
  );
}
