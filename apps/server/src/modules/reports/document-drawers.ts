import { documentDrawer } from '../../documents/drawers.js';

/*
 * The reports' documents and their drawers, by address (documents/drawers.ts): the worker threads
 * load the drawers' files, the server's thread only these addresses. A new kind of document (the
 * analysis, the cumulative sheet, the new curriculum's cards) adds its line here.
 */

/** A class's report cards, one or more pages a learner (pdf/draw.ts). */
export const REPORT_CARDS_DRAWER = documentDrawer<typeof import('./pdf/draw.js'), 'drawReportCards'>(
  import.meta.url,
  './pdf/draw',
  'drawReportCards',
);

/** A class's mark sheet, landscape (marksheet/pdf.ts). */
export const MARKSHEET_DRAWER = documentDrawer<typeof import('./marksheet/pdf.js'), 'drawMarksheet'>(
  import.meta.url,
  './marksheet/pdf',
  'drawMarksheet',
);

/** A new-curriculum class's report cards, one or more pages a learner (nc-report/pdf.ts). */
export const NC_REPORT_CARDS_DRAWER = documentDrawer<typeof import('./nc-report/pdf.js'), 'drawNcReportCards'>(
  import.meta.url,
  './nc-report/pdf',
  'drawNcReportCards',
);

/** A new-curriculum class's mark sheet, a block per subject (nc-marksheet/pdf.ts). */
export const NC_MARKSHEET_DRAWER = documentDrawer<typeof import('./nc-marksheet/pdf.js'), 'drawNcMarksheet'>(
  import.meta.url,
  './nc-marksheet/pdf',
  'drawNcMarksheet',
);

/** A class's result analysis, landscape (analysis-pdf.ts). */
export const ANALYSIS_DRAWER = documentDrawer<typeof import('./analysis-pdf.js'), 'drawAnalysis'>(
  import.meta.url,
  './analysis-pdf',
  'drawAnalysis',
);

/** A whole school's result analysis: the summary of classes, then each class (analysis-school-pdf.ts). */
export const SCHOOL_ANALYSIS_DRAWER = documentDrawer<typeof import('./analysis-school-pdf.js'), 'drawSchoolAnalysis'>(
  import.meta.url,
  './analysis-school-pdf',
  'drawSchoolAnalysis',
);

/** A class's average mark sheet for a year, landscape (avg-marksheet/pdf.ts). */
export const AVG_MARKSHEET_DRAWER = documentDrawer<typeof import('./avg-marksheet/pdf.js'), 'drawAvgMarksheet'>(
  import.meta.url,
  './avg-marksheet/pdf',
  'drawAvgMarksheet',
);

/** A class's mark statistics in one category, landscape (statistics/pdf.ts). */
export const STATISTICS_DRAWER = documentDrawer<typeof import('./statistics/pdf.js'), 'drawStatistics'>(
  import.meta.url,
  './statistics/pdf',
  'drawStatistics',
);

/** A whole school's mark statistics in one category: each class from a new page (statistics/pdf.ts). */
export const SCHOOL_STATISTICS_DRAWER = documentDrawer<typeof import('./statistics/pdf.js'), 'drawSchoolStatistics'>(
  import.meta.url,
  './statistics/pdf',
  'drawSchoolStatistics',
);

/** One learner's progressive report across their terms, landscape (progress-report/pdf.ts). */
export const PROGRESS_REPORT_DRAWER = documentDrawer<typeof import('./progress-report/pdf.js'), 'drawProgressReport'>(
  import.meta.url,
  './progress-report/pdf',
  'drawProgressReport',
);
