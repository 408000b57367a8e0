import { memo, type ReactNode } from 'react';

/**
 * A line said at once to a screen reader (role="alert") while text is set
 * (an error, a refusal); nothing while it is empty.
 */
export const AlertLine = memo(function AlertLine({ text, className }: { text: ReactNode; className: string }) {
  return text ? (
    <p className={className} role="alert">
      {text}
    </p>
  ) : null;
});
