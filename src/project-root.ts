// Where the project's own files are (migrations, the admin page's assets): found from the nearest package.json, so
// the same whether this code runs from src/ or bundled into dist/ (scripts/bundle-app.ts).
import { findPackageJSON } from 'node:module';
import path from 'node:path';

const packageJson = findPackageJSON(import.meta.url);
if (packageJson === undefined) throw new Error(`no package.json above ${import.meta.url}`);

/** The folder that holds package.json. */
export const PROJECT_ROOT = path.dirname(packageJson);
