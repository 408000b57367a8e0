import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { toJunctureError, useTransport } from './transport';
import type { SearchHit, SettingsView, Status, Thread } from './transport/contract';
import { useThread } from './hooks/useThread';
import { useThreadList } from './hooks/useThreadList';
import { useThreadActivity } from './hooks/useThreadActivity';
import { useAttention } from './hooks/useAttention';
import { useSidebarLayout } from './hooks/useSidebarLayout';
import { DraftKeyContext, carryTyped, draftKey, drafts } from './lib/drafts';
import { wrapTab } from './lib/focusCycle';
import { previewTheme } from './lib/theme';
import { SidebarToggle } from './features/sidebar/SidebarToggle';
import { ClientToolRunner } from './lib/clientTools';
import { downloadText } from './lib/download';
import { hitOfCall } from './features/activity/ledgerWords';
import { Sidebar, type SidebarHandle } from './features/sidebar/Sidebar';
import { ChatView } from './features/chat/ChatView';
import { PresetMenu } from './features/sidebar/PresetMenu';
import { ReadOnlyCopyContext } from './lib/readOnlyCopy';
import { endpointsChanged } from './hooks/useEndpoints';
import { showHitBranch } from './features/search/SearchResults';
import { Toasts, type ToastData } from './ui/Toast';
import { UpdatePrompt } from './features/updates/UpdatePrompt';
import { ShortcutsSheet, isShortcutsKey } from './features/shortcuts/ShortcutsSheet';
import type { SettingsFocus, SettingsTarget } from './lib/settingsTarget';
import { markStartup } from './lib/startupMarks';
import { announceWindowReady } from './lib/windowReady';
import './App.css';

const UNDO_MS = 10_000;

// The settings screen is not needed by an empty chat: its code is loaded
// the first time it opens, and it stays mounted after that.
const SettingsDialog = lazy(() => import('./features/settings/SettingsDialog').then((m) => ({ default: m.SettingsDialog })));
const ActivityView = lazy(() => import('./features/activity/ActivityView').then((m) => ({ default: m.ActivityView })));

let toastSeq = 0;

const OPEN_KEY = 'juncture.openThread';

/** The open chat is remembered for this tab, so a reload reopens it. */
export function rememberOpenThread(id: string | null): void {
  try {
    if (id) window.sessionStorage.setItem(OPEN_KEY, id);
    else window.sessionStorage.removeItem(OPEN_KEY);
  } catch {
    // storage disabled: a reload opens a new chat
  }
}

export function rememberedOpenThread(): string | null {
  try {
    return window.sessionStorage.getItem(OPEN_KEY);
  } catch {
    return null;
  }
}

