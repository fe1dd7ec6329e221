/** HTTP client for the bookshop API, with retry and backoff on 503. */
import { Basket } from './basket';

export interface BookSummary {
  isbn: string;
  title: string;
  priceCents: number;
}

export class ApiClient {
  constructor(private readonly baseUrl: string, private readonly maxAttempts = 4) {}

  /** Fetch one page of search results for the given words. */
  async searchBooks(words: string): Promise<BookSummary[]> {
    const response = await this.fetchWithRetry(`${this.baseUrl}/books?q=${encodeURIComponent(words)}`);
    return (await response.json()) as BookSummary[];
  }

  async checkout(basket: Basket): Promise<string> {
    const response = await this.fetchWithRetry(`${this.baseUrl}/checkout`, {
      method: 'POST',
      body: JSON.stringify(basket.toPayload()),
    });
    const body = (await response.json()) as { invoiceId: string };
    return body.invoiceId;
  }

  private async fetchWithRetry(url: string, init?: RequestInit): Promise<Response> {
    let delay = 100;
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(url, init);
      if (response.status !== 503 || attempt >= this.maxAttempts) return response;
      await sleep(delay);
      delay *= 2;
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
