/**
 * Ctrl-C while a command builds or refreshes the index: the index keeps every
 * file written so far (each batch is its own transaction) and the next command
 * resumes from there, so the process says so on stderr and exits 130 (the
 * shell's code for SIGINT) instead of dying silently.
 */

/** Where the note goes and how the process ends (tests pass their own). */
export interface InterruptIo {
  write(text: string): void;
  exit(code: number): void;
}

const PROCESS_IO: InterruptIo = {
  write: (text) => void process.stderr.write(text),
  exit: (code) => process.exit(code),
};

/** The note printed on Ctrl-C during an index build. */
export const INTERRUPTED_BUILD_NOTE =
  'interrupted: the files indexed so far are kept; the next reponav command resumes the index from there.';

/** Runs `work` with a SIGINT handler that prints {@link INTERRUPTED_BUILD_NOTE} and exits 130; removed when `work` settles. */
export async function keepingWorkOnInterrupt<T>(work: () => Promise<T>, io: InterruptIo = PROCESS_IO): Promise<T> {
  const onSigint = () => {
    io.write(`\n${INTERRUPTED_BUILD_NOTE}\n`);
    io.exit(130);
  };
  process.once('SIGINT', onSigint);
  try {
    return await work();
  } finally {
    process.off('SIGINT', onSigint);
  }
}
