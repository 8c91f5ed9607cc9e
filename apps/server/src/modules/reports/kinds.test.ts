import {
  analysisEndpoint,
  avgMarksheetEndpoint,
  cumulativeReportEndpoint,
  marksheetEndpoint,
  ncMarksheetEndpoint,
  ncTerminalReportEndpoint,
  progressReportEndpoint,
  statisticsEndpoint,
  terminalReportEndpoint,
} from '@mustard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/test-app.js';
import { REPORT_KINDS } from './kinds.js';
import { SOURCE_NAMES } from './pipeline/sources.js';

/** The registry of report kinds (issue 25 point 4): every report served once, from its entry. Opens no database. */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { noDatabase: true });
});
afterAll(() => t.close());

describe('the registry of report kinds', () => {
  it('holds the terminal report, the mark sheet, the new-curriculum mark sheet and card, each at its contract’s path, names and paths once', () => {
    expect(REPORT_KINDS.map((kind) => [kind.name, kind.method, kind.path])).toEqual([
      ['terminal-report', 'GET', terminalReportEndpoint.path],
      ['marksheet', 'GET', marksheetEndpoint.path],
      ['ncmarksheet', 'GET', ncMarksheetEndpoint.path],
      ['nc-terminal-report', 'GET', ncTerminalReportEndpoint.path],
      ['analysis', 'GET', analysisEndpoint.path],
      ['avgmarksheet', 'GET', avgMarksheetEndpoint.path],
      ['progressreport', 'GET', progressReportEndpoint.path],
      ['statistics', 'GET', statisticsEndpoint.path],
      ['cumulative-report', 'GET', cumulativeReportEndpoint.path],
    ]);
    expect(new Set(REPORT_KINDS.map((kind) => kind.name)).size).toBe(REPORT_KINDS.length);
    expect(new Set(REPORT_KINDS.map((kind) => `${kind.method} ${kind.path}`)).size).toBe(REPORT_KINDS.length);
  });

  it('each kind reads only named sources, the mark sheet its grade key alone', () => {
    for (const kind of REPORT_KINDS) for (const source of kind.sources) expect(SOURCE_NAMES).toContain(source);
    expect(REPORT_KINDS.find((kind) => kind.name === 'marksheet')?.sources).toEqual(['gradeKey']);
  });

  it('the app serves every kind of the registry', () => {
    for (const kind of REPORT_KINDS) expect(t.app.hasRoute({ method: kind.method, url: kind.path }), kind.name).toBe(true);
  });
});
