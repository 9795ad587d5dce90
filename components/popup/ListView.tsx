import type { ComponentChildren, Ref } from 'preact';
import type { ListModel } from './model/list-model';

interface ViewProps {
  m: ListModel;
  /** The rows. */
  children: ComponentChildren;
  /** In place of the rows: what to say when the search or filter leaves none. */
  noMatch?: ComponentChildren;
  searchRef?: Ref<HTMLInputElement>;
  /** The rows' list, where "Show more" takes focus on to the first row it added. */
  listRef?: Ref<HTMLUListElement>;
  onFocus?: (() => void) | undefined;
  onQuery?: (value: string) => void;
  onSort?: (value: string) => void;
  onKind?: (value: string) => void;
  onToggleFilters?: () => void;
  onMore?: () => void;
}

/**
 * The list's markup around its rows, from its model alone: the first frame renders it too
 * (first-frame/render-dom.ts), the same. The search, sort and filter it shows are RewardList's.
 */
export function ListView({
  m,
  children,
  noMatch,
  searchRef,
  listRef,
  onFocus,
  onQuery,
  onSort,
  onKind,
  onToggleFilters,
  onMore,
}: ViewProps) {
  if (m.empty !== null) return <p class="empty">{m.empty}</p>;
  const f = m.filters;
  return (
    <section aria-labelledby="rewards-title">
      <h2 id="rewards-title" class="visually-hidden">
        {m.heading}
      </h2>
      {f && (
        <div class="filters">
          {/* The search, and beside it what sorts and filters, folded: the first rewards come high on the screen. */}
          <div class="filter-bar">
            <label class="visually-hidden" for="reward-search">
              {f.search}
            </label>
            <SearchField f={f} searchRef={searchRef} onFocus={onFocus} onQuery={onQuery} />
            <button
              type="button"
              class="btn filter-toggle"
              aria-expanded={f.toggle.open}
              aria-controls="reward-filters"
              onClick={onToggleFilters}
            >
              {f.toggle.text}
            </button>
          </div>
          <div id="reward-filters" class="filter-row" hidden={!f.toggle.open}>
            <FilterSelect
              id="reward-sort"
              label={f.sort.label}
              value={f.sort.value}
              options={[
                { value: 'afford', text: f.sort.afford },
                { value: 'low', text: f.sort.low },
                { value: 'high', text: f.sort.high },
                { value: 'name', text: f.sort.name },
              ]}
              onFocus={onFocus}
              onChange={onSort}
            />
            {f.kind && (
              <FilterSelect
                id="reward-kind"
                label={f.kind.label}
                value={f.kind.value}
                options={[{ value: '', text: f.kind.all }, ...f.kind.options]}
                onFocus={onFocus}
                onChange={onKind}
              />
            )}
          </div>
          <p class="list-count small muted" role="status">
            {f.count}
          </p>
        </div>
      )}
      {noMatch || (
        <>
          <ul class="rewards" ref={listRef}>
            {children}
          </ul>
          {m.more !== null && (
            <button type="button" class="btn more" onClick={onMore}>
              {m.more}
            </button>
          )}
        </>
      )}
    </section>
  );
}

/** The search box, sized by an unseen copy of its placeholder: never narrower than its words ("10 Prämien du"). */
function SearchField({
  f,
  searchRef,
  onFocus,
  onQuery,
}: {
  f: NonNullable<ListModel['filters']>;
  searchRef?: Ref<HTMLInputElement> | undefined;
  onFocus?: (() => void) | undefined;
  onQuery?: ((value: string) => void) | undefined;
}) {
  return (
    <span class="search-box">
      <input
        id="reward-search"
        ref={searchRef}
        type="search"
        placeholder={f.placeholder}
        value={f.query}
        onFocus={onFocus}
        onInput={(e) => onQuery?.(e.currentTarget.value)}
      />
      <span class="search-sizer" aria-hidden="true">
        {f.placeholder}
      </span>
    </span>
  );
}

/** A sort or filter choice with its visible label. */
function FilterSelect({
  id,
  label,
  value,
  options,
  onFocus,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  options: ReadonlyArray<{ value: string; text: string }>;
  onFocus?: (() => void) | undefined;
  onChange?: ((value: string) => void) | undefined;
}) {
  return (
    <div class="select">
      <label for={id}>{label}</label>
      <select id={id} value={value} onFocus={onFocus} onChange={(e) => onChange?.(e.currentTarget.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.text}
          </option>
        ))}
      </select>
    </div>
  );
}
