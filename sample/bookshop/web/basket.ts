/** The shopping basket kept in the browser until checkout. */
export class Basket {
  private readonly items = new Map<string, number>();

  add(isbn: string, quantity = 1): void {
    this.items.set(isbn, (this.items.get(isbn) ?? 0) + quantity);
  }

  remove(isbn: string): void {
    this.items.delete(isbn);
  }

  /** Total number of copies across all titles. */
  count(): number {
    let total = 0;
    for (const quantity of this.items.values()) total += quantity;
    return total;
  }

  toPayload(): { isbn: string; quantity: number }[] {
    return [...this.items.entries()].map(([isbn, quantity]) => ({ isbn, quantity }));
  }
}
