// Command juncture is a desktop AI assistant that asks before it acts.
//
//	juncture                       open the desktop window
//	juncture juncture://thread/ID  open the desktop window on that chat (the URL scheme the packages register)
//	juncture serve [--addr A]      browser mode: no window, no GTK; prints the address to open
//	juncture --version             version, commit and build date (stamped at link time)
//	juncture ledger verify|export|clear   the decision ledger (main_ledger.go)
//
// Wails parses os.Args with its own flag sets, so the subcommands are
// recognised here by hand, before wails.Run.
package main

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/adrg/xdg"
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/options/mac"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/agent/sandbox"
	"github.com/juncture-app/juncture/app"
	"github.com/juncture-app/juncture/app/links"
	"github.com/juncture-app/juncture/app/update"
	"github.com/juncture-app/juncture/app/web"
	"github.com/juncture-app/juncture/frontend"
	"github.com/juncture-app/juncture/internal/benchprobe"
	"github.com/juncture-app/juncture/internal/buildinfo"
	"github.com/juncture-app/juncture/internal/framegate"
	"github.com/juncture-app/juncture/internal/webkitgc"
	"github.com/juncture-app/juncture/store"
)

// appIcon is the Linux window icon: appicon.png scaled to 256 px by
// `build/pack icons` (its 256x256 output). GTK keeps the icon decoded for
// the window's life and hands it to the window manager as 32-bit pixels;
// the 1024 px, 16-bit source cost ~6 MiB of the app's idle memory for an
// icon no window manager shows above 256 px.
//
//go:embed build/windowicon.png
var appIcon []byte

func main() {
	attach.MaybeRunExtractor() // a PDF or image parse in a budgeted child of ours (agent/attach)
	sandbox.MaybeRunChild()    // a confined command or MCP server, started by a child of ours (agent/sandbox)
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	slog.SetDefault(logger)
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "serve":
			if err := serve(os.Args[2:], logger); err != nil {
				fmt.Fprintln(os.Stderr, "juncture:", err)
				os.Exit(1)
			}
			return
		case "ledger":
			runLedger(os.Args[2:])
			return
		case "version", "--version", "-version":
			fmt.Println(buildinfo.String())
			return
		case "help", "-h", "--help":
			fmt.Println("usage: juncture            open the desktop window\n       juncture serve [--addr 127.0.0.1:8765]   browser mode\n       juncture ledger verify|export [--format jsonl|csv]|clear\n       juncture --version   version, commit and build date")
			return
		}
	}
	if err := desktop(logger); err != nil {
		fmt.Fprintln(os.Stderr, "juncture:", err)
		os.Exit(1)
	}
}

func dataDir() string { return filepath.Join(xdg.DataHome, "juncture") }

// serve runs browser mode until SIGINT/SIGTERM.
func serve(args []string, logger *slog.Logger) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8765", "address to listen on (loopback only)")
	readOnly := fs.Bool("read-only-copy", false, "if the database is damaged, browse a read-only copy of it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %w", *addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--addr %q: browser mode only listens on loopback addresses (127.0.0.1, ::1, localhost)", *addr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	svc, err := app.Start(ctx, app.Config{DataDir: dataDir(), Mode: "browser", Version: buildinfo.Version, UpdateKey: buildinfo.UpdateKey, Logger: logger, DetectLocal: true, ReadOnlyCopy: *readOnly})
	if err != nil {
		return explainStartError(err)
	}
	token := os.Getenv("JUNCTURE_TOKEN")
	if token == "" {
		token = web.NewToken()
	} else if err := web.CheckToken(token); err != nil {
		// The page would drop it from its address: refuse it now, not
		// with a page that says its token was refused.
		_ = svc.Shutdown(context.Background())
		return fmt.Errorf("JUNCTURE_TOKEN: %w", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		_ = svc.Shutdown(context.Background())
		return fmt.Errorf("listening on %s: %w", *addr, err)
	}
	srv := web.NewServer(svc, frontend.Dist(), token).HTTPServer(web.DefaultHTTPLimits)
	fmt.Printf("Juncture is running. Open %s\n", web.Link(ln.Addr().String(), token))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(web.LimitListener(ln, web.DefaultHTTPLimits.MaxConns)) }()
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	serr := svc.Shutdown(shutdownCtx) // stops runs first: their streams end cleanly
	_ = srv.Shutdown(shutdownCtx)
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return serr
}

