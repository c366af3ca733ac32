/**
 * Two or more ways to show one thing (Text / Form, Rendered / Source, one list as each host writes
 * it): a row of tabs, one selected. The one switch of its kind in the window.
 */
export function ViewTabs<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  /** What the tabs choose between, for assistive technology. */
  label: string;
  value: T;
  options: readonly { id: T; label: string }[];
  onChange: (id: T) => void;
}) {
  return (
    <div role="tablist" aria-label={label} className="view-tabs">
      {options.map((o) => (
        <button
          key={o.id}
          type="button"
          role="tab"
          aria-selected={value === o.id}
          onClick={() => onChange(o.id)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
