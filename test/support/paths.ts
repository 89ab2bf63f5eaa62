// Where the tests find the project and its fixtures, whatever folder a test sits in.
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const FIXTURES = path.join(ROOT, 'test', 'fixtures');
/** Screenshots and traces the browser tests leave behind (git-ignored). */
export const ARTIFACTS = path.join(ROOT, 'test-artifacts');
