// PGlite's file-backed storage with owner-only files. Its initdb creates the data directory's files
// mode 0666 and chmods them so explicitly (the process's umask does not apply), and directories follow
// the umask: 968 of 1,042 files were world-writable. Here every mode PGlite's file system sets is
// masked to the owner's bits where it is set, before the first file is made.
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { ownerOnly } from '../private-files.ts';

/** The two calls of Emscripten's FS that every mode goes through: chmod (also after creating a file) and mkdir. */
interface ModeSetters {
  doChmod(stream: unknown, node: unknown, mode: number, dontFollow?: boolean): void;
  mkdir(path: string, mode?: number): unknown;
}

export class PrivateNodeFS extends NodeFS {
  override async init(...args: Parameters<NodeFS['init']>): ReturnType<NodeFS['init']> {
    const { emscriptenOpts } = await super.init(...args);
    const restrict = (mod: { FS: unknown }) => {
      const fsOps = mod.FS as ModeSetters;
      const { doChmod, mkdir } = fsOps;
      fsOps.doChmod = (stream, node, mode, dontFollow) => doChmod.call(fsOps, stream, node, ownerOnly(mode), dontFollow);
      fsOps.mkdir = (path, mode = 0o777) => mkdir.call(fsOps, path, ownerOnly(mode));
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [restrict, ...(emscriptenOpts.preRun ?? [])] } };
  }
}
