/**
 * A GNU getopt-style scan of one program's arguments, enough to tell options
 * (and the values they take) from positional arguments, so the policy knows
 * which words are paths. It follows getopt's rules that matter for safety:
 * options may follow positionals, `--` ends options, short flags combine
 * (`-rn`), a value may be attached (`-n5`, `--lines=5`) or separate, and a
 * long option may be abbreviated to any unambiguous prefix (`--in-pl`).
 */

/** How a program's options are shaped. Flags are written with dashes: `-n`, `--lines`. */
export interface OptionShape {
  /** Options that take a value (short and long). */
  valued?: readonly string[];
  /** Options refused outright, with the reason shown to the model. */
  forbidden?: Readonly<Record<string, string>>;
}

/** One option as given. `flag` is the canonical spelling from the shape when an abbreviation matched one. */
export interface ScannedOption {
  flag: string;
  value?: string;
}

/** Result of {@link scanOptions}. */
export type OptionScan = { ok: true; options: ScannedOption[]; positionals: string[] } | { ok: false; reason: string };

/**
 * Splits `args` into options and positionals per `shape`. Unknown options
 * are kept (the program itself reports them) and taken to have no value.
 * A forbidden option, or a long prefix of one, makes the scan fail.
 */
export function scanOptions(program: string, args: readonly string[], shape: OptionShape): OptionScan {
  const valued = new Set(shape.valued ?? []);
  const forbidden = shape.forbidden ?? {};
  const longNames = [...new Set([...valued, ...Object.keys(forbidden)].filter((f) => f.startsWith('--')))];
  const options: ScannedOption[] = [];
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const given = eq >= 0 ? arg.slice(0, eq) : arg;
      // Refuse when the spelling could be read as a forbidden option; getopt accepts prefixes.
      const forbiddenHit = Object.keys(forbidden).find((f) => f.startsWith('--') && f.startsWith(given) && given.length > 2);
      if (forbiddenHit) return { ok: false, reason: `${program} ${forbiddenHit} is not allowed: ${forbidden[forbiddenHit]}` };
      const candidates = longNames.filter((f) => f.startsWith(given));
      const flag = candidates.includes(given) ? given : candidates.length === 1 ? candidates[0]! : given;
      if (eq >= 0) options.push({ flag, value: arg.slice(eq + 1) });
      else if (valued.has(flag)) {
        if (i + 1 >= args.length) return { ok: false, reason: `${program} ${given} needs a value` };
        options.push({ flag, value: args[++i]! });
      } else options.push({ flag });
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const flag = `-${arg[j]}`;
        if (forbidden[flag] !== undefined) return { ok: false, reason: `${program} ${flag} is not allowed: ${forbidden[flag]}` };
        if (valued.has(flag)) {
          const attached = arg.slice(j + 1);
          if (attached !== '') options.push({ flag, value: attached });
          else {
            if (i + 1 >= args.length) return { ok: false, reason: `${program} ${flag} needs a value` };
            options.push({ flag, value: args[++i]! });
          }
          break;
        }
        options.push({ flag });
      }
      continue;
    }
    positionals.push(arg);
  }
  return { ok: true, options, positionals };
}

/** True when any of `flags` was given. */
export function hasOption(options: readonly ScannedOption[], ...flags: string[]): boolean {
  return options.some((o) => flags.includes(o.flag));
}
