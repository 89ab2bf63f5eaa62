// What `find DIR -perm /g+rwx,o+rwx` would list: entries under a directory (and itself) that anyone but
// the owner may read, write or enter, as "<mode> <path>".
import fs from 'node:fs';
import path from 'node:path';

export function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const visit = (p: string) => {
    const stat = fs.lstatSync(p);
    if ((stat.mode & 0o077) !== 0) found.push(`${(stat.mode & 0o777).toString(8)} ${path.relative(dir, p) || '.'}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) visit(path.join(p, name));
  };
  visit(dir);
  return found;
}

/** How many files and directories there are under `dir`: proof that a check walked something. */
export function entryCount(dir: string): number {
  return fs.readdirSync(dir, { recursive: true }).length;
}
