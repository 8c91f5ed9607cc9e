import type { Endpoint } from '@mustard/shared';
import type { FastifyInstance } from 'fastify';
import { analysisKind } from './analysis.kind.js';
import { avgMarksheetKind } from './avg-marksheet/avg-marksheet.kind.js';
import { cumulativeReportKind } from './cumulative/cumulative-report.kind.js';
import { marksheetKind } from './marksheet/marksheet.service.js';
import { ncMarksheetKind } from './nc-marksheet/nc-marksheet.kind.js';
import { ncTerminalReportKind } from './nc-report/nc-report.kind.js';
import { type ReportKind, reportKindRoute } from './pipeline/kind.js';
import type { SourceName } from './pipeline/sources.js';
import { progressReportKind } from './progress-report/progress-report.kind.js';
import { statisticsKind } from './statistics/statistics.kind.js';
import { terminalReportKind } from './terminal-report.kind.js';

/*
 * The registry of report kinds (issue 25 point 4): every report the school prints is one entry
 * here, served by the one route helper. A new report (the average mark sheet, the analysis, the
 * new curriculum's card) is a kind file and one line below; nothing else registers a report route.
 */

/** A kind as the registry holds it: what it answers and reads, and how it is served. */
export interface RegisteredKind {
  name: string;
  method: Endpoint['method'];
  path: string;
  sources: readonly SourceName[];
  serve(app: FastifyInstance): void;
}

const registered = <E extends Endpoint, Built, Names extends SourceName>(kind: ReportKind<E, Built, Names>): RegisteredKind => ({
  name: kind.name,
  method: kind.endpoint.method,
  path: kind.endpoint.path,
  sources: kind.sources,
  serve: (app) => reportKindRoute(app, kind),
});

export const REPORT_KINDS: readonly RegisteredKind[] = [
  registered(terminalReportKind),
  registered(marksheetKind),
  registered(ncMarksheetKind),
  registered(ncTerminalReportKind),
  registered(analysisKind),
  registered(avgMarksheetKind),
  registered(progressReportKind),
  registered(statisticsKind),
  registered(cumulativeReportKind),
];
