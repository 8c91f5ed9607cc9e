/*
 * What a drawer is, and how the pool finds one (issue 25 point 5). A drawer is pure: its input in,
 * the PDF's bytes out (the input crosses to a worker thread, so it is plain data: no functions or
 * classes). It starts from the one PDF set-up (pdf.ts), calls `progress` after each piece (a
 * learner) when it has pieces, and yields (`yieldToOtherDocuments`) every so many pieces so that
 * another school's document drawn by the same thread is not held behind it.
 *
 * A kind's module names its drawer by address (`documentDrawer`: the drawer's file and export)
 * and hands that to `renderDocument`; the worker thread loads the file. So the documents layer
 * imports nothing of the modules above it, and the server's own thread never loads a drawer
 * (pdfkit and the fonts stay in the workers). modules/reports/document-drawers.ts has the
 * reports' drawers.
 */

/** Told after each piece drawn: how many are done, of how many. */
export type DocumentProgress = (done: number, total: number) => void;

/** Draws one document. */
export type DocumentDrawer<Input> = (input: Input, progress?: DocumentProgress) => Promise<Uint8Array>;

/** Image bytes (JPEG or PNG) by the URL the model names them with. */
export type DocumentImages = ReadonlyMap<string, Uint8Array>;

/** Where the worker finds a drawer taking `Input`: its module's URL and the name it is exported by. */
export interface DrawerAddress<Input> {
  readonly module: string;
  readonly name: string;
  /** Never set: carries the drawer's input type to `renderDocument`. */
  readonly input?: Input;
}

/**
 * How a route has its document drawn in its turn (app.documents.serve hands it): the drawer's
 * address and its input, never a closure, so the drawing can happen in this process's pool or on
 * a job worker of another machine (issue 30); answers the PDF.
 */
export type DrawInTurn = <Input>(drawer: DrawerAddress<Input>, input: Input, onProgress?: DocumentProgress) => Promise<Buffer>;

/** The input a drawer takes. */
export type DrawerInput<Drawer> = Drawer extends DocumentDrawer<infer Input> ? Input : never;

/**
 * The address of the drawer exported as `name` by the file `file` (without its extension),
 * relative to `beside` (the caller's `import.meta.url`). The file keeps the caller's extension:
 * `.ts` from the sources (the worker loads tsx), `.js` beside a build. Typed by the drawer
 * module (`typeof import('./pdf/draw.js')`), whose import is erased: nothing is loaded here.
 */
export function documentDrawer<Module, Name extends keyof Module & string>(
  beside: string,
  file: string,
  name: Name,
): DrawerAddress<DrawerInput<Module[Name]>> {
  const extension = new URL(beside).pathname.endsWith('.ts') ? '.ts' : '.js';
  return { module: new URL(`${file}${extension}`, beside).href, name };
}
