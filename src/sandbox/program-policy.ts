/**
 * The allow-list of read-only programs and, per program, which arguments are
 * paths (confined to the view), which options are refused because they write
 * files, run commands or follow symlinks out of a working tree, and which
 * files the command reads whole (the "files inspected" behaviour figure).
 */
import { hasOption, scanOptions, type OptionShape, type ScannedOption } from './option-scan.js';
import { pathProblem, viewFile, type ConfinementRoot } from './path-confinement.js';
import { sedScriptProblem } from './sed-script.js';

/** What one checked program will run with. */
export interface CheckedProgram {
  program: string;
  args: string[];
  /** Repository-relative files the command reads in full or in part (cat, head, tail, sed, nl). */
  inspected: string[];
}

/** Result of {@link checkProgram}. */
export type ProgramCheck = { ok: true; checked: CheckedProgram } | { ok: false; reason: string };

/** Facts about the machine and view a check needs. */
export interface PolicyContext extends ConfinementRoot {
  /** Programs present on this machine (optional ones like `rg` and `tree` are offered only then). */
  installed: ReadonlySet<string>;
  /** GNU sed's `--sandbox` (refuses e/w/r itself) is available and added to every sed. */
  sedSandbox: boolean;
}

/** How a rule sees its arguments after the option scan. */
interface RuleInput {
  options: ScannedOption[];
  positionals: string[];
  ctx: PolicyContext;
}

/** A rule returns what its positionals mean, or a refusal. */
type RuleResult = { paths: string[]; reads: string[]; scripts?: string[]; prefix?: string[] } | { refusal: string };

interface ProgramRule {
  shape: OptionShape;
  /** Options that follow symlinks: refused in a working tree, where a symlink could lead out. */
  follows?: readonly string[];
  /** Options whose value is a file the program reads. */
  fileValued?: readonly string[];
  positionals(input: RuleInput): RuleResult;
}

const allPaths = ({ positionals }: RuleInput): RuleResult => ({ paths: positionals, reads: [] });
const allReads = ({ positionals }: RuleInput): RuleResult => ({ paths: positionals, reads: positionals });

/** grep and rg: the first positional is the pattern unless -e/-f give it. */
function patternThenPaths(explicit: string[]) {
  return ({ options, positionals }: RuleInput): RuleResult =>
    hasOption(options, ...explicit) ? { paths: positionals, reads: [] } : { paths: positionals.slice(1), reads: [] };
}