func explainStartError(err error) error {
	var newer *store.NewerSchemaError
	var corrupt *store.CorruptError
	switch {
	case errors.Is(err, store.ErrInUse):
		return fmt.Errorf("%w\nOne Juncture at a time per data folder: use the one that is running (its window, or the address `juncture serve` printed), or close it first", err)
	case errors.As(err, &newer):
		return fmt.Errorf("%w\nYour history was written by a newer Juncture. It was not changed; install the newer version to open it", err)
	case errors.As(err, &corrupt):
		return fmt.Errorf("%w\nThe file was kept as it is. Run `juncture serve --read-only-copy` to browse a read-only copy", err)
	}
	return err
}

// instanceID names the single-instance lock after the data folder: two
// windows on two folders may run side by side, never two on one.
func instanceID(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	sum := sha256.Sum256([]byte(filepath.Clean(dir)))
	return "juncture_" + hex.EncodeToString(sum[:8])
}

// windowCtx holds the window's Wails context once it exists, for the
// second-instance callback (another goroutine).
type windowCtx struct {
	mu      sync.Mutex
	ctx     context.Context
	svc     *app.Service
	pending string // a link's chat that came before the service started
	ready   bool   // the window's first screen was painted: the MCP servers may start
	// quitting skips the close question: the person already said so, or an
	// update restarts into the new version.
	quitting atomic.Bool
}

func (w *windowCtx) set(ctx context.Context) {
	w.mu.Lock()
	w.ctx = ctx
	w.mu.Unlock()
}

// front brings the window to the front (a second launch asked for it).
func (w *windowCtx) front() {
	w.mu.Lock()
	ctx := w.ctx
	w.mu.Unlock()
	if ctx == nil {
		return // still starting: it will show by itself
	}
	runtime.WindowUnminimise(ctx)
	runtime.Show(ctx)
}

// openThread keeps the chat a juncture:// link named for the window and
// pings it (the "open-thread" event); the window takes it with
// TakeLaunchThread, on that event or when it first loads, so a link that
// arrives before the page listens is not lost.
func (w *windowCtx) openThread(id string) {
	w.mu.Lock()
	ctx, svc := w.ctx, w.svc
	if svc == nil {
		w.pending = id
	}
	w.mu.Unlock()
	if svc != nil {
		svc.SetLaunchThread(id)
	}
	if ctx != nil {
		runtime.EventsEmit(ctx, "open-thread", id)
	}
}

// signInLink hands an MCP sign-in's juncture:// answer to the sign-in
// waiting for it. Before the service exists none waits: it is dropped.
// A refused link changes nothing (the service logs it, never its code).
func (w *windowCtx) signInLink(q url.Values) {
	w.mu.Lock()
	svc := w.svc
	w.mu.Unlock()
	if svc != nil {
		_ = svc.SignInLink(q)
	}
}

// started hands the service the link that came before it existed.
func (w *windowCtx) started(svc *app.Service, launchThread string) {
	w.mu.Lock()
	w.svc = svc
	if w.pending != "" {
		launchThread, w.pending = w.pending, ""
	}
	ready := w.ready
	w.mu.Unlock()
	svc.SetLaunchThread(launchThread)
	if ready {
		svc.StartMCPServers()
	}
}

// pageReadyEvent is sent by the page once its first screen was painted
// (frontend/src/lib/windowReady.ts); pageReadyLatest is how long after
// the DOM was ready the servers start if no page says so (a page that
// failed to run).
const (
	pageReadyEvent  = "window-ready"
	pageReadyLatest = 10 * time.Second
)

// eventsTakenEvent is the page's acknowledgement of the stream
// (frontend/src/transport/wails.ts): it took in and rendered what it was
// sent, and the forwarder may send the next batch (app/events.Flow).
const eventsTakenEvent = "events-taken"

// pageReady: the window's first screen was painted. The MCP servers
// (app.Config.MCPAtWindow) start now, or when the service does if it
// comes later: five servers' processes starting beside WebKit's delayed
// the composer's first key by about 1.5 s on 2 cores (issue 26). A turn
// that comes first starts them itself. Later calls change nothing.
func (w *windowCtx) pageReady() {
	w.mu.Lock()
	w.ready = true
	svc := w.svc
	w.mu.Unlock()
	if svc != nil {
		svc.StartMCPServers()
	}
}

