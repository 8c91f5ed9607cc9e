import { createHash, createVerify, randomInt } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Decimal } from '@mustard/shared';

/*
 * A faithful local fake of URA's EFRIS system-to-system API (issue 32 point 7; guide business.md
 * "EFRIS"), for the tests and the demo: we cannot reach URA from here. It speaks URA's envelope
 * at one URL (`POST .../ws/taapp/getInformation`): `{ data: { content, signature,
 * dataDescription }, globalInfo: { interfaceCode, tin, deviceNo, dataExchangeId, ... },
 * returnStateInfo: { returnCode, returnMessage } }`, the content base64 JSON, and answers the
 * interfaces Mustard uses: T101 time, T103 login, T108 invoice query, T109 invoice upload, T110
 * credit note application, T111 its approval, T115 dictionary, T119 TIN check, T130 goods
 * upload, T131 stock in.
 *
 * What it holds per taxpayer (TIN): its devices (the public key set "on the portal", which the
 * signature of each request is checked with), its goods and URA's view of their stock, its
 * invoices (a fiscal document number from one sequence, a verification code, a QR text) and
 * credit note applications, approved later (asynchronously, as URA does: after
 * `approvalDelayMs`, or at once on `approveCreditNotes()`).
 *
 * Like URA it refuses: an unknown or unsigned device, a bad signature, goods it does not know,
 * more than its stock, a B2B sale without the buyer's TIN, totals that do not add up, a seller's
 * reference used twice. Faults are injected by `faults`: `down` (refused, HTTP 503), `slowMs`
 * (waits before answering), `loseReplies` (stores the document, then drops the answer, as a
 * connection cut after URA committed).
 *
 * Everything it issues says "SIMULATED - NOT A VALID TAX INVOICE". Its return codes are its own
 * ('00' is success, as URA's); the codes are stable so tests may name them.
 */

export const SIMULATED = 'SIMULATED - NOT A VALID TAX INVOICE';

export interface UraEnvelope {
  data: { content: string; signature: string; dataDescription: { codeType: string; encryptCode: string; zipCode: string } };
  globalInfo: {
    appId: string;
    version: string;
    dataExchangeId: string;
    interfaceCode: string;
    requestCode: string;
    requestTime: string;
    responseCode: string;
    userName: string;
    deviceMAC: string;
    deviceNo: string;
    tin: string;
    brn: string;
    taxpayerID: string;
    longitude: string;
    latitude: string;
    extendField: Record<string, unknown> | null;
  };
  returnStateInfo: { returnCode: string; returnMessage: string };
}

/** The fake's return codes. */
export const FAKE_CODES = {
  ok: '00',
  badEnvelope: '100',
  unknownInterface: '101',
  unknownDevice: '400',
  badSignature: '401',
  badContent: '402',
  notFound: '600',
  unknownTin: '601',
  unknownGoods: '2124',
  insufficientStock: '2072',
  buyerTinRequired: '2033',
  totalsMismatch: '2122',
  duplicateReference: '2253',
  creditExceedsInvoice: '1460',
} as const;

interface Goods {
  id: string;
  goodsCode: string;
  goodsName: string;
  measureUnit: string;
  unitPrice: string;
  commodityCategoryId: string;
  stock: string;
  /** A service (T130 serviceMark 101): sold without stock, so never checked against it. */
  service?: boolean;
}

interface Invoice {
  invoiceId: string;
  invoiceNo: string;
  antifakeCode: string;
  referenceNo: string;
  issuedDate: string;
  /** The invoice as uploaded, with URA's numbers filled in: what T108 answers. */
  document: Record<string, unknown>;
  /** What remains creditable per goods code: quantity and gross. */
  remaining: Record<string, { qty: string; total: string }>;
}