const RULES: Record<string, ProgramRule> = {
  ls: {
    shape: {
      valued: ['-I', '-w', '-T', '--ignore', '--width', '--hide', '--format', '--sort', '--time', '--tabsize', '--block-size', '--quoting-style', '--indicator-style', '--time-style'],
    },
    follows: ['-L', '--dereference'],
    positionals: allPaths,
  },
  cat: { shape: {}, positionals: allReads },
  head: { shape: { valued: ['-n', '-c', '--lines', '--bytes'] }, positionals: allReads },
  tail: {
    shape: {
      valued: ['-n', '-c', '-s', '--lines', '--bytes', '--sleep-interval', '--pid', '--max-unchanged-stats'],
      forbidden: { '-f': 'following a file never ends', '-F': 'following a file never ends', '--follow': 'following a file never ends', '--retry': 'following a file never ends' },
    },
    positionals: allReads,
  },
  nl: {
    shape: {
      valued: ['-b', '-d', '-f', '-h', '-i', '-l', '-n', '-s', '-v', '-w', '--body-numbering', '--section-delimiter', '--footer-numbering', '--header-numbering', '--line-increment', '--join-blank-lines', '--number-format', '--number-separator', '--starting-line-number', '--number-width'],
    },
    positionals: allReads,
  },
  wc: { shape: { valued: ['--files0-from'] }, fileValued: ['--files0-from'], positionals: allPaths },
  cut: {
    shape: { valued: ['-b', '-c', '-d', '-f', '--bytes', '--characters', '--delimiter', '--fields', '--output-delimiter'] },
    positionals: allPaths,
  },
  tr: { shape: {}, positionals: () => ({ paths: [], reads: [] }) },
  sort: {
    shape: {
      valued: ['-k', '-t', '-S', '--key', '--field-separator', '--buffer-size', '--parallel', '--batch-size', '--sort', '--random-source', '--files0-from'],
      forbidden: {
        '-o': 'it writes a file (the sorted output comes back to you anyway)',
        '--output': 'it writes a file (the sorted output comes back to you anyway)',
        '-T': 'it writes temporary files',
        '--temporary-directory': 'it writes temporary files',
        '--compress-program': 'it runs a program',
      },
    },
    fileValued: ['--random-source', '--files0-from'],
    positionals: allPaths,
  },
  uniq: {
    shape: { valued: ['-f', '-s', '-w', '--skip-fields', '--skip-chars', '--check-chars'] },
    positionals: ({ positionals }) =>
      positionals.length > 1
        ? { refusal: 'uniq with two file names writes the second one; give at most one input file' }
        : { paths: positionals, reads: [] },
  },
  grep: {
    shape: {
      valued: ['-e', '-f', '-m', '-A', '-B', '-C', '-d', '-D', '--regexp', '--file', '--max-count', '--after-context', '--before-context', '--context', '--include', '--exclude', '--exclude-dir', '--exclude-from', '--label', '--color', '--colour', '--directories', '--devices', '--binary-files', '--group-separator'],
    },
    follows: ['-R', '--dereference-recursive'],
    fileValued: ['-f', '--file', '--exclude-from'],
    positionals: patternThenPaths(['-e', '-f', '--regexp', '--file']),
  },
  rg: {
    shape: {
      valued: ['-e', '-f', '-g', '-t', '-T', '-m', '-A', '-B', '-C', '-M', '-j', '-d', '-E', '-r', '--regexp', '--file', '--glob', '--iglob', '--type', '--type-not', '--type-add', '--type-clear', '--max-count', '--after-context', '--before-context', '--context', '--max-columns', '--threads', '--max-depth', '--encoding', '--replace', '--sort', '--sortr', '--color', '--colors', '--context-separator', '--field-match-separator', '--field-context-separator', '--path-separator', '--max-filesize', '--ignore-file', '--engine', '--pre-glob'],
      forbidden: { '--pre': 'it runs a program on every file', '-z': 'it runs decompression programs', '--search-zip': 'it runs decompression programs' },
    },
    follows: ['-L', '--follow'],
    fileValued: ['-f', '--file', '--ignore-file'],
    positionals: (input) =>
      hasOption(input.options, '--files', '--type-list') ? { paths: input.positionals, reads: [] } : patternThenPaths(['-e', '-f', '--regexp', '--file'])(input),
  },
  sed: {
    shape: {
      valued: ['-e', '-l', '--expression', '--line-length'],
      forbidden: {
        '-i': 'it edits files in place; the repository is read-only',
        '--in-place': 'it edits files in place; the repository is read-only',
        '-f': 'give the script inline',
        '--file': 'give the script inline',
      },
    },
    positionals: ({ options, positionals, ctx }) => {
      if (!hasOption(options, '-n', '--quiet', '--silent')) {
        return { refusal: "sed is only allowed with -n (print selected lines), e.g. sed -n '10,40p' FILE" };
      }
      const inline = options.filter((o) => o.flag === '-e' || o.flag === '--expression').map((o) => o.value ?? '');
      const scripts = inline.length > 0 ? inline : positionals.slice(0, 1);
      if (scripts.length === 0) return { refusal: "sed needs a script, e.g. sed -n '10,40p' FILE" };
      const files = inline.length > 0 ? positionals : positionals.slice(1);
      return { paths: files, reads: files, scripts, prefix: ctx.sedSandbox ? ['--sandbox'] : [] };
    },
  },
  tree: {
    shape: {
      valued: ['-L', '-P', '-I', '-H', '-T', '--filelimit', '--charset', '--timefmt', '--sort'],
      forbidden: { '-o': 'it writes a file', '-R': 'it writes files into every directory', '--fromfile': 'give directories instead' },
    },
    follows: ['-l'],
    positionals: allPaths,
  },
};

/** Every program the policy knows, optional ones included. */
export const READ_ONLY_PROGRAMS: readonly string[] = [...Object.keys(RULES), 'find'].sort();

/** The allowed programs that are installed (`rg` and `tree` often are not), sorted. */
export function availablePrograms(installed: ReadonlySet<string>): string[] {
  return READ_ONLY_PROGRAMS.filter((name) => installed.has(name));
}

/**
 * Checks one program call (`argv[0]` is the program name as typed). Refuses
 * paths to programs (`/bin/cat`), programs not on the allow-list or not
 * installed, forbidden options, and paths leaving the view; on success gives
 * the arguments to run with (sed gains `--sandbox` when available).
 */
