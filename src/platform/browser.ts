// Extension contexts (worker, event page, content scripts, extension pages): the one importer of
// webextension-polyfill, so the rest of the code sees one promise-based `browser` in Chrome and Firefox.
import browser from 'webextension-polyfill';

export { browser };
export type { Runtime } from 'webextension-polyfill';
