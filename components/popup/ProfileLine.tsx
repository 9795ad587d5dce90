import { Joined } from './Joined';
import type { HeaderModel } from './model/header-model';

/**
 * "3 profile questions open · Answer now": one quiet line, only while questions are
 * open and only once the profile was read. A plain link to the options page at the first open
 * question: extension pages open `target="_blank"` links in a new tab. Rendered from the header's
 * model, so the first frame paints it too, the same.
 */
export function ProfileLine({ m }: { m: NonNullable<HeaderModel['questions']> }) {
  return (
    <p class="hdr-next hdr-questions small muted joined-line">
      <Joined
        first={m.text}
        then={
          <a class="link" href={m.href} target="_blank" rel="noopener">
            {m.link}
          </a>
        }
      />
    </p>
  );
}
