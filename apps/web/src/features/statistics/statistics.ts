import { statisticsEndpoint } from '@mustard/shared';
import { PAGES } from '../../lib/pages.js';
import { defineReportPage } from '../report-page/declaration.js';

/*
 * Mark Statistics (`/otherstats`; spec §2 "Mark Statistics", issue 28 point 2): class, stream,
 * term, year, the statistics category (spec §9's codes of the school's type), mark types, the
 * weight set of the indices and the decimals shown, with Excel, PDF and Preview: the preview in
 * the sandboxed frame, the files downloaded under the server's names
 * (otherstats-<class>-<stream>-<year>-<term>). No class chosen: every class of the school that
 * term (otherstats-all-<year>-<term>), its PDF followed a class at a time.
 */
export const statisticsPage = defineReportPage({
  title: PAGES.statistics.title,
  filterName: 'statistics.filter',
  // No class chosen is the whole school's term: each class's tables, one after another.
  fields: [{ name: 'form', none: 'statistics.allClasses' }, 'stream', 'term', 'year', 'statistic', 'marktype_ids', 'weight', 'precision'],
  endpoint: statisticsEndpoint,
  outputs: {
    excel: { box: 'statistics.excel', query: { excel: '1' } },
    pdf: { box: 'statistics.pdf', query: {}, followed: true, progress: 'statistics.progress' },
    preview: { box: 'statistics.preview', query: { html: '1' }, title: 'statistics.previewTitle' },
  },
  otherwise: 'preview',
  ready: 'statistics.ready',
});
