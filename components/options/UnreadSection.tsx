/**
 * An options section whose stored state is not read yet: its heading alone, busy. Until then it
 * says nothing, so no default or empty value is shown as if it were the panelist's.
 */
export function UnreadSection({ id, heading }: { id: string; heading: string }) {
  return (
    <section class="card" id={id} aria-labelledby={`${id}-heading`} aria-busy="true">
      <h2 id={`${id}-heading`}>{heading}</h2>
    </section>
  );
}