interface CreditNote {
  id: string;
  referenceNo: string;
  sellersReferenceNo: string;
  oriInvoiceNo: string;
  applicationTime: string;
  approveAt: number;
  approveStatus: '101' | '102' | '103';
  invoiceNo: string | null;
  antifakeCode: string | null;
  grossAmount: string;
  goods: Array<{ itemCode: string; qty: string; total: string }>;
}

interface Taxpayer {
  tin: string;
  legalName: string;
  devices: Record<string, string>;
  goods: Record<string, Goods>;
  invoices: Record<string, Invoice>;
  byReference: Record<string, string>;
  creditNotes: Record<string, CreditNote>;
}

interface FakeState {
  sequence: number;
  taxpayers: Record<string, Taxpayer>;
}

export interface FakeFaults {
  /** URA unreachable: every request refused (HTTP 503; in process, a refused connection). */
  down: boolean;
  /** Milliseconds to wait before handling each request. */
  slowMs: number;
  /** The next N requests are handled (and committed) but their answers dropped. */
  loseReplies: number;
}

/** A refused or cut connection, as the transports see it. */
export class FakeConnectionError extends Error {
  constructor(
    message: string,
    readonly committed: boolean,
  ) {
    super(message);
    this.name = 'FakeConnectionError';
  }
}

/** Taxpayers URA knows besides the fake's own sellers: what T119 answers for a buyer's TIN. */
const DIRECTORY: Record<string, { legalName: string; businessName: string; address: string }> = {
  '1000000001': {
    legalName: 'KAMPALA OFFICE SUPPLIES LIMITED',
    businessName: 'Kampala Office Supplies',
    address: 'Plot 12 Kampala Road, Kampala',
  },
  '1000000002': { legalName: 'ENTEBBE SCHOOLS TRUST', businessName: 'Entebbe Schools Trust', address: 'Entebbe' },
  '1000000003': { legalName: 'GULU TRADERS LIMITED', businessName: 'Gulu Traders', address: 'Gulu' },
};

