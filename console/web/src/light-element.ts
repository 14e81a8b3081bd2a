import { html, LitElement } from 'lit';

/**
 * Pages render into the light DOM so one stylesheet (styles.css, served from 'self') styles them all; Lit's
 * templates still escape every bound value (no `unsafeHTML` anywhere in the console).
 */
export class LightElement extends LitElement {
  protected override createRenderRoot(): HTMLElement {
    return this;
  }
}

/** A short form of a hash for tables, the full value in a title and in the copyable text. */
export const short = (hex: string | null | undefined, n = 12): string =>
  hex == null ? '—' : hex.length > n ? `${hex.slice(0, n)}…` : hex;

/** A table's header row, one column header per name. */
export const tableHead = (names: readonly string[]) =>
  html`<thead>
    <tr>
      ${names.map((name) => html`<th scope="col">${name}</th>`)}
    </tr>
  </thead>`;
