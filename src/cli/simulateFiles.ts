/**
 * The files simulate's flags name: an input (--scene, --resume) read only if
 * it is a regular file, an output (--out, --snapshot-out) checked before the
 * run and written atomically after it, each refusal naming its flag.
 */
import { randomBytes } from 'node:crypto';
import { access, constants, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { refuseFlag } from './flags';

/** An input must be a regular file (a FIFO or a device would block or never end). */
export async function readInput(flag: '--scene' | '--resume', path: string): Promise<Buffer> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    refuseFlag(flag, path, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (!info.isFile()) refuseFlag(flag, path, 'is not a regular file');
  try {
    return await readFile(path);
  } catch (error) {
    refuseFlag(flag, path, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/**
 * Checked before the simulation runs: an output flag names a file (not a
 * directory, not an input) in a directory that exists and can be written.
 */
export async function checkOut(
  flag: '--out' | '--snapshot-out',
  out: string,
  others: { path: string | undefined; is: string }[],
): Promise<void> {
  if (out.trim() === '') refuseFlag(flag, out, 'is empty: name the file to write');
  for (const { path, is } of others) {
    if (path !== undefined && resolve(out) === resolve(path))
      refuseFlag(flag, out, `is ${is} itself: it would be overwritten`);
  }
  const info = await stat(out).catch(() => null);
  if (info?.isDirectory()) refuseFlag(flag, out, 'is a directory: name a file in it');
  if (info && !info.isFile()) refuseFlag(flag, out, 'is not a regular file');
  try {
    await access(dirname(resolve(out)), constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    refuseFlag(flag, out, code === 'ENOENT' ? 'is in a directory that does not exist' : `cannot be written (${code})`);
  }
}

/**
 * Writes `text` to `path` atomically: into a temporary file beside it, flushed,
 * then renamed over it, so a failure (a full disk) leaves the previous file
 * whole and removes the partial one.
 */
export async function writeAtomically(
  flag: '--out' | '--snapshot-out',
  path: string,
  text: string | Uint8Array,
): Promise<void> {
  const temporary = join(dirname(resolve(path)), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const file = await open(temporary, 'wx');
    try {
      await file.writeFile(text);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    refuseFlag(
      flag,
      path,
      `could not be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); any previous file there is unchanged`,
    );
  }
}
