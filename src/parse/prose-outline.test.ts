import { describe, expect, it } from 'vitest';
import { proseFormatOf, proseOutline } from './prose-outline.js';

const outline = (text: string, format: 'markdown' | 'rst' | 'text') =>
  proseOutline(text, format).map((s) => `${s.qualifiedName} ${s.startLine}-${s.endLine}`);

describe('proseFormatOf', () => {
  it('knows Markdown, RST and plain text by extension, and nothing else', () => {
    expect(proseFormatOf('docs/testing.rst')).toBe('rst');
    expect(proseFormatOf('README.MD')).toBe('markdown');
    expect(proseFormatOf('notes/todo.txt')).toBe('text');
    expect(proseFormatOf('src/app.py')).toBeNull();
    expect(proseFormatOf('docs.rst/Makefile')).toBeNull();
  });
});

describe('proseOutline', () => {
  it('nests Markdown ATX and setext headings and ignores fenced code', () => {
    const text = [
      '# Guide', // 1
      'Intro line.', // 2
      '', // 3
      '## Install', // 4
      '```sh', // 5
      '# not a heading', // 6
      '```', // 7
      '', // 8
      'Usage', // 9
      '-----', // 10
      'Call it.', // 11
      '', // 12
      '# Appendix', // 13
      'End.', // 14
      '',
    ].join('\n');
    expect(outline(text, 'markdown')).toEqual(['Guide 1-12', 'Guide > Install 4-8', 'Guide > Usage 9-12', 'Appendix 13-14']);
    const [guide] = proseOutline(text, 'markdown');
    expect(guide).toMatchObject({ kind: 'section', name: 'Guide', parent: null, signature: '# Guide', doc: 'Intro line.' });
  });

  it('skips YAML front matter and list items above a dash line', () => {
    const text = ['---', 'title: x', '---', '', '- item', '---', '', '## Real', 'body'].join('\n');
    expect(outline(text, 'markdown')).toEqual(['Real 8-9']);
  });

  it('levels RST titles by the order their adornment styles appear, overlines included', () => {
    const text = [
      '=======', // 1
      'Testing', // 2
      '=======', // 3
      '', // 4
      'The Test Client', // 5
      '---------------', // 6
      'Use ``app.test_client()``.', // 7
      '', // 8
      'Fixtures', // 9
      '--------', // 10
      '', // 11
      'Details', // 12
      '~~~~~~~', // 13
      'text', // 14
    ].join('\n');
    expect(outline(text, 'rst')).toEqual([
      'Testing 1-14',
      'Testing > The Test Client 5-8',
      'Testing > Fixtures 9-14',
      'Testing > Fixtures > Details 12-14',
    ]);
    expect(proseOutline(text, 'rst')[1]!.doc).toBe('Use ``app.test_client()``.');
  });

  it('does not take a short underline, an indented line or a paragraph line for a title', () => {
    const text = ['Paragraph one', 'continues here', '---', '', '  indented', '  ==========', '', 'Short title too long', '====='].join('\n');
    expect(outline(text, 'text')).toEqual([]);
  });
});
