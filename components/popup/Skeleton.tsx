import { t } from '../../utils/i18n';

/** Placeholder rows for the very first load, before anything is cached. */
export function Skeleton() {
  return (
    <div class="skeleton" aria-busy="true">
      <p class="visually-hidden" role="status">
        {t('loadingRewards')}
      </p>
      {[0, 1, 2].map((i) => (
        <div key={i} class="skel-row" aria-hidden="true">
          <span class="skel-img" />
          <span class="skel-lines">
            <span class="skel-line" />
            <span class="skel-line short" />
          </span>
        </div>
      ))}
    </div>
  );
}
