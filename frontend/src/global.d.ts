// Globals injected by the Wails v2 runtime in the desktop window. In the
// browser they are absent; the transport checks for them at runtime.

export interface WailsRuntime {
  EventsOn?: (name: string, callback: (...data: unknown[]) => void) => unknown;
  EventsOff?: (name: string, ...additional: string[]) => void;
  EventsEmit?: (name: string, ...data: unknown[]) => void;
  ClipboardSetText?: (text: string) => Promise<boolean>;
  BrowserOpenURL?: (url: string) => void;
  WindowSetTitle?: (title: string) => void;
  WindowReload?: () => void;
}

export type WailsBoundMethod = (...args: unknown[]) => Promise<unknown>;

declare global {
  interface Window {
    // The desktop window binds app.DesktopGate only (app/desktopgate.go):
    // every call carries the token Session returns to this frame alone.
    go?: { app?: { DesktopGate?: { Session?: () => Promise<unknown>; Call?: WailsBoundMethod } } };
    runtime?: WailsRuntime;
  }
}
