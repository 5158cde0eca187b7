// Node (tests and dev scripts): the real SDK captures in ../shared/examples beside the checkout (CI lays it there).
import { fileURLToPath } from 'node:url';

export const EXAMPLES_DIR = fileURLToPath(new URL('../../../shared/examples/', import.meta.url));
