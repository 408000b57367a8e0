import type { ReactNode } from 'react';

export interface SetFieldProps {
  /** The control's id; its help and error are `${fid}-help` and `${fid}-err`. */
  fid: string;
  label: string;
  /** Next to the label (where a value comes from). */
  badge?: ReactNode;
  help?: ReactNode;
  error?: string;
  /** The control, given what describes it (the error first, then the help). */
  children: (describedBy: string | undefined) => ReactNode;
}

/** One labelled settings field with its help and error, as every settings form lays them out. */
export function SetField({ fid, label, badge, help, error, children }: SetFieldProps) {
  const describedBy = [error ? `${fid}-err` : '', help ? `${fid}-help` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`set-field${error ? ' has-error' : ''}`}>
      <div className="set-label-row">
        <label htmlFor={fid}>{label}</label>
        {badge}
      </div>
      {children(describedBy)}
      {help && (
        <p className="set-help" id={`${fid}-help`}>
          {help}
        </p>
      )}
      {error && (
        <p className="set-error" id={`${fid}-err`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
