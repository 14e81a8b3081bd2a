import { html } from 'lit';
import { LightElement } from './light-element.js';
import './overview-page.js';
import './entries-page.js';
import './entry-page.js';
import './verify-page.js';
import './receipt-page.js';
import './graph-run-page.js';

/**
 * The console's shell and router: real paths (`/`, `/entries?…`, `/entry/<request-id>`, `/verify`, `/receipt`,
 * `/graph-run`) handled on the client with the History API; the server answers each with this app, so every page has
 * a stable, linkable URL.
 */
export class DocketConsole extends LightElement {
  static override properties = { path: { state: true }, search: { state: true } };
  path = location.pathname;
  search = location.search;

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener('popstate', this.onPop);
    this.addEventListener('click', this.onClick);
    this.addEventListener('navigate', this.onNavigate as EventListener);
  }

  override disconnectedCallback(): void {
    removeEventListener('popstate', this.onPop);
    super.disconnectedCallback();
  }

  private readonly onPop = () => this.follow();

  private follow(): void {
    this.path = location.pathname;
    this.search = location.search;
  }

  /** In-app links: same origin, not the offline page or the API, plain left click. */
  private readonly onClick = (ev: MouseEvent) => {
    if (ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    const a = (ev.target as Element).closest('a');
    if (a === null || a.target !== '') return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || url.pathname === '/offline' || url.pathname.startsWith('/api/')) return;
    // A fragment link within this page (a pack rule on the entry page) is the browser's to follow.
    if (url.hash !== '' && url.pathname === location.pathname && url.search === location.search) return;
    ev.preventDefault();
    this.go(url.pathname + url.search);
  };

  private readonly onNavigate = (ev: CustomEvent<string>) => this.go(ev.detail);

  go(to: string): void {
    history.pushState(null, '', to);
    this.follow();
    // Move focus to the new page's heading so keyboard and screen-reader users land on it.
    void this.updateComplete.then(() =>
      requestAnimationFrame(() => this.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true })),
    );
  }

  private page() {
    const q = new URLSearchParams(this.search);
    if (this.path === '/') return html`<overview-page></overview-page>`;
    if (this.path === '/entries') return html`<entries-page .query=${q}></entries-page>`;
    if (this.path === '/verify') return html`<verify-page></verify-page>`;
    if (this.path === '/receipt') return html`<receipt-page></receipt-page>`;
    if (this.path === '/graph-run') return html`<graph-run-page></graph-run-page>`;
    const m = /^\/entry\/([^/]+)$/.exec(this.path);
    if (m) {
      let id: string;
      try {
        id = decodeURIComponent(m[1]!);
      } catch {
        id = m[1]!;
      }
      return html`<entry-page .requestId=${id}></entry-page>`;
    }
    return html`<h1 tabindex="-1">Not found</h1>
      <p>No console page at <code>${this.path}</code>. <a href="/">Go to the overview</a>.</p>`;
  }

  private nav(href: string, label: string) {
    const current = href === '/' ? this.path === '/' : this.path.startsWith(href);
    return html`<a href=${href} aria-current=${current ? 'page' : 'false'}>${label}</a>`;
  }

  override render() {
    return html`<a class="skip" href="#main">Skip to content</a>
      <header>
        <span class="brand">Docket audit console</span>
        <nav aria-label="Console pages">
          ${this.nav('/', 'Overview')} ${this.nav('/entries', 'Entries')} ${this.nav('/verify', 'Verify')}
          ${this.nav('/receipt', 'Receipt')}
          <a href="/offline">Offline verification</a>
        </nav>
        <form class="search" role="search" @submit=${this.onSearch}>
          <label for="search-request">Request id</label>
          <input
            id="search-request"
            name="requestId"
            type="search"
            autocomplete="off"
            placeholder="search a request id"
          />
          <button type="submit">Search</button>
        </form>
      </header>
      <main id="main">${this.page()}</main>`;
  }

  private onSearch(ev: SubmitEvent): void {
    ev.preventDefault();
    const input = (ev.target as HTMLFormElement).elements.namedItem('requestId') as HTMLInputElement;
    const v = input.value.trim();
    this.go(v === '' ? '/entries' : `/entries?requestId=${encodeURIComponent(v)}`);
  }
}
customElements.define('docket-console', DocketConsole);
