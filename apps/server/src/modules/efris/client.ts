import { createSign, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { withTenantTx } from '../../db/tenant.js';
import type { DB } from '../../db/types.js';
import type { FakeUra, UraEnvelope } from '../../efris-fake/ura.js';
import { keepMessage, setExchange } from './efris.repository.js';

/*
 * Talking to URA (issue 32 point 7): one JSON envelope POSTed to one URL, the interface named by
 * its code, the content base64 JSON signed with the device's private key (RSA, SHA-1, as URA's
 * system-to-system API has it). Every request is kept (efris_messages) and committed BEFORE it
 * is sent, and every answer, or the transport's failure, after: what was said to URA is on
 * record even when the process dies in between, and "a request without an answer" is exactly
 * what tells the next attempt to ask URA first (T108) whether it already has the document.
 *
 * Content is sent unencrypted (encryptCode 0): URA's AES session key (T104) is not done, as
 * Mustard reaches only the local fake here; a live device would need it.
 */

export interface DeviceAccess {
  tin: string;
  deviceNo: string;
  mode: 'fake' | 'live';
  /** URA's URL, or null for the fake in this process. */
  url: string | null;
  privateKeyPem: string;
}

/** How an envelope travels: HTTP to a URL, or to the fake in this process. Throws when no answer comes. */
export type EfrisTransport = (url: string | null, envelope: UraEnvelope, timeoutMs: number) => Promise<unknown>;

/** The transport of this server: HTTP, and the in-process fake for a fake device without a URL (when EFRIS_FAKE). */
export function efrisTransport(fake: FakeUra | null): EfrisTransport {
  return async (url, envelope, timeoutMs) => {
    if (!url) {
      if (!fake) throw new Error('The local EFRIS simulator is not available on this server (EFRIS_FAKE)');
      // As over the wire: the fake gets its own copy, and a slow answer is given up on at the timeout.
      const copy = JSON.parse(JSON.stringify(envelope)) as unknown;
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          fake.exchange(copy),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`URA did not answer within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
      } finally {
        clearTimeout(timer);
      }
    }
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(envelope),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`URA answered HTTP ${response.status}`);
    return (await response.json()) as unknown;
  };
}

export type UraResult =
  | { kind: 'answer'; exchangeId: string; returnCode: string; returnMessage: string; content: unknown }
  | { kind: 'unreachable'; exchangeId: string; error: string };

function uraTime(date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

export function buildEnvelope(device: DeviceAccess, interfaceCode: string, content: unknown, exchangeId: string): UraEnvelope {
  const encoded = content === null ? '' : Buffer.from(JSON.stringify(content), 'utf8').toString('base64');
  const signature = encoded ? createSign('RSA-SHA1').update(encoded).sign(device.privateKeyPem, 'base64') : '';
  return {
    data: { content: encoded, signature, dataDescription: { codeType: '0', encryptCode: '0', zipCode: '0' } },
    globalInfo: {
      appId: 'AP04',
      version: '1.1.20191201',
      dataExchangeId: exchangeId,
      interfaceCode,
      requestCode: 'TP',
      requestTime: uraTime(),
      responseCode: 'TA',
      userName: 'admin',
      deviceMAC: 'FFFFFFFFFFFF',
      deviceNo: device.deviceNo,
      tin: device.tin,
      brn: '',
      taxpayerID: '1',
      longitude: '32.5825',
      latitude: '0.3476',
      extendField: null,
    },
    returnStateInfo: { returnCode: '', returnMessage: '' },
  };
}

function decodeContent(envelope: Partial<UraEnvelope>): unknown {
  const encoded = envelope.data?.content;
  if (!encoded) return null;
  try {
    return JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

export interface UraCaller {
  db: Kysely<DB>;
  transport: EfrisTransport;
  timeoutMs: number;
}

/**
 * One request to URA and its answer, each kept in its own committed transaction; the outbox row
 * (when the request is a fiscal document's send) remembers the exchange id before sending.
 */
export async function callUra(
  caller: UraCaller,
  tenantId: string,
  device: DeviceAccess,
  interfaceCode: string,
  content: unknown,
  options: { outboxId?: string | null; remember?: boolean } = {},
): Promise<UraResult> {
  const exchangeId = randomUUID().replace(/-/g, '');
  const envelope = buildEnvelope(device, interfaceCode, content, exchangeId);
  const outboxId = options.outboxId ?? null;
  await withTenantTx(caller.db, { tenantId }, async (tx) => {
    await keepMessage(tx, {
      id: randomUUID(),
      outbox_id: outboxId,
      interface_code: interfaceCode,
      exchange_id: exchangeId,
      direction: 'request',
      return_code: null,
      return_message: null,
      envelope,
      content,
    });
    if (outboxId && options.remember) await setExchange(tx, outboxId, exchangeId);
  });
  let raw: unknown;
  try {
    raw = await caller.transport(device.url, envelope, caller.timeoutMs);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await withTenantTx(caller.db, { tenantId }, (tx) =>
      keepMessage(tx, {
        id: randomUUID(),
        outbox_id: outboxId,
        interface_code: interfaceCode,
        exchange_id: exchangeId,
        direction: 'failure',
        return_code: null,
        return_message: message,
        envelope: null,
        content: null,
      }),
    );
    return { kind: 'unreachable', exchangeId, error: message };
  }
  const answer = (raw && typeof raw === 'object' ? raw : {}) as Partial<UraEnvelope>;
  const isEnvelope = typeof answer.returnStateInfo === 'object' && answer.returnStateInfo !== null;
  const returnCode = String(answer.returnStateInfo?.returnCode ?? '');
  const returnMessage = isEnvelope ? String(answer.returnStateInfo?.returnMessage ?? '') : 'The answer is not an EFRIS envelope';
  const answerContent = isEnvelope ? decodeContent(answer) : null;
  // Something that is no envelope is no answer: the next attempt asks URA first, as after a timeout.
  await withTenantTx(caller.db, { tenantId }, (tx) =>
    keepMessage(tx, {
      id: randomUUID(),
      outbox_id: outboxId,
      interface_code: interfaceCode,
      exchange_id: exchangeId,
      direction: isEnvelope ? 'answer' : 'failure',
      return_code: isEnvelope ? returnCode.slice(0, 20) : null,
      return_message: returnMessage,
      envelope: answer,
      content: answerContent,
    }),
  );
  if (!isEnvelope) return { kind: 'unreachable', exchangeId, error: returnMessage };
  return { kind: 'answer', exchangeId, returnCode, returnMessage, content: answerContent };
}
