/** The document queue moved to the documents module (documents/queue.ts), shared by every document kind. */
export * from '../../../documents/queue.js';