export function checkProgram(argv: readonly string[], ctx: PolicyContext): ProgramCheck {
  const [program, ...args] = argv;
  if (program === undefined || program === '') return { ok: false, reason: 'the command is empty' };
  const allowed = availablePrograms(ctx.installed);
  if (program.includes('/')) return { ok: false, reason: `run programs by name, not by path ('${program}'); allowed: ${allowed.join(', ')}` };
  if (program === 'find') return checkFind(args, ctx);
  const rule = RULES[program];
  if (!rule || !allowed.includes(program)) {
    return {
      ok: false,
      reason: `'${program}' is not an allowed program: this shell only runs read-only programs (${allowed.join(', ')}). There is no cd: every command starts in the repository root.`,
    };
  }
  const scan = scanOptions(program, args, rule.shape);
  if (!scan.ok) return { ok: false, reason: scan.reason };
  if (!ctx.symlinkFree) {
    const follow = scan.options.find((o) => rule.follows?.includes(o.flag));
    if (follow) return { ok: false, reason: `${program} ${follow.flag} follows symlinks, which could leave the repository; drop it (e.g. grep -r instead of -R)` };
  }
  const meaning = rule.positionals({ options: scan.options, positionals: scan.positionals, ctx });
  if ('refusal' in meaning) return { ok: false, reason: meaning.refusal };
  for (const script of meaning.scripts ?? []) {
    const problem = sedScriptProblem(script);
    if (problem) return { ok: false, reason: problem };
  }
  const fileValues = scan.options.filter((o) => rule.fileValued?.includes(o.flag) && o.value !== undefined).map((o) => o.value!);
  for (const path of [...meaning.paths, ...fileValues]) {
    const problem = pathProblem(ctx, path);
    if (problem) return { ok: false, reason: problem };
  }
  const inspected = meaning.reads.map((arg) => viewFile(ctx, arg)).filter((p): p is string => p !== null);
  return { ok: true, checked: { program, args: [...(meaning.prefix ?? []), ...args], inspected } };
}

const FIND_FORBIDDEN: Record<string, string> = {
  '-exec': 'it runs commands',
  '-execdir': 'it runs commands',
  '-ok': 'it runs commands',
  '-okdir': 'it runs commands',
  '-delete': 'it deletes files',
  '-fprint': 'it writes a file',
  '-fprint0': 'it writes a file',
  '-fprintf': 'it writes a file',
  '-fls': 'it writes a file',
};
/** Primaries that take one argument; the values are patterns or numbers, except the file-valued ones. */
const FIND_VALUED = new Set(
  '-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -type -xtype -size -perm -user -group -uid -gid -mtime -mmin -atime -amin -ctime -cmin -maxdepth -mindepth -links -inum -printf -fstype -used -regextype -context -newer -anewer -cnewer -samefile -files0-from'.split(' '),
);
const FIND_FILE_VALUED = new Set(['-newer', '-anewer', '-cnewer', '-samefile', '-files0-from']);

/** find: leading options, start paths, then an expression whose dangerous primaries are refused. */
function checkFind(args: readonly string[], ctx: PolicyContext): ProgramCheck {
  let i = 0;
  while (i < args.length && /^-[HLP]$|^-D$|^-O\d*$/.test(args[i]!)) {
    if ((args[i] === '-L' || args[i] === '-H') && !ctx.symlinkFree) {
      return { ok: false, reason: `find ${args[i]} follows symlinks, which could leave the repository; drop it` };
    }
    i += args[i] === '-D' ? 2 : 1;
  }
  const paths: string[] = [];
  while (i < args.length && !args[i]!.startsWith('-') && !['(', ')', '!', ','].includes(args[i]!)) paths.push(args[i++]!);
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (FIND_FORBIDDEN[arg] !== undefined) return { ok: false, reason: `find ${arg} is not allowed: ${FIND_FORBIDDEN[arg]}; find only lists here` };
    if (arg.startsWith('-fprint') || arg.startsWith('-exec') || arg.startsWith('-ok')) return { ok: false, reason: `find ${arg} is not allowed` };
    if (arg === '-follow' && !ctx.symlinkFree) return { ok: false, reason: 'find -follow follows symlinks, which could leave the repository; drop it' };
    if (/^-newer[aBcm][aBcm]$/.test(arg) || FIND_VALUED.has(arg)) {
      const value = args[i + 1];
      if (value === undefined) return { ok: false, reason: `find ${arg} needs a value` };
      if (FIND_FILE_VALUED.has(arg) || /^-newer[aBcm][aBcm]$/.test(arg)) paths.push(value);
      i++;
    }
  }
  for (const path of paths) {
    const problem = pathProblem(ctx, path);
    if (problem) return { ok: false, reason: problem };
  }
  return { ok: true, checked: { program: 'find', args: [...args], inspected: [] } };
}
