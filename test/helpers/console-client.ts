/**
 * A console user without a browser: fetch with a cookie jar, form posts, and the form token read
 * from the last page, for the console's HTTP-level tests on both engines. The browser tests drive
 * Chromium instead (test/console/console-browser.test.ts).
 */
export interface Page {
  status: number;
  text: string;
  location: string | null;
  headers: Headers;
}

export class ConsoleClient {
  readonly cookies = new Map<string, string>();
  /** The `_csrf` value of the last page that had a form. */
  formToken = '';

  constructor(
    readonly base: string,
    readonly headers: Record<string, string> = {},
  ) {}

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      const value = rest.join('=');
      if (!name) continue;
      if (value === '' || /Expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
  }

  private cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  }

  private async read(response: Response): Promise<Page> {
    this.remember(response);
    const text = await response.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text);
    if (token?.[1]) this.formToken = token[1];
    return { status: response.status, text, location: response.headers.get('location'), headers: response.headers };
  }

  async get(path: string): Promise<Page> {
    return this.read(
      await fetch(this.base + path, { redirect: 'manual', headers: { ...this.headers, ...this.cookieHeader() } }),
    );
  }

  /** Posts a form; the page's form token is added unless `_csrf` is given (null: left out). */
  async post(path: string, form: Record<string, string>, options: { csrf?: string | null } = {}): Promise<Page> {
    const body = new URLSearchParams(form);
    const csrf = options.csrf === undefined ? this.formToken : options.csrf;
    if (csrf !== null) body.set('_csrf', csrf);
    return this.read(
      await fetch(this.base + path, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          ...this.headers,
          ...this.cookieHeader(),
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: body.toString(),
      }),
    );
  }

  /** Signs in through the form; returns the answer to the post. */
  async signIn(email: string, password: string): Promise<Page> {
    await this.get('/console/login');
    return this.post('/console/login', { email, password });
  }
}

/** The path of an invitation link (the printed URL names the configured PUBLIC_URL, not the test's port). */
export function linkPath(url: string): string {
  return new URL(url).pathname;
}
