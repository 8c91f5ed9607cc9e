import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * API answers compressed for teachers on slow links (issue 10 point 14): a class list of 400
 * learners is ~180 KB of JSON and a few tens of KB as brotli. Answers under 1 KB are sent as
 * they are (the saving would not pay for the work), as are files already compressed (the web
 * app's assets carry their own .br/.gz; spreadsheets and photos are zipped or JPEG).
 *
 * Brotli at quality 4 compresses about as well as gzip -9 at a fraction of brotli's default
 * cost: these machines have two cores, and CPU spent squeezing JSON is CPU not answering.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
    // Request bodies are never inflated here: an upload's size limits apply to what is sent.
    globalDecompression: false,
  });
}