export function App() {
  markStartup('render'); // the first render began (the start-up bench)
  const transport = useTransport();
  const [status, setStatus] = useState<Status | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settingsAt, setSettingsAt] = useState<'presets' | null>(null);
  const [settingsUsed, setSettingsUsed] = useState(false);
  const [settingsFocus, setSettingsFocus] = useState<SettingsFocus | null>(null);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  if (settingsOpen && !settingsUsed) setSettingsUsed(true); // mounted from the first open on
  const [activityOpen, setActivityOpen] = useState(false);
  const [toasts, setToasts] = useState<ToastData[]>([]);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [highlight, setHighlight] = useState<{ messageId: string; nonce: number } | null>(null);
  const [focusNonce, setFocusNonce] = useState(1);
  const [connection, setConnection] = useState<'connected' | 'disconnected'>('connected');
  const sidebar = useRef<SidebarHandle>(null);
  const sidebarToggle = useRef<HTMLButtonElement>(null);
  const appRef = useRef<HTMLDivElement>(null);
  const layout = useSidebarLayout({ toggleRef: sidebarToggle, sidebarRef: sidebar });
  const { closeOverlay } = layout;
  const deletes = useRef(new Map<string, () => void>());

  const list = useThreadList(transport);
  const activity = useThreadActivity(transport);
  useAttention(transport);
  const ctrl = useThread(transport, list.upsert);
  const { open, stop } = ctrl;

  // Reopen the chat that was open before a reload (nothing remembered: new chat).
  const restored = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (restored.current !== undefined) return;
    restored.current = rememberedOpenThread();
    if (restored.current) open(restored.current);
  }, [open]);
  useEffect(() => {
    if (restored.current !== undefined) rememberOpenThread(ctrl.threadId);
  }, [ctrl.threadId]);
  // The remembered chat is gone (deleted elsewhere): start a new one.
  useEffect(() => {
    if (ctrl.loadError?.code === 'not-found' && ctrl.threadId && ctrl.threadId === restored.current) open(null);
  }, [ctrl.loadError, ctrl.threadId, open]);

  // Client tools (copy_to_clipboard, open_url) for every thread.
  const runner = useMemo(() => new ClientToolRunner(transport), [transport]);
  useEffect(() => transport.subscribe('agui', ({ threadId, event }) => runner.observe(threadId, event)), [transport, runner]);

  const toast = useCallback((t: Omit<ToastData, 'id'>, ms = 6000) => {
    const id = ++toastSeq;
    setToasts((ts) => [...ts.slice(-2), { ...t, id, duration: ms }]); // Toasts dismisses it (paused on hover/focus)
    return id;
  }, []);
  const dismiss = useCallback((id: number) => setToasts((ts) => ts.filter((x) => x.id !== id)), []);
  const fail = useCallback((what: string, e: unknown) => toast({ text: `${what}: ${toJunctureError(e).message}`, tone: 'error' }), [toast]);

  const refreshStatus = useCallback(() => {
    transport
      .call('Status')
      .then((s) => {
        markStartup('status');
        setStatus(s);
      })
      .catch((e: unknown) => fail('Could not read Juncture’s status', e));
  }, [transport, fail]);

  useEffect(() => {
    markStartup('app'); // the first commit
    refreshStatus();
    transport
      .call('GetSettings')
      .then((v) => previewTheme(v.settings.theme))
      .catch(() => previewTheme('system'));
    // Go sends its status when it changes (a full disk, a detected endpoint).
    const offStatus = transport.subscribe('status', setStatus);
    const offConnection = transport.subscribe('connection', ({ state }) => {
      setConnection(state === 'disconnected' ? 'disconnected' : 'connected');
      if (state === 'reconnected') refreshStatus();
    });
    return () => {
      offStatus();
      offConnection();
    };
  }, [transport, refreshStatus]);

  // JUNCTURE_BENCH=1 only: the desktop bench reads a received-text counter
  // from the window title (lib/benchTitle.ts, loaded on demand).
  const bench = status?.bench === true;
  useEffect(() => {
    if (!bench) return;
    let stop: (() => void) | undefined;
    let gone = false;
    let stopSoak: (() => void) | undefined;
    void import('./lib/benchTitle').then((m) => {
      if (!gone) stop = m.startBenchTitle(transport);
    });
    // The soak's driver (lib/benchSoak.ts): a no-op unless scripts/bench-soak.sh runs.
    void import('./lib/benchSoak').then((m) => {
      if (!gone) stopSoak = m.startBenchSoak(transport);
    });
    return () => {
      gone = true;
      stop?.();
      stopSoak?.();
    };
  }, [bench, transport]);

  const newChat = useCallback(() => {
    closeOverlay();
    open(null);
    setHighlight(null);
    setFocusNonce((n) => n + 1);
  }, [open]);

  // New chat from a preset: the thread is made at once (with the preset's
  // instructions, endpoint, model and tools) and opened.
  const newChatFrom = useCallback(
    (presetId: string) => {
      closeOverlay();
      transport
        .call('NewThread', presetId)
        .then((t) => {
          list.upsert(t);
          open(t.id);
          setHighlight(null);
          setFocusNonce((n) => n + 1);
        })
        .catch((e: unknown) => fail('Could not start a chat from the preset', e));
    },
    [transport, list, open, closeOverlay, fail],
  );

  const openThread = useCallback(
    (id: string) => {
      closeOverlay();
      setHighlight(null);
      if (id !== ctrl.threadId) open(id);
      setFocusNonce((n) => n + 1);
    },
    [open, ctrl.threadId, closeOverlay],
  );

  // The desktop starts its MCP servers once this first screen was painted.
  useEffect(() => announceWindowReady(), []);

  // A juncture:// link (a launch's argument, a second launch, an update's
  // restart) names a chat: taken once when the window loads, and again
  // each time the desktop says another arrived ("open-thread"). The
  // composer takes keys before the launch's chat is known (on the new-chat
  // screen): what was typed there meanwhile goes along into that chat.
  const openRef = useRef(openThread);
  openRef.current = openThread;
  const shownRef = useRef(ctrl.threadId);
  shownRef.current = ctrl.threadId;
  useEffect(() => {
    const newChat = draftKey(null);
    let atLoad: string | null = drafts.get(newChat);
    const take = () => {
      const before = atLoad;
      atLoad = null; // only the load's own link carries what was typed
      transport.call('TakeLaunchThread').then(
        (id) => {
          markStartup('launch');
          if (!id) return;
          if (before !== null && shownRef.current === null) carryTyped(newChat, before, draftKey(id));
          openRef.current(id);
        },
        () => {},
      );
    };
    take();
    const off = window.runtime?.EventsOn?.('open-thread', take);
    return () => {
      if (typeof off === 'function') off();
    };
  }, [transport]);

  const openHit = useCallback(
    (hit: SearchHit) => {
      closeOverlay();
      // The hit may be on another version of the thread: that one is shown (if it can be now).
      void showHitBranch(transport, hit).then((err) => {
        if (err) fail('Could not show the version with this message', err);
        if (hit.threadId !== ctrl.threadId) open(hit.threadId);
        setHighlight({ messageId: hit.messageId, nonce: Date.now() });
      });
    },
    [transport, fail, open, ctrl.threadId, closeOverlay],
  );

  useEffect(() => {
    if (!highlight) return;
    const t = setTimeout(() => setHighlight(null), 3000);
    return () => clearTimeout(t);
  }, [highlight]);

  const rename = useCallback(
    (id: string, title: string) => {
      list.patch(id, { title });
      transport.call('RenameThread', id, title).catch((e: unknown) => {
        fail('Could not rename', e);
        list.refresh();
      });
    },
    [transport, list, fail],
  );

  const pin = useCallback(
    (id: string, pinned: boolean) => {
      list.patch(id, { pinned });
      transport.call('PinThread', id, pinned).catch((e: unknown) => {
        fail(pinned ? 'Could not pin' : 'Could not unpin', e);
        list.refresh();
      });
    },
    [transport, list, fail],
  );

  const exportThread = useCallback(
    (id: string, format: 'markdown' | 'json') => {
      // The desktop window saves through a native dialog (a web download
      // does nothing in a webview); the browser downloads the file.
      const viaDownload = () =>
        transport
          .call('ExportThread', id, format)
          .then((r) => downloadText(r.filename, r.content, format === 'json' ? 'application/json' : 'text/markdown'));
      const done = transport.kind === 'desktop' ? transport.call('SaveExport', id, format).then(() => undefined) : viaDownload();
      done.catch((e: unknown) => fail('Could not export', e));
    },
    [transport, fail],
  );

  // Delete with Undo: hidden at once, DeleteThread when its toast goes (~10 s, longer on hover) unless undone.
  const remove = useCallback(
    (t: Thread) => {
      setHidden((h) => new Set(h).add(t.id));
      if (ctrl.threadId === t.id) open(null);
      const unhide = () =>
        setHidden((h) => {
          const c = new Set(h);
          c.delete(t.id);
          return c;
        });
      const commit = () => {
        if (!deletes.current.delete(t.id)) return; // undone, or already flushed
        transport
          .call('DeleteThread', t.id)
          .then(() => {
            drafts.clear(draftKey(t.id));
            list.refresh();
          })
          .catch((e: unknown) => {
            unhide();
            fail('Could not delete', e);
          });
      };
      deletes.current.set(t.id, commit);
      toast(
        {
          text: `Deleted “${t.title || 'New chat'}”.`,
          onClose: commit,
          action: {
            label: 'Undo',
            run: () => {
              deletes.current.delete(t.id);
              unhide();
            },
          },
        },
        UNDO_MS,
      );
    },
    [transport, list, ctrl.threadId, open, toast, fail],
  );

  // Deletes still waiting for their Undo window go through if the page closes.
  useEffect(() => {
    const pending = deletes.current;
    const flush = () => {
      for (const id of pending.keys()) {
        void transport.call('DeleteThread', id).catch(() => undefined);
      }
      pending.clear();
    };
    window.addEventListener('pagehide', flush);
    return () => window.removeEventListener('pagehide', flush);
  }, [transport]);

  // Tab wraps from the composer back to the top instead of stopping on <body>.
  useEffect(() => {
    const onTab = (e: KeyboardEvent) => wrapTab(e, appRef.current);
    window.addEventListener('keydown', onTab);
    return () => window.removeEventListener('keydown', onTab);
  }, []);

  // Keyboard (Ctrl/Cmd+B, the sidebar, is in useSidebarLayout): Ctrl/Cmd+N new chat, Ctrl/Cmd+K search, Ctrl/Cmd+, settings, Ctrl/Cmd+Shift+L activity, Esc stop.
  const busy = ctrl.view.status === 'running' || ctrl.view.status === 'awaiting-decisions';
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isShortcutsKey(e)) {
        e.preventDefault();
        setShortcutsOpen(true);
        return;
      }
      const mod = e.ctrlKey || e.metaKey;
      if (mod && !e.shiftKey && !e.altKey) {
        const k = e.key.toLowerCase();
        if (k === 'n') {
          e.preventDefault();
          newChat();
          return;
        }
        if (k === 'k') {
          e.preventDefault();
          sidebar.current?.focusSearch();
          return;
        }
        if (e.key === ',') {
          e.preventDefault();
          setSettingsOpen(true);
          return;
        }
      }
      if (mod && e.shiftKey && !e.altKey && e.key.toLowerCase() === 'l') {
        e.preventDefault(); // Ctrl/Cmd+Shift+L: Activity
        setActivityOpen(true);
        return;
      }
      // Esc stops the run from the composer, or when focus rests on nothing
      // that is open or holds input (the page body, the message list, a plain
      // button). In a text field, a menu, a dialog or a decision card, Esc
      // belongs to that thing (it closes it): it never cancels the turn there.
      // An open <dialog> (Juncture's are modal: the rest of the window is
      // inert) owns Esc even with the focus on the body behind it, as after
      // a click on a larger MCP App view's label.
      if (
        e.key === 'Escape' && !e.defaultPrevented && busy && !settingsOpen && !activityOpen &&
        !document.querySelector('dialog[open]') &&
        !(e.target instanceof Element && !e.target.closest('.composer') &&
          e.target.closest('input, textarea, select, [contenteditable="true"], [role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"], .interrupts, .ctools'))
      ) {
        e.preventDefault();
        void stop().catch((err: unknown) => fail('Could not stop', err));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [newChat, busy, settingsOpen, activityOpen, stop, fail]);

  const onSaved = useCallback(
    (v: SettingsView) => {
      previewTheme(v.settings.theme);
      refreshStatus();
      endpointsChanged(); // the default endpoint is what General edits
    },
    [refreshStatus],
  );

  // Stable, so the memoised sidebar skips the frames of a streaming answer.
  const openSettings = useCallback(() => setSettingsOpen(true), []);
  // Stable: the chat view renders on every frame of a streaming answer, and
  // a new function here rendered every message row and the composer again.
  const openSettingsAt = useCallback((at?: SettingsTarget) => {
    setSettingsFocus(at ? { field: at, nonce: Date.now() } : null);
    setSettingsOpen(true);
  }, []);
  const openActivity = useCallback(() => setActivityOpen(true), []);
  const openShortcuts = useCallback(() => setShortcutsOpen(true), []);
  const closeShortcuts = useCallback(() => setShortcutsOpen(false), []);
  // Stable, as the ones above: the memoised toggle button skips the frames of a streaming answer.
  const { toggle: toggleLayout } = layout;
  const toggleSidebar = useCallback(() => toggleLayout(), [toggleLayout]);
  const presetMenu = useMemo(
    () => (
      <PresetMenu
        transport={transport}
        onPick={newChatFrom}
        onManage={() => {
          setSettingsAt('presets');
          setSettingsOpen(true);
        }}
      />
    ),
    [transport, newChatFrom],
  );

  const active = ctrl.threadId;
  const title = (active && list.threads.find((t) => t.id === active)?.title) || ctrl.state.thread?.title || '';

  useEffect(() => {
    const prefix = document.title.match(/^\(\d+\) Approval needed — /)?.[0] ?? '';
    document.title = `${prefix}${title ? `${title} — ` : ''}Juncture`;
  }, [title]);

  return (
    <ReadOnlyCopyContext.Provider value={!!status?.readOnly}>
      <div ref={appRef} className={`app${layout.narrow ? ' is-narrow' : ''}${layout.mode === 'docked' ? '' : ' sidebar-undocked'}`}>
        <SidebarToggle ref={sidebarToggle} shown={layout.shown} onToggle={toggleSidebar} />
        <Sidebar
          ref={sidebar}
          mode={layout.mode}
          transport={transport}
          threads={list.threads}
          hiddenIds={hidden}
          activeId={active}
          activity={activity}
          listedAt={list.listedAt}
          hasMore={list.hasMore}
          loading={list.loading}
          listError={list.error ? `Could not load conversations: ${list.error.message}` : null}
          connection={connection}
          onNew={newChat}
          onOpen={openThread}
          onOpenHit={openHit}
          // A read-only copy of damaged data: its chats are read and exported, not changed.
          onRename={status?.readOnly ? undefined : rename}
          onPin={status?.readOnly ? undefined : pin}
          onExport={exportThread}
          onDelete={status?.readOnly ? undefined : remove}
          onLoadMore={list.loadMore}
          onSettings={openSettings}
          onActivity={openActivity}
          onShortcuts={openShortcuts}
          newChatExtra={status?.readOnly ? undefined : presetMenu}
        />
        {layout.mode === 'overlay' && <div className="sidebar-scrim" aria-hidden="true" onClick={() => closeOverlay()} />}
        <div className="app-main" inert={layout.mode === 'overlay'}>
          <UpdatePrompt threadId={active} />
          <DraftKeyContext.Provider value={draftKey(ctrl.threadId)}>
            <ChatView
              ctrl={ctrl}
              title={title}
              status={status}
              runner={runner}
              highlight={highlight}
              focusNonce={focusNonce}
              onOpenSettings={openSettingsAt}
              onActionError={fail}
            />
          </DraftKeyContext.Provider>
        </div>
        {settingsUsed && (
          <Suspense
            fallback={
              <p className="lazy-loading" role="status">
                Loading settings…
              </p>
            }
          >
            <SettingsDialog
              open={settingsOpen}
              transport={transport}
              status={status}
              focusField={settingsFocus}
              onClose={() => {
                setSettingsOpen(false);
                setSettingsFocus(null);
                setSettingsAt(null);
              }}
              onSaved={onSaved}
              openAt={settingsAt}
            />
          </Suspense>
        )}
        <ShortcutsSheet open={shortcutsOpen} onClose={closeShortcuts} />
        {activityOpen && (
          <Suspense fallback={null}>
            <ActivityView
              open
              transport={transport}
              threads={list.threads}
              readOnly={!!status?.readOnly}
              onClose={() => setActivityOpen(false)}
              onOpenCall={(threadId, callId) => {
                void hitOfCall(transport, threadId, callId).then((hit) => {
                  if (!hit) return fail('Could not open the chat', new Error('the chat is gone (deleted)'));
                  setActivityOpen(false);
                  openHit(hit);
                });
              }}
            />
          </Suspense>
        )}
        <Toasts toasts={toasts} onDismiss={dismiss} />
      </div>
    </ReadOnlyCopyContext.Provider>
  );
}