// closeQuestion is asked once when the window closes while a turn runs
// or a decision waits; quitting then stops the turns as Stop does.
const closeQuestion = "A command is still running — quit anyway?"

// beforeClose decides whether the window may close (prevent = false).
func (w *windowCtx) beforeClose(ctx context.Context, svc *app.Service) (prevent bool) {
	if svc == nil || w.quitting.Load() {
		return false
	}
	bctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if busy, err := svc.Busy(bctx); err != nil || !busy {
		return false
	}
	answer, err := runtime.MessageDialog(ctx, runtime.MessageDialogOptions{
		Type: runtime.QuestionDialog, Title: "Quit Juncture?", Message: closeQuestion,
	})
	if err != nil || answer == "Yes" {
		w.quitting.Store(true)
		return false
	}
	return true
}

// wailsEmitter sends events through the Wails runtime.
type wailsEmitter struct{ ctx context.Context }

func (e wailsEmitter) Emit(name string, data any) { runtime.EventsEmit(e.ctx, name, data) }

// wailsDesktop gives the facade native dialogs and notifications.
type wailsDesktop struct {
	ctx      context.Context
	win      *windowCtx
	notifyOK bool
}

// Restart starts the updated binary on the open chat and quits; the new
// process waits for this one to exit (update.WaitForPredecessor) before
// it takes the data folder and the single-instance lock.
func (d *wailsDesktop) Restart(exe, openURL string) error {
	if err := update.RestartCommand(exe, openURL).Start(); err != nil {
		return err
	}
	d.win.quitting.Store(true)
	go runtime.Quit(d.ctx)
	return nil
}

func (d *wailsDesktop) SaveFile(name string) (string, error) {
	return runtime.SaveFileDialog(d.ctx, runtime.SaveDialogOptions{
		Title: "Export conversation", DefaultFilename: name, CanCreateDirectories: true,
	})
}

func (d *wailsDesktop) Notify(title, body string) error {
	if !d.notifyOK {
		if err := runtime.InitializeNotifications(d.ctx); err != nil {
			return err
		}
		d.notifyOK = true
	}
	return runtime.SendNotification(d.ctx, runtime.NotificationOptions{ID: "juncture-attention", Title: title, Body: body})
}

