// Package app is the facade both transports call.
//
// The App methods are what the desktop window calls through its
// DesktopGate and the browser through package web. It wires the runtime,
// the store and the app's packages and keeps only forwarding, conversions,
// the wire's error names (errors.go) and the one read-only guard, applied
// where methods are dispatched (calltable.go). Domain code has its own
// package, never here: app/config (settings, endpoints, presets),
// app/secrets (keys), app/datafolder (the database's folder), app/errmap
// (errors mapped to the window's), app/threads (threads as the window sees them),
// app/threadmodel (a thread's model), app/toolset (a turn's tools),
// app/answers (the answer vocabulary), app/rules (rules and the ledger),
// app/mcphost (the MCP servers' app side), app/links (juncture:// links),
// app/update, app/demo, app/events and app/web (the transports' halves).
// Events leave through an Emitter so the package is tested without a
// window.
package app

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/agent/tools"
	"github.com/juncture-app/juncture/app/config"
	"github.com/juncture-app/juncture/app/datafolder"
	"github.com/juncture-app/juncture/app/demo"
	"github.com/juncture-app/juncture/app/events"
	"github.com/juncture-app/juncture/app/mcphost"
	"github.com/juncture-app/juncture/app/secrets"
	"github.com/juncture-app/juncture/app/threadmodel"
	"github.com/juncture-app/juncture/app/threads"
	"github.com/juncture-app/juncture/app/toolset"
	"github.com/juncture-app/juncture/app/update"
	"github.com/juncture-app/juncture/store"
)

// Emitter sends a named event to the frontend (events.Emitter).
type Emitter = events.Emitter

// ThreadsEvent is the data of a "threads" event (events.ThreadsEvent).
type ThreadsEvent = events.ThreadsEvent

// Config configures a Service.
type Config struct {
	DataDir string // holds juncture.db
	Mode    string // "desktop" or "browser"
	Getenv  func(string) string
	Logger  *slog.Logger
	// DetectLocal probes Ollama / LM Studio when nothing is configured.
	DetectLocal bool
	// MCPAtWindow starts the configured MCP servers when the window's
	// page has loaded (Service.StartMCPServers), not while the window
	// starts: their processes then do not compete with it for the CPU.
	// A turn, a task resumed or an edit that comes first starts them.
	MCPAtWindow bool
	// SchemeRedirect offers the juncture:// redirect to MCP sign-ins
	// (mcphost.Start): only where the packages registered the scheme.
	SchemeRedirect bool
	// ReadOnlyCopy opens a copy of a damaged database for browsing.
	ReadOnlyCopy bool
	// MCPConfigPath is the MCP servers' configuration file (default
	// $XDG_CONFIG_HOME/juncture/mcp.json).
	MCPConfigPath string
	// Version is the app's version, told to MCP servers and compared
	// with the release feed's.
	Version string
	// UpdateKey is the release feed's ed25519 public key (base64); empty
	// turns the update check off (update.Prefs).
	UpdateKey string
	// UpdateExe is the binary an update replaces (tests); empty is this
	// process's own.
	UpdateExe string
	// Secrets stores the keys (tests); nil lets package secrets choose
	// (secrets.OpenChosen).
	Secrets SecretStore
}

// Service owns the app's parts and their lifetimes. Its methods are not
// bound to the frontend; App's are.
type Service struct {
	app *App
}

// App holds the bound methods. Every exported method is callable from the
// frontend (both transports).
type App struct {
	cfg      Config
	log      *slog.Logger
	db       *store.DB
	cp       *store.Checkpointer
	rt       *agent.Runtime
	conf     *config.Catalog // settings, endpoints, presets, local servers
	readOnly string          // path of the copy when browsing a damaged database

	emitMu  sync.RWMutex
	emitter Emitter
	flow    *events.Flow // the window's acknowledgements; set with the first emitter
	desktop Desktop

	startup startSignal // closed once StartWith has set the App up

	bg     sync.WaitGroup // background work (titles, event forwarding)
	stopBg context.CancelFunc
	bgCtx  context.Context

	// procs holds the commands this app's tools started; Shutdown ends
	// whatever is left, so no command outlives the app.
	procs *tools.Processes

	models  *threadmodel.Resolver // a thread's model client (cached), MCP sampling
	threads threads.Reader        // threads as the window lists and shows them

	// keys is where API keys live (package secrets); never the database.
	keys *secrets.Vault

	// mcp runs the configured MCP servers; mcpCfg is the configuration
	// file as last read.
	mcp    *mcp.Manager
	mcpCfg *mcp.ConfigFile
	// mcpStarted applies the file's servers once (Config.MCPAtWindow).
	mcpStarted sync.Once
	views      mcphost.Views // MCP App views opened for the window's frames

	upd *update.Prefs // the update choices and the release feed's last answer

	demo demo.Server // the offline demo model

	linkMu       sync.Mutex
	launchThread string // a juncture:// link's chat, until the window takes it (links.go)
}

