import { describe, expect, it } from 'vitest';
import { REPORT_CARDS_DRAWER } from '../modules/reports/document-drawers.js';
import {
  DOCUMENT_RESULT_TTL_MS,
  deserializeInput,
  documentPriority,
  documentResultKey,
  drawerOfAddress,
  drawerOfJob,
  serializeInput,
} from './documents.js';
import { DOCUMENT_JOB_OPTIONS, jobLockOptions, retryDelays } from './queues.js';

/*
 * The rules of the document jobs that need neither a database nor a Redis (issue 30): fairness
 * between schools by priority, retries and locks, which drawer a job may name, and that an input
 * crosses to a worker whole.
 */

describe("a document job's priority", () => {
  it("is the document's place among its school's admitted ones: the first 1, the second 2, …", () => {
    expect([1, 2, 3, 8].map(documentPriority)).toEqual([1, 2, 3, 8]);
  });

  it("puts another school's single card (its first) ahead of a school's second class, and never below BullMQ's range", () => {
    const secondClassOfA = documentPriority(2);
    const onlyCardOfB = documentPriority(1);
    // BullMQ takes the lower number first.
    expect(onlyCardOfB).toBeLessThan(secondClassOfA);
    expect([0, -3, Number.NaN, 1.7, 2 ** 30].map(documentPriority)).toEqual([1, 1, 1, 1, 2 ** 21]);
  });
});

describe("a document job's retries and lock", () => {
  it('is tried three times, a second then two seconds apart, and kept briefly once done', () => {
    expect(DOCUMENT_JOB_OPTIONS.attempts).toBe(3);
    expect(retryDelays()).toEqual([1000, 2000]);
    expect(DOCUMENT_JOB_OPTIONS.removeOnComplete).toEqual({ age: 60, count: 50 });
    expect(DOCUMENT_JOB_OPTIONS.removeOnFail.count).toBeLessThanOrEqual(100);
  });

  it("is held JOB_LOCK_SECONDS by its worker, looked for as stalled every half of it, and failed after two workers' deaths", () => {
    expect(jobLockOptions({ jobLockSeconds: 30 })).toEqual({ lockDuration: 30_000, stalledInterval: 15_000, maxStalledCount: 2 });
    expect(jobLockOptions({ jobLockSeconds: 1 })).toEqual({ lockDuration: 1000, stalledInterval: 1000, maxStalledCount: 2 });
  });

  it('keeps its result ten minutes under the installation prefix', () => {
    expect(documentResultKey('mustard', 'abc')).toBe('mustard:document:abc');
    expect(DOCUMENT_RESULT_TTL_MS).toBe(600_000);
  });
});

describe('the drawer a job names', () => {
  it('is a file of the server sources and its export, found again by the worker in its own sources', () => {
    const named = drawerOfAddress(REPORT_CARDS_DRAWER);
    expect(named).toEqual({ file: 'modules/reports/pdf/draw', name: 'drawReportCards' });
    expect(drawerOfJob(named)).toEqual({ module: REPORT_CARDS_DRAWER.module, name: REPORT_CARDS_DRAWER.name });
  });

  it('refuses a path out of the sources, a URL, an absolute path, or an export not a drawer', () => {
    for (const named of [
      { file: '../../../tmp/evil', name: 'drawReportCards' },
      { file: 'modules/../../x', name: 'drawReportCards' },
      { file: 'file:///tmp/evil', name: 'drawReportCards' },
      { file: '/tmp/evil', name: 'drawReportCards' },
      { file: 'modules/reports/pdf/draw', name: 'constructor' },
      { file: 'modules/reports/pdf/draw', name: '' },
      null,
      'modules/reports/pdf/draw',
    ]) {
      expect(() => drawerOfJob(named), JSON.stringify(named)).toThrow('The job names no drawer of the server');
    }
  });

  it('refuses to name a drawer outside the sources', () => {
    expect(() => drawerOfAddress({ module: 'file:///tmp/elsewhere/draw.ts', name: 'drawX' })).toThrow("not one of the server's sources");
  });
});

describe("a job's input", () => {
  it('crosses whole: photos as bytes, pictures by URL in a Map, dates and nested values', () => {
    const input = {
      model: { learners: [{ id: 'a', born: new Date('2015-03-04T00:00:00Z'), photo: '/photo/a' }], total: 1.5 },
      images: new Map([['/photo/a', Buffer.from([0xff, 0xd8, 0xff, 0x00])]]),
      badge: new Uint8Array([1, 2, 3]),
    };
    const back = deserializeInput(serializeInput(input)) as typeof input;
    expect(back.model.learners[0]?.born).toEqual(input.model.learners[0]?.born);
    expect(back.model.total).toBe(1.5);
    expect([...(back.images.get('/photo/a') ?? [])]).toEqual([0xff, 0xd8, 0xff, 0x00]);
    expect([...back.badge]).toEqual([1, 2, 3]);
    // JSON, by contrast, loses them.
    expect(JSON.parse(JSON.stringify(input)).images).toEqual({});
  });
});
