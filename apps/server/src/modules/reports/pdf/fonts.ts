/** The fonts moved to the one PDF set-up of every document (documents/fonts.ts). */
export { FONT_FILES, fontsFolder, reportFonts } from '../../../documents/fonts.js';
