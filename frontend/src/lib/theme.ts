import type { Theme } from '../transport/contract';

/** Applies a theme to the page now ("system" follows the OS): App after loading or saving settings, and Settings while a theme is chosen. */
export function previewTheme(theme: Theme): void {
  const root = document.documentElement;
  if (theme === 'system') delete root.dataset.theme;
  else root.dataset.theme = theme;
}
