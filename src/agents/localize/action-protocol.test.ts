import { describe, expect, it } from 'vitest';
import { parseAction, parseCorrectedAnswer } from './action-protocol.js';
import { AnswerSchema, salvageLocations, splitLocation, toRankedAnswer } from './answer-format.js';
import { resolveAgentInterface } from './agent-interfaces.js';

describe('parseAction', () => {
  it('reads the three action blocks', () => {
    expect(parseAction('Search first.\n```tool\n{"tool": "search", "args": {"query": "x"}}\n```')).toEqual({ kind: 'tool', tool: 'search', args: { query: 'x' } });
    expect(parseAction('```bash\n$ grep -rn x .\n```')).toEqual({ kind: 'bash', command: 'grep -rn x .' });
    expect(parseAction('```answer\n{"files": ["a.py"], "functions": []}\n```')).toEqual({ kind: 'answer', answer: { files: ['a.py'], functions: [] } });
  });

  it('reads LangChain-style Action: / Action Input: lines', () => {
    const text = 'Thought: I should use search.\nAction: search\nAction Input: {"query": "discount applied twice"}';
    expect(parseAction(text)).toEqual({ kind: 'tool', tool: 'search', args: { query: 'discount applied twice' } });
    expect(parseAction('Action: bash\nAction Input: {"command": "ls shop"}')).toEqual({ kind: 'bash', command: 'ls shop' });
    expect(parseAction('Action: search\nAction Input: discount')).toMatchObject({ kind: 'format-error' });
  });

  it('tolerates close variants', () => {
    expect(parseAction('```sh\nls\n```')).toEqual({ kind: 'bash', command: 'ls' });
    expect(parseAction('```json\n{"name": "list_symbols", "arguments": {"file": "a.py"}}\n```')).toEqual({ kind: 'tool', tool: 'list_symbols', args: { file: 'a.py' } });
    expect(parseAction('```tool\n{"tool": "bash", "args": {"command": "ls src"}}\n```')).toEqual({ kind: 'bash', command: 'ls src' });
    expect(parseAction('```\n{"found_files": ["a.py"], "found_entities": ["a.py:f"]}\n```')).toMatchObject({ kind: 'answer' });
    expect(parseAction('```tool\n{"tool": "search", "args": {"query": "x",},}\n```')).toMatchObject({ kind: 'tool', tool: 'search' });
    expect(parseAction('Last one:\n```bash\nls shop')).toEqual({ kind: 'bash', command: 'ls shop' }); // unclosed final fence
    expect(parseAction('Here is python:\n```python\nprint(1)\n```\n```bash\nls\n```')).toEqual({ kind: 'bash', command: 'ls' });
  });

  it('reports missing, multiple and unreadable actions', () => {
    expect(parseAction('I am thinking.')).toMatchObject({ kind: 'format-error', reason: expect.stringMatching(/^No action found/) });
    expect(parseAction('')).toMatchObject({ kind: 'format-error', reason: expect.stringMatching(/^Your reply was empty/) });
    expect(parseAction('```tool\n{"args": {}}\n```')).toMatchObject({ kind: 'format-error', reason: expect.stringMatching(/name the tool/) });
    expect(parseAction('```bash\n\n```')).toMatchObject({ kind: 'format-error' });
  });

  it('takes the first of several actions and says so', () => {
    expect(parseAction('```bash\nls\n```\n```answer\n{"files": []}\n```')).toMatchObject({
      kind: 'bash',
      command: 'ls',
      note: expect.stringMatching(/held 2 actions; only the first \(bash\) was taken/),
    });
  });

  it('reads bare JSON in prose, any key case and the common key aliases', () => {
    expect(parseAction('I will search.\n{"tool": "search", "args": {"query": "x"}}\nThen read.')).toEqual({ kind: 'tool', tool: 'search', args: { query: 'x' } });
    expect(parseAction('{"Tool": "Search", "Args": {"query": "x"}}')).toEqual({ kind: 'tool', tool: 'Search', args: { query: 'x' } });
    expect(parseAction('{"action": "view_code", "action_input": {"file": "a.py"}}')).toEqual({ kind: 'tool', tool: 'view_code', args: { file: 'a.py' } });
    expect(parseAction('Done: {"Files": ["a.py"], "Functions": ["a.py:f"]}')).toMatchObject({ kind: 'answer', answer: { files: ['a.py'], functions: ['a.py:f'] } });
    expect(parseAction('{"TOOL": "BASH", "ARGS": {"command": "ls"}}')).toEqual({ kind: 'bash', command: 'ls' });
  });

  it('turns an unusable answer into a bad-answer with a correction', () => {
    const action = parseAction('```answer\n{"files": "a.py" "functions": []}\n```');
    expect(action.kind).toBe('bad-answer');
    if (action.kind === 'bad-answer') expect(action.error.correction).toMatch(/^Your previous reply could not be used/);
    expect(parseAction('```answer\n{"paths": ["a.py"]}\n```')).toMatchObject({ kind: 'bad-answer' });
  });

  it('reads a corrected answer as a block or bare JSON', () => {
    expect(parseCorrectedAnswer('{"files": ["a.py"], "functions": ["a.py:f"]}')).toMatchObject({ ok: true });
    expect(parseCorrectedAnswer('```answer\n{"files": ["a.py"]}\n```')).toMatchObject({ ok: true });
    expect(parseCorrectedAnswer('```tool\n{"tool": "search"}\n```')).toMatchObject({ ok: false });
  });
});

