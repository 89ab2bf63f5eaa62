// `npm run cli` bundles the CLI again when a source is newer than dist/cli.js (scripts/bundle-app.ts): the newest
// modification time under the sources, folders included.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newestChange } from '../../../scripts/bundle-app.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-fresh-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const at = (seconds: number) => new Date(seconds * 1000);
function touch(relative: string, seconds: number): void {
  fs.utimesSync(path.join(root, relative), at(seconds), at(seconds));
}

describe('newestChange', () => {
  it('finds the newest file however deep, a folder changed by a deletion, and 0 for nothing', () => {
    fs.mkdirSync(path.join(root, 'src/cli/deep'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src/cli/deep/a.ts'), '');
    fs.writeFileSync(path.join(root, 'src/b.ts'), '');
    fs.writeFileSync(path.join(root, 'package-lock.json'), '');
    for (const entry of ['src', 'src/cli', 'src/cli/deep', 'src/b.ts', 'package-lock.json']) touch(entry, 1_000);
    touch('src/cli/deep/a.ts', 2_000);
    const sources = ['src', 'package-lock.json', 'webhooks'].map((s) => path.join(root, s));
    expect(newestChange(sources)).toBe(2_000_000);

    touch('package-lock.json', 3_000);
    expect(newestChange(sources)).toBe(3_000_000);

    // Deleting a file leaves no file newer, but its folder is.
    fs.rmSync(path.join(root, 'src/b.ts'));
    expect(newestChange(sources)).toBeGreaterThan(3_000_000);

    expect(newestChange([path.join(root, 'missing')])).toBe(0);
  });
});