// DatabasePath is where the database of a data dir lives.
func DatabasePath(dataDir string) string { return datafolder.DatabasePath(dataDir) }

// Start opens the store (recovering after a crash), loads settings and
// starts the runtime. A damaged or newer database is reported, never
// overwritten; with cfg.ReadOnlyCopy a damaged one opens as a read-only copy.
func Start(ctx context.Context, cfg Config) (*Service, error) {
	return StartWith(ctx, &App{}, cfg)
}

// StartWith is Start for an App value that already exists: the desktop
// window binds its methods before the window starts, and the store is only
// opened then (the bindings generator runs main up to wails.Run and must not
// touch the database).
func StartWith(ctx context.Context, a *App, cfg Config) (*Service, error) {
	if cfg.Getenv == nil {
		cfg.Getenv = os.Getenv
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	a.cfg, a.log = cfg, cfg.Logger
	db, readOnly, err := datafolder.Open(ctx, datafolder.Options{Dir: cfg.DataDir, MCPConfigPath: cfg.MCPConfigPath, ReadOnlyCopy: cfg.ReadOnlyCopy, Logger: a.log})
	if err != nil {
		return nil, err
	}
	a.db, a.readOnly = db, readOnly
	a.procs = tools.NewProcesses()
	a.upd = &update.Prefs{Rows: db, Version: cfg.Version, Key: cfg.UpdateKey, Exe: cfg.UpdateExe, Log: a.log}
	if err := a.openKeys(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("moving the keys out of the database: %w", err)
	}
	a.conf = config.New(config.Options{Rows: db, Keys: a.keys, Getenv: cfg.Getenv, Logger: a.log, Writable: a.readOnly == "",
		Local: localServers, OnDefaultChange: func() { a.emit("status", a.Status()) }})
	a.models = &threadmodel.Resolver{Threads: db, Conf: a.conf}
	if err := a.conf.LoadSettings(ctx); err != nil {
		if a.readOnly == "" {
			db.Close()
			return nil, fmt.Errorf("loading settings: %w", err)
		}
		// A read-only copy whose settings are what is damaged: it runs
		// with the defaults, so its chats can still be read.
		a.log.Warn("the read-only copy's settings cannot be read; it runs with the defaults", "err", err)
	}
	// A crash loses at most 250 ms of a streaming answer: the runtime hands
	// a snapshot over at least every 50 ms (agent.Options.CheckpointEvery)
	// and the checkpointer writes within 180 ms, leaving ~20 ms to commit.
	a.cp = db.NewCheckpointer(180 * time.Millisecond)
	a.bgCtx, a.stopBg = context.WithCancel(context.Background())
	a.rt = agent.New(agent.Options{
		Store:     a.cp.RuntimeStore(),
		Model:     a.models.Model,
		Titles:    db,
		Tools:     a.toolRegistry,
		Workspace: a.workspace,
		System:    systemPrompt,
		Logger:    a.log,
		ModelSeesImages: func() bool {
			st, _ := a.conf.Effective()
			return st.ModelAcceptsImages
		},
		LoopGuardSource: func() int {
			st, _ := a.conf.Effective()
			if st.LoopGuard <= 0 {
				return config.DefaultLoopGuard
			}
			return st.LoopGuard
		},
		ResumeTask: a.resumeTask,
	})
	a.threads = threads.Reader{Store: db, Runtime: a.rt}
	a.watchDiskFull()
	if err := a.startMCP(); err != nil {
		a.log.Warn("MCP servers are off", "err", err)
	}
	if !cfg.MCPAtWindow {
		a.startMCPServers()
	}
	if a.readOnly == "" {
		a.demo.Restore(ctx, a.conf, a.log)
		a.resumeTasks(ctx)
	}
	if cfg.DetectLocal {
		a.bg.Add(1)
		go func() {
			defer a.bg.Done()
			a.conf.Detect(a.bgCtx)
			if st, _ := a.conf.Effective(); st.BaseURL != "" {
				a.emit("status", a.Status())
			}
		}()
	}
	a.background(func() {
		events.LogRuns(a.bgCtx, a.rt.SubscribeWith("", broker.SubscribeOptions{Coalesce: 1, NoDeltas: true}), a.log)
	})
	a.startup.finish()
	return &Service{app: a}, nil
}

// startSignal is closed when StartWith has set its App up: the desktop
// gate's calls (which the page can make before) wait for it. The zero value
// is ready to use: main makes the App as a literal before the start.
type startSignal struct {
	once, closeOnce sync.Once
	ch              chan struct{}
}

func (s *startSignal) done() chan struct{} {
	s.once.Do(func() { s.ch = make(chan struct{}) })
	return s.ch
}

// finish closes the signal; a second start (a read-only copy after a
// refused one) changes nothing.
func (s *startSignal) finish() { s.closeOnce.Do(func() { close(s.done()) }) }

const systemPrompt = "You are Juncture, a helpful desktop assistant. Tools act on the person's workspace folder; risky ones ask the person first. Answer in Markdown."

// App returns the bound facade.
func (s *Service) App() *App { return s.app }

// SetEmitter routes every event of the runtime's broker to e (the
// desktop window). Browser mode subscribes to the broker itself.
func (s *Service) SetEmitter(e Emitter) {
	a := s.app
	a.emitMu.Lock()
	first := a.emitter == nil
	a.emitter = e
	if first {
		a.flow = events.NewFlow()
	}
	flow := a.flow
	a.emitMu.Unlock()
	if first {
		sub := a.rt.SubscribeWith("", broker.SubscribeOptions{Coalesce: 1})
		a.background(func() { events.Forward(a.bgCtx, sub, a.currentEmitter, flow) })
	}
}

// WindowTookEvents tells the forwarder the window took in what it was
// sent (its acknowledgement; events.Flow paces the stream by it).
func (s *Service) WindowTookEvents() {
	s.app.emitMu.RLock()
	f := s.app.flow
	s.app.emitMu.RUnlock()
	if f != nil {
		f.Took()
	}
}

// Runtime exposes the agent runtime (the AG-UI endpoint drives it directly).
func (s *Service) Runtime() *agent.Runtime { return s.app.rt }

// Shutdown stops running turns as Stop does, saves everything and closes
// the database.
func (s *Service) Shutdown(ctx context.Context) error {
	a := s.app
	err := a.rt.Shutdown(ctx)
	// MCP sessions end, then every process group: no server and no
	// command a tool started outlives the app.
	a.mcp.Close()
	a.procs.Close()
	a.demo.Close()
	a.stopBg()
	a.bg.Wait()
	if cerr := a.cp.Close(); cerr != nil && err == nil {
		err = cerr
	}
	if cerr := a.db.Close(); cerr != nil && err == nil {
		err = cerr
	}
	return err
}

// currentEmitter is the window's emitter as it is now.
func (a *App) currentEmitter() Emitter {
	a.emitMu.RLock()
	defer a.emitMu.RUnlock()
	return a.emitter
}

// background runs f on a goroutine Shutdown waits for.
func (a *App) background(f func()) {
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		f()
	}()
}