describe('answer format', () => {
  it('splits locations the way models write them', () => {
    expect(splitLocation('src/a.py:Foo.bar')).toEqual({ path: 'src/a.py', name: 'Foo.bar' });
    expect(splitLocation('`./src/a.py::Foo::bar()`')).toEqual({ path: 'src/a.py', name: 'Foo.bar' });
    expect(splitLocation('/src/a.py#L10-L20')).toEqual({ path: 'src/a.py', name: null });
    expect(splitLocation('src/a.py:12')).toEqual({ path: 'src/a.py', name: null });
    expect(splitLocation('a.py foo')).toEqual({ path: 'a.py', name: 'foo' });
    expect(splitLocation('Foo.bar')).toBeNull();
  });

  it('ranks files, derives modules, drops what cannot be scored', () => {
    expect(
      toRankedAnswer(
        AnswerSchema.parse({
          found_files: ['b.py', { path: 'a.py' }],
          functions: ['a.py:A.f', 'a.py:A.g', 'c/d.py:top', 'Orphan.method', { file: 'e.py', name: 'E.h' }, 'z.py'],
        }),
      ),
    ).toEqual({
      files: ['b.py', 'a.py', 'z.py', 'c/d.py', 'e.py'],
      modules: ['a.py:A', 'c/d.py:top', 'e.py:E'],
      functions: ['a.py:A.f', 'a.py:A.g', 'c/d.py:top', 'e.py:E.h'],
    });
    expect(toRankedAnswer({ files: ['a.py', 'b.py', 'c.py'], functions: [] }, 2).files).toEqual(['a.py', 'b.py']);
  });

  it('salvages locations from free text', () => {
    expect(salvageLocations('Probably src/app/models.py:Order.total, also see utils.py and e.g. Foo.bar.')).toEqual({
      files: ['utils.py', 'src/app/models.py'],
      modules: ['src/app/models.py:Order'],
      functions: ['src/app/models.py:Order.total'],
    });
  });
});

describe('resolveAgentInterface', () => {
  it('knows the four interfaces and their tools', () => {
    expect(resolveAgentInterface('bash').tools).toEqual(['bash']);
    expect(resolveAgentInterface('SNIPPET').tools).toEqual(['bash', 'snippet_search']);
    expect(resolveAgentInterface('snippet_listsym').tools).toEqual(['bash', 'snippet_search', 'list_symbols']);
    expect(resolveAgentInterface(undefined).tools).toEqual(['bash', 'search', 'list_symbols']);
    expect(() => resolveAgentInterface('baseline')).toThrow(/use one of bash, snippet, snippet\+listsym, reponav/);
  });
});

describe('parseAction: native tool calls as the client renders them', () => {
  it("reads the call of a text-plus-tool reply (Claude's text and tool_use), the first of parallel calls with a note", () => {
    const action = parseAction('I will search first.\n{"name":"search","arguments":{"query":"tax"}}\n{"name":"list_symbols","arguments":{"file":"a.py"}}');
    expect(action).toMatchObject({ kind: 'tool', tool: 'search', args: { query: 'tax' } });
    expect((action as { note?: string }).note).toMatch(/held 2 actions/);
  });
});