const PAY_MODES = [
  { value: '101', name: 'Credit' },
  { value: '102', name: 'Cash' },
  { value: '103', name: 'Cheque' },
  { value: '105', name: 'Mobile money' },
  { value: '106', name: 'Visa/Master card' },
  { value: '107', name: 'EFT' },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const digits = (count: number) => Array.from({ length: count }, () => randomInt(0, 10)).join('');
const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
const isDecimal = (value: unknown) => /^-?\d{1,17}(\.\d{1,8})?$/.test(text(value));
const dec = (value: unknown) => new Decimal(isDecimal(value) ? text(value) : '0');

function uraTime(date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface FakeUraOptions {
  /** A JSON file the store is kept in (the demo's), read at start and written after each change. */
  file?: string | undefined;
  /** How long a credit note application waits for approval; default 60 s. */
  approvalDelayMs?: number;
}

export class FakeUra {
  readonly faults: FakeFaults = { down: false, slowMs: 0, loseReplies: 0 };
  approvalDelayMs: number;
  private state: FakeState;
  private readonly file: string | undefined;

  constructor(options: FakeUraOptions = {}) {
    this.file = options.file;
    this.approvalDelayMs = options.approvalDelayMs ?? 60_000;
    this.state =
      this.file && existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as FakeState) : { sequence: 0, taxpayers: {} };
  }

  /** The portal's step: a device of a taxpayer and the public key its requests are signed for. */
  enrolDevice(tin: string, deviceNo: string, publicKeyPem: string, legalName = `SIMULATED TAXPAYER ${tin}`): void {
    const taxpayer = this.taxpayer(tin, legalName);
    taxpayer.devices[deviceNo] = publicKeyPem;
    this.save();
  }

  /** Whether a device of a TIN is enrolled (its public key set). */
  knowsDevice(tin: string, deviceNo: string): boolean {
    return Boolean(this.state.taxpayers[tin]?.devices[deviceNo]);
  }

  /** Approves every pending credit note application now (the demo's and the tests' "URA approved it"). */
  approveCreditNotes(): number {
    let count = 0;
    for (const taxpayer of Object.values(this.state.taxpayers))
      for (const note of Object.values(taxpayer.creditNotes))
        if (note.approveStatus === '102') {
          note.approveAt = 0;
          this.settle(taxpayer, note);
          count += 1;
        }
    this.save();
    return count;
  }

  /** What a test reads: the invoices URA holds for a TIN. */
  invoicesOf(tin: string): ReadonlyArray<Readonly<Invoice>> {
    return Object.values(this.state.taxpayers[tin]?.invoices ?? {});
  }

  goodsOf(tin: string): ReadonlyArray<Readonly<Goods>> {
    return Object.values(this.state.taxpayers[tin]?.goods ?? {});
  }

  creditNotesOf(tin: string): ReadonlyArray<Readonly<CreditNote>> {
    return Object.values(this.state.taxpayers[tin]?.creditNotes ?? {});
  }

  /**
   * One request as the wire sees it: refused while down, delayed while slow, and handled; the
   * answer dropped (after the store was changed) while replies are being lost.
   */
  async exchange(request: unknown): Promise<UraEnvelope> {
    if (this.faults.down) throw new FakeConnectionError('connect ECONNREFUSED (URA is down: simulated)', false);
    if (this.faults.slowMs > 0) await sleep(this.faults.slowMs);
    const answer = this.handle(request);
    if (this.faults.loseReplies > 0) {
      this.faults.loseReplies -= 1;
      throw new FakeConnectionError('socket hang up (reply lost after URA committed: simulated)', true);
    }
    return answer;
  }

  /** Handles one envelope and answers one; never throws. */
  handle(request: unknown): UraEnvelope {
    const envelope = request as Partial<UraEnvelope> | null;
    const global = (envelope && typeof envelope === 'object' ? envelope.globalInfo : undefined) ?? ({} as UraEnvelope['globalInfo']);
    try {
      if (!envelope || typeof envelope !== 'object' || !envelope.data || !envelope.globalInfo)
        throw new Refusal(FAKE_CODES.badEnvelope, 'The request is not an EFRIS envelope (data, globalInfo, returnStateInfo)');
      const code = text(global.interfaceCode);
      if (code === 'T101') return this.answer(global, { currentTime: uraTime() });
      const content = this.read(envelope as UraEnvelope);
      const taxpayer = this.authorise(envelope as UraEnvelope);
      this.settleDue(taxpayer);
      let result: unknown;
      switch (code) {
        case 'T103':
          result = this.login(taxpayer, global);
          break;
        case 'T108':
          result = this.queryInvoice(taxpayer, content);
          break;
        case 'T109':
          result = this.uploadInvoice(taxpayer, global, content);
          break;
        case 'T110':
          result = this.applyCreditNote(taxpayer, content);
          break;
        case 'T111':
          result = this.queryCreditNotes(taxpayer, content);
          break;
        case 'T115':
          result = this.dictionary();
          break;
        case 'T119':
          result = this.checkTin(content);
          break;
        case 'T130':
          result = this.uploadGoods(taxpayer, content);
          break;
        case 'T131':
          result = this.stockIn(taxpayer, content);
          break;
        default:
          throw new Refusal(FAKE_CODES.unknownInterface, `Interface ${code || '(none)'} is not supported`);
      }
      this.save();
      return this.answer(global, result);
    } catch (error) {
      if (error instanceof Refusal) return this.answer(global, null, error.code, error.message);
      return this.answer(global, null, FAKE_CODES.badContent, 'The request could not be read');
    }
  }

  private answer(
    global: Partial<UraEnvelope['globalInfo']>,
    content: unknown,
    returnCode: string = FAKE_CODES.ok,
    message = 'SUCCESS',
  ): UraEnvelope {
    return {
      data: {
        content: content === null || content === undefined ? '' : Buffer.from(JSON.stringify(content), 'utf8').toString('base64'),
        signature: '',
        dataDescription: { codeType: '0', encryptCode: '0', zipCode: '0' },
      },
      globalInfo: {
        appId: 'AP04',
        version: '1.1.20191201',
        dataExchangeId: text(global.dataExchangeId),
        interfaceCode: text(global.interfaceCode),
        requestCode: 'TP',
        requestTime: uraTime(),
        responseCode: 'TA',
        userName: 'admin',
        deviceMAC: text(global.deviceMAC),
        deviceNo: text(global.deviceNo),
        tin: text(global.tin),
        brn: text(global.brn),
        taxpayerID: text(global.taxpayerID),
        longitude: '',
        latitude: '',
        extendField: null,
      },
      returnStateInfo: { returnCode, returnMessage: returnCode === FAKE_CODES.ok ? `${message} (${SIMULATED})` : message },
    };
  }

  private read(envelope: UraEnvelope): Record<string, unknown> {
    const encoded = text(envelope.data.content);
    if (!encoded) return {};
    try {
      const value = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as unknown;
      return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    } catch {
      throw new Refusal(FAKE_CODES.badContent, 'data.content is not base64 JSON');
    }
  }

  /** The device must be the TIN's, and the content signed with its key (RSA, SHA-1, as URA's). */
  private authorise(envelope: UraEnvelope): Taxpayer {
    const taxpayer = this.state.taxpayers[text(envelope.globalInfo.tin)];
    const key = taxpayer?.devices[text(envelope.globalInfo.deviceNo)];
    if (!taxpayer || !key) throw new Refusal(FAKE_CODES.unknownDevice, 'The device is not registered to this TIN');
    let valid = false;
    try {
      valid = createVerify('RSA-SHA1').update(text(envelope.data.content)).verify(key, text(envelope.data.signature), 'base64');
    } catch {
      valid = false;
    }
    if (!valid) throw new Refusal(FAKE_CODES.badSignature, 'The signature does not verify with the device key');
    return taxpayer;
  }

  private taxpayer(tin: string, legalName: string): Taxpayer {
    let taxpayer = this.state.taxpayers[tin];
    if (!taxpayer) {
      taxpayer = { tin, legalName, devices: {}, goods: {}, invoices: {}, byReference: {}, creditNotes: {} };
      this.state.taxpayers[tin] = taxpayer;
    }
    return taxpayer;
  }

  private login(taxpayer: Taxpayer, global: Partial<UraEnvelope['globalInfo']>) {
    return {
      device: { deviceNo: text(global.deviceNo), deviceStatus: '252', offlineAmount: '0', validPeriod: '' },
      taxpayer: { tin: taxpayer.tin, legalName: taxpayer.legalName, taxpayerType: '201' },
      dictionaryVersion: '1',
      remarks: SIMULATED,
    };
  }

  private dictionary() {
    return {
      payWay: PAY_MODES,
      currencyType: [{ value: '101', name: 'UGX' }],
      rateUnit: [
        { value: '101', name: 'per unit' },
        { value: 'PP', name: 'Piece' },
      ],
      taxCategory: [
        { value: '01', name: 'Standard' },
        { value: '02', name: 'Zero' },
        { value: '03', name: 'Exempt' },
        { value: '04', name: 'Deemed' },
      ],
      remarks: SIMULATED,
    };
  }

  private checkTin(content: Record<string, unknown>) {
    const tin = text(content.tin);
    if (!/^\d{10}$/.test(tin)) throw new Refusal(FAKE_CODES.badContent, 'tin: must be 10 digits');
    const known = DIRECTORY[tin];
    const seller = this.state.taxpayers[tin];
    if (!known && !seller) throw new Refusal(FAKE_CODES.unknownTin, 'The TIN does not exist');
    return {
      taxpayer: {
        tin,
        ninBrn: '',
        legalName: known?.legalName ?? seller?.legalName ?? '',
        businessName: known?.businessName ?? seller?.legalName ?? '',
        address: known?.address ?? '',
        taxpayerType: '201',
        taxpayerStatus: '101',
        remarks: SIMULATED,
      },
    };
  }

  private uploadGoods(taxpayer: Taxpayer, content: unknown) {
    const items = Array.isArray(content) ? content : [];
    if (items.length === 0 || items.length > 100) throw new Refusal(FAKE_CODES.badContent, 'Send 1 to 100 goods');
    const failures: Array<Record<string, unknown>> = [];
    for (const raw of items as Array<Record<string, unknown>>) {
      const goodsCode = text(raw.goodsCode);
      const problem = !/^.{1,50}$/.test(goodsCode)
        ? 'goodsCode: 1 to 50 characters'
        : !text(raw.goodsName) || text(raw.goodsName).length > 200
          ? 'goodsName: 1 to 200 characters'
          : !isDecimal(raw.unitPrice) || dec(raw.unitPrice).lt(0)
            ? 'unitPrice: not a price'
            : !/^\d{8}$/.test(text(raw.commodityCategoryId))
              ? 'commodityCategoryId: 8 digits'
              : !text(raw.measureUnit)
                ? 'measureUnit: required'
                : text(raw.operationType) === '101' && taxpayer.goods[goodsCode]
                  ? 'goodsCode: already exists'
                  : null;
      if (problem) {
        failures.push({ ...raw, returnCode: FAKE_CODES.badContent, returnMessage: problem });
        continue;
      }
      const existing = taxpayer.goods[goodsCode];
      taxpayer.goods[goodsCode] = {
        id: existing?.id ?? digits(18),
        goodsCode,
        goodsName: text(raw.goodsName),
        measureUnit: text(raw.measureUnit),
        unitPrice: dec(raw.unitPrice).toFixed(),
        commodityCategoryId: text(raw.commodityCategoryId),
        stock: existing?.stock ?? '0',
        service: text(raw.serviceMark) === '101',
      };
    }
    return failures;
  }

  private stockIn(taxpayer: Taxpayer, content: Record<string, unknown>) {
    const head = (content.goodsStockIn ?? {}) as Record<string, unknown>;
    const items = Array.isArray(content.goodsStockInItem) ? (content.goodsStockInItem as Array<Record<string, unknown>>) : [];
    if (text(head.operationType) !== '101') throw new Refusal(FAKE_CODES.badContent, 'goodsStockIn.operationType: 101 (increase) only');
    if (items.length === 0 || items.length > 100) throw new Refusal(FAKE_CODES.badContent, 'Send 1 to 100 stock lines');
    const failures: Array<Record<string, unknown>> = [];
    for (const item of items) {
      const goods = taxpayer.goods[text(item.goodsCode)];
      if (!goods) failures.push({ ...item, returnCode: FAKE_CODES.unknownGoods, returnMessage: 'goodsCode: not registered' });
      else if (!isDecimal(item.quantity) || dec(item.quantity).lte(0))
        failures.push({ ...item, returnCode: FAKE_CODES.badContent, returnMessage: 'quantity: more than 0' });
      else goods.stock = dec(goods.stock).plus(dec(item.quantity)).toFixed();
    }
    return failures;
  }

  private uploadInvoice(taxpayer: Taxpayer, global: Partial<UraEnvelope['globalInfo']>, content: Record<string, unknown>) {
    const seller = (content.sellerDetails ?? {}) as Record<string, unknown>;
    const basic = (content.basicInformation ?? {}) as Record<string, unknown>;
    const buyer = (content.buyerDetails ?? {}) as Record<string, unknown>;
    const summary = (content.summary ?? {}) as Record<string, unknown>;
    const goods = Array.isArray(content.goodsDetails) ? (content.goodsDetails as Array<Record<string, unknown>>) : [];
    const taxes = Array.isArray(content.taxDetails) ? (content.taxDetails as Array<Record<string, unknown>>) : [];
    const payWay = Array.isArray(content.payWay) ? (content.payWay as Array<Record<string, unknown>>) : [];
    if (text(seller.tin) !== taxpayer.tin) throw new Refusal(FAKE_CODES.badContent, 'sellerDetails.tin: not the TIN of the request');
    if (text(basic.deviceNo) !== text(global.deviceNo))
      throw new Refusal(FAKE_CODES.badContent, 'basicInformation.deviceNo: not the device of the request');
    const referenceNo = text(seller.referenceNo);
    if (!referenceNo || referenceNo.length > 50) throw new Refusal(FAKE_CODES.badContent, 'sellerDetails.referenceNo: 1 to 50 characters');
    if (taxpayer.byReference[referenceNo])
      throw new Refusal(FAKE_CODES.duplicateReference, `sellerDetails.referenceNo: ${referenceNo} already exists`);
    const buyerType = text(buyer.buyerType);
    if (!['0', '1', '2', '3'].includes(buyerType)) throw new Refusal(FAKE_CODES.badContent, 'buyerDetails.buyerType: 0, 1, 2 or 3');
    if ((buyerType === '0' || buyerType === '3') && !/^\d{10}$/.test(text(buyer.buyerTin)))
      throw new Refusal(FAKE_CODES.buyerTinRequired, 'buyerDetails.buyerTin: required for a business or government buyer');
    if (goods.length === 0 || goods.length > 500) throw new Refusal(FAKE_CODES.badContent, 'goodsDetails: 1 to 500 lines');
    // URA's checks of the goods: registered, enough of it in stock with URA, the line's own sums.
    const wanted = new Map<string, Decimal>();
    for (const line of goods) {
      const code = text(line.itemCode);
      const registered = taxpayer.goods[code];
      if (!registered) throw new Refusal(FAKE_CODES.unknownGoods, `goodsDetails.itemCode: ${code} is not registered`);
      if (!isDecimal(line.qty) || dec(line.qty).lte(0)) throw new Refusal(FAKE_CODES.badContent, 'goodsDetails.qty: more than 0');
      if (!dec(line.qty).times(dec(line.unitPrice)).minus(dec(line.total)).abs().lte(1))
        throw new Refusal(FAKE_CODES.totalsMismatch, 'goodsDetails.total: not qty x unitPrice');
      wanted.set(code, (wanted.get(code) ?? new Decimal(0)).plus(dec(line.qty)));
    }
    for (const [code, quantity] of wanted)
      if (!taxpayer.goods[code]?.service && quantity.gt(dec(taxpayer.goods[code]?.stock)))
        throw new Refusal(FAKE_CODES.insufficientStock, `goodsDetails.qty: more ${code} than is in stock with URA`);
    const sum = (rows: Array<Record<string, unknown>>, key: string) =>
      rows.reduce((total, row) => total.plus(dec(row[key])), new Decimal(0));
    const gross = sum(goods, 'total');
    const tax = sum(goods, 'tax');
    if (
      !gross.eq(dec(summary.grossAmount)) ||
      !tax.eq(dec(summary.taxAmount)) ||
      !gross.minus(tax).eq(dec(summary.netAmount)) ||
      !sum(taxes, 'grossAmount').eq(gross) ||
      !sum(taxes, 'taxAmount').eq(tax) ||
      (payWay.length > 0 && !sum(payWay, 'paymentAmount').eq(gross))
    )
      throw new Refusal(FAKE_CODES.totalsMismatch, 'summary: the totals do not add up to the goods');
    for (const [code, quantity] of wanted) {
      const registered = taxpayer.goods[code] as Goods;
      registered.stock = dec(registered.stock).minus(quantity).toFixed();
    }
    this.state.sequence += 1;
    const invoiceNo = `3${String(this.state.sequence).padStart(11, '0')}`;
    const antifakeCode = digits(20);
    const invoiceId = digits(19);
    const issuedDate = uraTime();
    const qrCode = `${SIMULATED}|FDN:${invoiceNo}|VC:${antifakeCode}|TIN:${taxpayer.tin}|DATE:${issuedDate}|GROSS:${gross.toFixed()}`;
    const remaining: Invoice['remaining'] = {};
    for (const line of goods) {
      const code = text(line.itemCode);
      const before = remaining[code] ?? { qty: '0', total: '0' };
      remaining[code] = { qty: dec(before.qty).plus(dec(line.qty)).toFixed(), total: dec(before.total).plus(dec(line.total)).toFixed() };
    }
    const document = {
      ...content,
      basicInformation: { ...basic, invoiceNo, antifakeCode, invoiceId, issuedDate, isInvalid: '0', isRefund: '0' },
      summary: { ...summary, qrCode, remarks: SIMULATED },
    };
    taxpayer.invoices[invoiceNo] = { invoiceId, invoiceNo, antifakeCode, referenceNo, issuedDate, document, remaining };
    taxpayer.byReference[referenceNo] = invoiceNo;
    return document;
  }

  /** T108: the invoice by its fiscal number (`invoiceNo`) or by the seller's reference (`referenceNo`). */
  private queryInvoice(taxpayer: Taxpayer, content: Record<string, unknown>) {
    const invoiceNo = text(content.invoiceNo) || taxpayer.byReference[text(content.referenceNo)] || '';
    const invoice = taxpayer.invoices[invoiceNo];
    if (!invoice) throw new Refusal(FAKE_CODES.notFound, 'The invoice does not exist');
    return invoice.document;
  }

  private applyCreditNote(taxpayer: Taxpayer, content: Record<string, unknown>) {
    const original = taxpayer.invoices[text(content.oriInvoiceNo)];
    if (!original || original.invoiceId !== text(content.oriInvoiceId))
      throw new Refusal(FAKE_CODES.notFound, 'oriInvoiceNo: no such invoice of this taxpayer');
    const sellersReferenceNo = text(content.sellersReferenceNo);
    if (!sellersReferenceNo || sellersReferenceNo.length > 50)
      throw new Refusal(FAKE_CODES.badContent, 'sellersReferenceNo: 1 to 50 characters');
    if (Object.values(taxpayer.creditNotes).some((note) => note.sellersReferenceNo === sellersReferenceNo))
      throw new Refusal(FAKE_CODES.duplicateReference, `sellersReferenceNo: ${sellersReferenceNo} already exists`);
    if (!['101', '102', '103', '104', '105'].includes(text(content.reasonCode)))
      throw new Refusal(FAKE_CODES.badContent, 'reasonCode: 101 to 105');
    const goods = Array.isArray(content.goodsDetails) ? (content.goodsDetails as Array<Record<string, unknown>>) : [];
    const summary = (content.summary ?? {}) as Record<string, unknown>;
    if (goods.length === 0) throw new Refusal(FAKE_CODES.badContent, 'goodsDetails: at least one line');
    const lines: CreditNote['goods'] = [];
    for (const line of goods) {
      const code = text(line.itemCode);
      const left = original.remaining[code];
      // A credit note's amounts are negative, as URA wants them.
      if (!left) throw new Refusal(FAKE_CODES.unknownGoods, `goodsDetails.itemCode: ${code} is not on the original invoice`);
      if (dec(line.qty).gt(0) || !dec(line.total).lt(0))
        throw new Refusal(FAKE_CODES.badContent, 'goodsDetails: qty and total must be negative');
      if (dec(line.qty).abs().gt(dec(left.qty)))
        throw new Refusal(FAKE_CODES.creditExceedsInvoice, 'goodsDetails.qty: more than remains on the invoice');
      if (dec(line.total).abs().gt(dec(left.total)))
        throw new Refusal(FAKE_CODES.creditExceedsInvoice, 'goodsDetails.total: more than remains on the invoice');
      lines.push({ itemCode: code, qty: dec(line.qty).abs().toFixed(), total: dec(line.total).abs().toFixed() });
    }
    const gross = goods.reduce((total, line) => total.plus(dec(line.total)), new Decimal(0));
    if (!gross.eq(dec(summary.grossAmount))) throw new Refusal(FAKE_CODES.totalsMismatch, 'summary.grossAmount: not the sum of the goods');
    for (const line of lines) {
      const left = original.remaining[line.itemCode] as { qty: string; total: string };
      left.qty = dec(left.qty).minus(line.qty).toFixed();
      left.total = dec(left.total).minus(line.total).toFixed();
    }
    const referenceNo = digits(17);
    const note: CreditNote = {
      id: digits(18),
      referenceNo,
      sellersReferenceNo,
      oriInvoiceNo: original.invoiceNo,
      applicationTime: uraTime(),
      approveAt: Date.now() + this.approvalDelayMs,
      approveStatus: '102',
      invoiceNo: null,
      antifakeCode: null,
      grossAmount: gross.abs().toFixed(),
      goods: lines,
    };
    taxpayer.creditNotes[referenceNo] = note;
    return { referenceNo, id: note.id, remarks: SIMULATED };
  }

  private queryCreditNotes(taxpayer: Taxpayer, content: Record<string, unknown>) {
    const referenceNo = text(content.referenceNo);
    const sellersReferenceNo = text(content.sellersReferenceNo);
    const records = Object.values(taxpayer.creditNotes)
      .filter(
        (note) =>
          (!referenceNo || note.referenceNo === referenceNo) && (!sellersReferenceNo || note.sellersReferenceNo === sellersReferenceNo),
      )
      .slice(0, 100)
      .map((note) => ({
        id: note.id,
        referenceNo: note.referenceNo,
        sellersReferenceNo: note.sellersReferenceNo,
        oriInvoiceNo: note.oriInvoiceNo,
        invoiceNo: note.invoiceNo ?? '',
        antifakeCode: note.antifakeCode ?? '',
        approveStatus: note.approveStatus,
        applicationTime: note.applicationTime,
        grossAmount: `-${note.grossAmount}`,
        qrCode: note.invoiceNo ? `${SIMULATED}|CREDIT NOTE FDN:${note.invoiceNo}|VC:${note.antifakeCode}|TIN:${taxpayer.tin}` : '',
        remarks: SIMULATED,
      }));
    return { page: { pageNo: '1', pageSize: '100', totalSize: String(records.length), pageCount: '1' }, records };
  }

  private settleDue(taxpayer: Taxpayer): void {
    const now = Date.now();
    for (const note of Object.values(taxpayer.creditNotes))
      if (note.approveStatus === '102' && note.approveAt <= now) this.settle(taxpayer, note);
  }

  /** Approval: the credit note gets its own fiscal number, and its goods go back into URA's stock. */
  private settle(taxpayer: Taxpayer, note: CreditNote): void {
    this.state.sequence += 1;
    note.approveStatus = '101';
    note.invoiceNo = `3${String(this.state.sequence).padStart(11, '0')}`;
    note.antifakeCode = digits(20);
    for (const line of note.goods) {
      const goods = taxpayer.goods[line.itemCode];
      if (goods) goods.stock = dec(goods.stock).plus(line.qty).toFixed();
    }
  }

  private save(): void {
    if (!this.file) return;
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(this.state));
    renameSync(temporary, this.file);
  }
}

/** A stable digest of a public key, for logs: which key a device was enrolled with. */
export function keyFingerprint(publicKeyPem: string): string {
  return createHash('sha256').update(publicKeyPem).digest('hex').slice(0, 16);
}
