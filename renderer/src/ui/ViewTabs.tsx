/**
 * Two or more ways to show one thing, or the sections of one view (Text / Form, Rendered / Source,
 * one list as each host writes it, the inspector's sections): a row of tabs, one selected. The
 * one switch of its kind in the window.
 */
export function ViewTabs<T extends string>({
  label,
  value,
  options,
  onChange,
  className,
}: {
  /** What the tabs choose between, for assistive technology. */
  label: string;
  value: T;
  options: readonly { id: T; label: string }[];
  onChange: (id: T) => void;
  /** Another class beside `view-tabs`, for a row laid out otherwise. */
  className?: string;
}) {
  return (
    <div
      role="tablist"
      aria-label={label}
      className={className ? `view-tabs ${className}` : 'view-tabs'}
    >
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
