import { describe, expect, it } from 'vitest';
import { parseCommandLine } from './command-line.js';
import { sedScriptProblem } from './sed-script.js';
import { scanOptions } from './option-scan.js';

const argv = (line: string) => {
  const parsed = parseCommandLine(line);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.stages.map((s) => s.words.map((w) => w.text));
};
const refusal = (line: string) => {
  const parsed = parseCommandLine(line);
  return parsed.ok ? null : parsed.reason;
};

describe('parseCommandLine', () => {
  it('splits words with bash quoting rules', () => {
    expect(argv(`grep -rn "def  x" 'a b' c\\ d`)).toEqual([['grep', '-rn', 'def  x', 'a b', 'c d']]);
    expect(argv(`echo "a\\"b" 'it'"'"'s' ''`)).toEqual([['echo', 'a"b', "it's", '']]);
    expect(argv(`grep "x\\.y" 'foo$' "bar$"`)).toEqual([['grep', 'x\\.y', 'foo$', 'bar$']]);
    expect(argv('ls # a comment; rm -rf /')).toEqual([['ls']]);
    expect(argv('grep a \\\nfile')).toEqual([['grep', 'a', 'file']]);
  });

  it('splits pipelines and accepts only harmless stderr redirections', () => {
    expect(argv('grep -rn x . | sort | head -n 3')).toEqual([['grep', '-rn', 'x', '.'], ['sort'], ['head', '-n', '3']]);
    const parsed = parseCommandLine('find . 2>/dev/null | grep x 2>&1');
    expect(parsed.ok && parsed.stages.map((s) => s.stderr)).toEqual(['discard', 'merge']);
    expect(argv("grep '|' a 'b > c'")).toEqual([['grep', '|', 'a', 'b > c']]);
  });

  it('marks unquoted glob characters only', () => {
    const parsed = parseCommandLine(`ls src/*.py '*.md' \\*.txt a[bc]`);
    expect(parsed.ok && parsed.stages[0]!.words.map((w) => w.glob)).toEqual([null, 'src/*.py', null, null, 'a[bc]']);
  });

  it.each([
    ['ls; rm x', /`;` is not supported/],
    ['ls && rm x', /`&&` is not supported/],
    ['ls || rm x', /`\|\|` is not supported/],
    ['ls &', /`&` is not supported/],
    ['cat $HOME', /variables and command substitution/],
    ['cat ${X}', /variables and command substitution/],
    ['cat "$(ls)"', /also inside double quotes/],
    ['cat `ls`', /backticks/],
    ["echo $'a'", /quoting is not supported/],
    ['(ls)', /subshells/],
    ['cat a > b', /redirections/],
    ['cat a >> b', /redirections/],
    ['cat < a', /redirections/],
    ['cat a 2> b', /redirections/],
    ['cat a 1>&2', /redirections/],
    ['ls\nrm x', /several lines/],
    ["grep 'x", /single quote is not closed/],
    ['grep "x', /double quote is not closed/],
    ['ls |', /empty command/],
    ['| ls', /empty command/],
    ['   ', /empty/],
  ])('refuses %j', (line, reason) => {
    expect(refusal(line)).toMatch(reason);
  });
});

describe('sedScriptProblem', () => {
  it.each(['10,20p', '1p;5,$p', '/^def /,/^$/p', '=', '1~2p', '5,+3p', '/a/!d', 's/a/b/gp', 'y/ab/cd/', '{p;q}', '10q', '$p', '\\,x,p'])('accepts %j', (script) => {
    expect(sedScriptProblem(script)).toBeNull();
  });
  it.each([
    ['w out', /'w' command writes a file/],
    ['1,5w out', /'w' command writes a file/],
    ['s/a/b/w out', /'w' flag of 's' writes a file/],
    ['s/a/b/e', /'e' flag of 's' runs a command/],
    ['e ls', /'e' command runs a command/],
    ['r /etc/passwd', /reads another file/],
    ['1R x', /reads another file/],
    ['p;W x', /'W' command writes a file/],
    ['s/a/b', /unterminated/],
    ['k', /not supported/],
  ])('refuses %j', (script, reason) => {
    expect(sedScriptProblem(script)).toMatch(reason);
  });
});

describe('scanOptions', () => {
  const shape = { valued: ['-n', '--lines', '-e'], forbidden: { '-i': 'no', '--in-place': 'no' } };
  it('tells options, values and positionals apart like getopt', () => {
    expect(scanOptions('x', ['-n', '5', 'a', '-rn3', '--lines=2', '--', '-i'], shape)).toEqual({
      ok: true,
      options: [{ flag: '-n', value: '5' }, { flag: '-r' }, { flag: '-n', value: '3' }, { flag: '--lines', value: '2' }],
      positionals: ['a', '-i'],
    });
    expect(scanOptions('x', ['--lin', '7'], shape)).toMatchObject({ ok: true, options: [{ flag: '--lines', value: '7' }] });
  });
  it('refuses forbidden options, combined or abbreviated', () => {
    expect(scanOptions('sed', ['-ri', 'p'], shape)).toMatchObject({ ok: false, reason: 'sed -i is not allowed: no' });
    expect(scanOptions('sed', ['--in-pl'], shape)).toMatchObject({ ok: false });
    expect(scanOptions('sed', ['--in-place=.bak'], shape)).toMatchObject({ ok: false });
    expect(scanOptions('sed', ['-e'], shape)).toMatchObject({ ok: false, reason: 'sed -e needs a value' });
  });
});
