import type { ComponentChildren } from 'preact';
import { HistoryLink } from './HistoryLink';
import { Joined } from './Joined';
import { headerModel, type HeaderInput, type HeaderModel } from './model/header-model';
import { ProfileLine } from './ProfileLine';
import { Qty } from './Qty';
import { openOptions } from './open-options';
import { SupportDetails } from './SupportDetails';
import { SYNC_ERROR_ID } from './SyncNotice';

interface Props extends Omit<HeaderInput, 'refreshable'> {
  onRefresh?: (() => void) | undefined;
}

const NBSP = '\u00a0';

/** Panel name, balance, the next reward and freshness; the only part shown in every state. */
export function Header({ onRefresh, ...input }: Props) {
  return <HeaderView m={headerModel({ ...input, refreshable: !!onRefresh })} onRefresh={onRefresh} />;
}

/** The header's markup, from its model alone: the first frame's template renders it too, so the two cannot differ. */
export function HeaderView({
  m,
  onRefresh,
  questionsSlot,
}: {
  m: HeaderModel;
  onRefresh?: (() => void) | undefined;
  /** In the first frame's template: where the questions line's own template goes, so it multiplies no header shape. */
  questionsSlot?: ComponentChildren;
}) {
  const fresh = m.fresh && <Freshness {...m.fresh} onRefresh={onRefresh} />;
  return (
    <header class="hdr">
      <div class="hdr-row">
        <h1 class="hdr-name">{m.name}</h1>
        {m.history !== null && <HistoryLink class="btn btn-quiet" sentence={m.history} />}
        <button type="button" class="btn btn-quiet" onClick={openOptions}>
          {m.options}
        </button>
      </div>
      {/* The balance, and beside it how fresh it is: one line where the popup is wide enough, two where not. */}
      <div class="hdr-line">
        {(m.points || m.unknown !== null) && (
          <p class="hdr-balance">
            {m.points ? (
              // "2,500 points" with the number set large, on one line in every language (utils/qty.ts).
              <span class="qty">
                {m.points.before}
                <strong>{m.points.number}</strong>
                {m.points.after}
              </span>
            ) : (
              m.unknown
            )}
          </p>
        )}
        {/* Waiting for the first read: a line as tall as the balance's, so the balance does not push the page down. */}
        {!m.points && m.unknown === null && m.waiting && (
          <p class="hdr-wait" aria-hidden="true">
            <strong>{NBSP}</strong>
          </p>
        )}
        {!m.fresh?.alert && fresh}
        {/* The freshness line's place while the first read is under way. */}
        {m.waiting && <p class="muted hdr-updated joined-line" aria-hidden="true" />}
      </div>
      {(m.next !== null || m.earn || m.waiting) && (
        <p class="hdr-next small joined-line">
          {m.next !== null && m.earn ? (
            // "· Earn more points" never starts a line, nor does a "·" end one (Joined).
            <Joined first={<Qty text={m.next} />} then={<EarnLink earn={m.earn} />} />
          ) : m.next !== null ? (
            <Qty text={m.next} />
          ) : (
            <>
              {m.waiting && (m.known ?? NBSP)}
              {m.earn && <EarnLink earn={m.earn} />}
            </>
          )}
        </p>
      )}
      {questionsSlot ?? (m.questions && <ProfileLine m={m.questions} />)}
      {m.known !== null && !m.waiting && <p class="muted hdr-updated">{m.known}</p>}
      {m.fresh?.alert && (
        <div id={SYNC_ERROR_ID} class="hdr-offline" role="alert" tabIndex={-1}>
          {fresh}
          {m.fresh.next !== null && <p class="small">{m.fresh.next}</p>}
        </div>
      )}
      {/* Outside the alert, which says what is wrong in plain words: the code is there when asked for. */}
      {m.fresh?.support && <SupportDetails m={m.fresh.support} />}
    </header>
  );
}

function EarnLink({ earn }: { earn: NonNullable<HeaderModel['earn']> }) {
  return (
    <a class="link" href={earn.href} target="_blank" rel="noopener noreferrer">
      {earn.text}
    </a>
  );
}

/**
 * How old the points are, and the way to fresh ones: "Updated 2 min ago · Refresh", or, after a
 * failed refresh, "Can't reach Panel right now — showing your points from 1 min ago · Retry".
 */
function Freshness({
  text,
  action,
  name,
  busy,
  onRefresh,
}: {
  text: string;
  action: string;
  name: string;
  busy: boolean;
  onRefresh?: (() => void) | undefined;
}) {
  return (
    <p class="muted hdr-updated joined-line">
      <Joined
        first={text}
        then={
          <span class="hdr-then">
            <button type="button" class="btn-link" onClick={onRefresh} aria-busy={busy} aria-label={name}>
              {action}
            </button>
            {/* Its place kept while idle: the line sits at the end of the balance's, and would move as it came and went. */}
            <span class={busy ? 'spinner' : 'spinner idle'} aria-hidden="true" />
          </span>
        }
      />
    </p>
  );
}