// emit publishes a facade event through the runtime's broker, in order
// with the runtime's own events, to every transport.
func (a *App) emit(name string, data any) {
	threadID := ""
	if t, ok := data.(ThreadsEvent); ok {
		threadID = t.ThreadID
	}
	a.rt.Publish(name, threadID, data)
}

// toolRegistry builds the tools for the next turn from the settings; a
// thread that chose its tools (Options.Tools) is offered only those.
func (a *App) toolRegistry(ctx context.Context, threadID string) *tools.Registry {
	st, _ := a.conf.Effective()
	ws, err := toolset.Workspace(st.Workspace)
	if err != nil {
		a.log.Warn("no workspace folder; file tools are off", "err", err)
		return nil
	}
	o, err := a.models.Options(ctx, threadID)
	if err != nil {
		a.log.Warn("reading the thread's tools; offering every tool", "thread", threadID, "err", err)
	}
	reg, err := toolset.For(ws, tools.BuiltinOptions{EnableWriteTools: st.EnableWriteTools, Processes: a.procs}, a.mcpTools(), o.Tools)
	if err != nil {
		a.log.Error("building the tool registry", "err", err)
		return nil
	}
	return reg
}

// workspace is the folder permission rules are matched in.
func (a *App) workspace() tools.Workspace {
	st, _ := a.conf.Effective()
	ws, _ := toolset.Workspace(st.Workspace)
	return ws
}
