import type { ComponentChildren } from 'preact';

/** The popup's two page layouts: App renders them, and so does the first frame's template, so the two cannot differ. */

/** Not connected (or the token refused): the header and the prompt to connect. */
export function PromptLayout({ header, children }: { header: ComponentChildren; children: ComponentChildren }) {
  return (
    <>
      {header}
      <main>{children}</main>
    </>
  );
}

interface PageProps {
  header: ComponentChildren;
  /** A refresh is running. */
  busy: boolean;
  /** A dialog is open above the page. */
  inert: boolean;
  children: ComponentChildren;
}

/** Connected: the header, then the goal, notices, the outcome of a redemption, the rewards and the latest redemption. */
export function PageLayout({ header, busy, inert, children }: PageProps) {
  return (
    <div class="page" inert={inert}>
      {header}
      <main aria-busy={busy}>{children}</main>
    </div>
  );
}