// desktop opens the window. The store opens in OnStartup, not before
// wails.Run: the bindings generator runs main up to that call.
func desktop(logger *slog.Logger) error {
	startupMark(logger, "main")
	// After an update, the old process is still quitting: wait for it.
	update.WaitForPredecessor(20 * time.Second)
	launchThread, _ := links.OpenURLArg(os.Args[1:])
	// The web process's JavaScript heap collected as on a machine with
	// less memory, or the page's garbage piles up by ~100 MiB between full
	// collections on 16 GB and more (internal/webkitgc; Linux only). Set
	// before wails.Run: the web process inherits this environment.
	if err := webkitgc.Configure(logger); err != nil {
		logger.Warn("webkitgc: the web process keeps JavaScriptCore's defaults", "err", err)
	}
	// And it gives back what a day of turns gathers (compiled code, caches,
	// freed blocks) when its footprint passes a bound, instead of at half of
	// the machine's RAM or of 3 GB (internal/webkitgc; WebKitGTK only). Before
	// wails.Run: the setting goes into the web context Wails makes. It sets
	// WebKit up on this thread and locks this goroutine, which runs
	// wails.Run, to it: GTK and the view must be on that thread too.
	if err := webkitgc.ConfigurePressure(logger); err != nil {
		logger.Warn("webkitgc: the web process keeps WebKit's memory-pressure defaults", "err", err)
	}
	a := &app.App{}
	var svc *app.Service
	win := &windowCtx{}
	// Wails' own messages (quit, open a URL, the clipboard…) only from the
	// window's page, never from a view's frame (internal/framegate).
	gate, err := framegate.New(logger)
	if err != nil {
		return err
	}
	assets := frontend.Dist() // stored gzipped, served inflated: WebKitGTK's custom scheme is given plain bytes
	gated, err := gate.Middleware(assets)
	if err != nil {
		return err
	}
	startupMark(logger, "wails")
	return wails.Run(&options.App{
		// A second launch on the same data folder brings this window to the
		// front and exits; the store's lock (store.ErrInUse) still refuses
		// a second opener Wails cannot reach (`juncture serve`).
		SingleInstanceLock: &options.SingleInstanceLock{
			UniqueId: instanceID(dataDir()),
			OnSecondInstanceLaunch: func(d options.SecondInstanceData) {
				win.front()
				if id, ok := links.OpenURLArg(d.Args); ok {
					win.openThread(id)
				}
				if q, ok := links.SignInLinkArg(d.Args); ok {
					win.signInLink(q)
				}
			},
		},
		Title:            "Juncture",
		Width:            1100,
		Height:           760,
		MinWidth:         720,
		MinHeight:        480,
		AssetServer:      &assetserver.Options{Assets: assets, Handler: app.AppViewHandler(a), Middleware: gated},
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 249, A: 255},
		Bind:             append(app.DesktopBindings(a), benchSoakBindings(logger)...), // a token gate, not *App: WebKit lets every frame (a view's too) post to the bindings; the soak's counter under JUNCTURE_BENCH only
		// GPU policy Never, as Wails picks when no Linux options are given:
		// the zero value (OnDemand) lets WebKit set up accelerated
		// compositing, which cost ~110 MiB more in WebKitWebProcess at idle
		// (scripts/bench-desktop.sh) for a page that does not need it.
		// macOS hands links to a running app as an event, not arguments.
		Mac: &mac.Options{OnUrlOpen: func(u string) {
			if id, ok := links.ParseOpenURL(u); ok {
				win.openThread(id)
			}
			if q, ok := links.ParseSignInURL(u); ok {
				win.signInLink(q)
			}
		}},
		Linux: &linux.Options{Icon: appIcon, ProgramName: "juncture", WebviewGpuPolicy: linux.WebviewGpuPolicyNever},
		OnStartup: func(ctx context.Context) {
			startupMark(logger, "onstartup")
			runtime.EventsOn(ctx, pageReadyEvent, func(...any) { win.pageReady() })
			gate.Install()
			webkitgc.ReportPressure(logger)
			win.set(ctx)
			cfg := app.Config{DataDir: dataDir(), Mode: "desktop", Version: buildinfo.Version, UpdateKey: buildinfo.UpdateKey, Logger: logger, DetectLocal: true,
				SchemeRedirect: links.SchemeRegistered(), MCPAtWindow: true}
			s, err := app.StartWith(ctx, a, cfg)
			var corrupt *store.CorruptError
			if errors.As(err, &corrupt) {
				answer, _ := runtime.MessageDialog(ctx, runtime.MessageDialogOptions{
					Type: runtime.QuestionDialog, Title: "Juncture's history is damaged",
					Message: err.Error() + "\n\nThe file was kept as it is. Open a read-only copy to browse it?",
				})
				if answer == "Yes" {
					cfg.ReadOnlyCopy = true
					s, err = app.StartWith(ctx, a, cfg)
				}
			}
			if err != nil {
				_, _ = runtime.MessageDialog(ctx, runtime.MessageDialogOptions{Type: runtime.ErrorDialog, Title: "Juncture cannot start", Message: explainStartError(err).Error()})
				logger.Error("start failed", "err", err)
				runtime.Quit(ctx)
				return
			}
			svc = s
			var em app.Emitter = wailsEmitter{ctx}
			if os.Getenv("JUNCTURE_BENCH") == "1" {
				benchprobe.Enable()
				em = benchEmitter{Emitter: em, log: logger}
			}
			svc.SetEmitter(em)
			runtime.EventsOn(ctx, eventsTakenEvent, func(...any) { s.WindowTookEvents() })
			svc.SetDesktop(&wailsDesktop{ctx: ctx, win: win})
			win.started(svc, launchThread)
			startupMark(logger, "started")
			logger.Info("desktop window ready", "data", dataDir())
		},
		OnDomReady: func(context.Context) {
			startupMark(logger, "domready")
			time.AfterFunc(pageReadyLatest, win.pageReady)
		},
		OnBeforeClose: func(ctx context.Context) bool { return win.beforeClose(ctx, svc) },
		OnShutdown: func(ctx context.Context) {
			if svc == nil {
				return
			}
			sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := svc.Shutdown(sctx); err != nil {
				logger.Error("shutdown", "err", err)
			}
		},
	})
}
