import { z } from 'zod';
import { text } from '../schemas/common.js';
import { MAX_COMMENT_LENGTH } from './auto.js';
import { COMMENT_MESSAGES } from './messages.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;

/**
 * A comment as typed, for every kind of comment (subject comments, generic skills, report
 * remarks): new lines as `\n` (a form sends `\r\n`), trimmed, at most 1,000 characters (counted
 * as the database counts them, by code point), no control characters but tab and new line.
 * Empty (or null) means "no comment": a save deletes it.
 */
export const CommentTextSchema = z.preprocess(
  (value) => (value === null ? '' : typeof value === 'string' ? value.replace(/\r\n/g, '\n') : value),
  text()
    .trim()
    .refine((value) => !CONTROL_CHARACTERS.test(value), COMMENT_MESSAGES.controlCharacters)
    .refine((value) => [...value].length <= MAX_COMMENT_LENGTH, COMMENT_MESSAGES.tooLong),
);
