import { describe, expect, it } from 'vitest';
import { parseSource } from './parse-source.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const names = async (path: string, text: string) => {
  const parsed = await parseSource(path, utf8(text));
  return { status: parsed.status, names: parsed.symbols.map((s) => `${s.qualifiedName}@${s.startLine}-${s.endLine}`) };
};

// One stray `<` in a method header: tree-sitter alone wraps the rest of the file in one ERROR node.
const TS = `/** A cart. */
export interface CartLine {
  sku: string;
}

export class Cart {
  private lines: CartLine[] = [];

  addLine(line: CartLine): void {<
    const existing = this.lines.find((l) => l.sku === line.sku);
    if (!existing) this.lines.push({ ...line });
  }

  get size(): number {
    return this.lines.length;
  }
}

export function formatPrice(cents: number): string {
  return \`$\${(cents / 100).toFixed(2)}\`;
}
`;

// The same shape in Python, broken the same way.
const PY = `class Cart:
    def add_line(self, line):<
        self.lines.append(line)

    def size(self):
        return len(self.lines)


def format_price(cents):
    return f"{cents / 100:.2f}"
`;

describe('syntax errors in brace languages stay local', () => {
  it.each(['cart.ts', 'cart.tsx'])('%s keeps every symbol outside the broken method, with true spans', async (path) => {
    expect(await names(path, TS)).toEqual({
      status: 'partial',
      names: ['CartLine@2-4', 'Cart@6-17', 'Cart.size@14-16', 'formatPrice@19-21'],
    });
  });

  it('as Python does with the same error', async () => {
    const py = await names('cart.py', PY);
    expect(py.status).toBe('partial');
    expect(py.names).toEqual(expect.arrayContaining(['Cart.size@5-6', 'format_price@9-10']));
  });

  it('a clean file is parsed once and unchanged', async () => {
    const clean = TS.replace('{<', '{');
    expect(await names('cart.ts', clean)).toEqual({
      status: 'ok',
      names: ['CartLine@2-4', 'Cart@6-17', 'Cart.addLine@9-12', 'Cart.size@14-16', 'formatPrice@19-21'],
    });
  });
});
