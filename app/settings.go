package app

import (
	"fmt"

	"github.com/juncture-app/juncture/app/config"
)

// The person's configuration lives in package config; these are the
// bound methods that forward to it.

// Settings are the person's choices (config.Settings).
type Settings = config.Settings

// Endpoint is one OpenAI-compatible server (config.Endpoint).
type Endpoint = config.Endpoint

// ModelPrice is what one model costs (config.ModelPrice).
type ModelPrice = config.ModelPrice

// Preset is a starting point for new chats (config.Preset).
type Preset = config.Preset

// Sources of a setting's value.
const (
	SourceEnvironment = config.SourceEnvironment
	SourceSaved       = config.SourceSaved
	SourceDefault     = config.SourceDefault
	SourceDetected    = config.SourceDetected
)

// KeyUnavailable is the KeyState of a saved key the key storage could not read.
const KeyUnavailable = config.KeyUnavailable

// DefaultPresetID is the preset NewThread("") starts from.
const DefaultPresetID = config.DefaultPresetID

// localServers are the servers probed on this machine (tests point them
// at fakes).
var localServers = config.LocalProviders()

// SettingsView is what GetSettings returns (config.SettingsView).
type SettingsView = config.SettingsView

// GetSettings returns the effective settings and where each came from.
func (a *App) GetSettings() SettingsView { return a.conf.View(a.keys.Storage()) }

// SaveSettings validates and saves settings all at once (nothing is saved
// when any field is invalid). A masked API key keeps the stored key.
func (a *App) SaveSettings(st Settings) (SettingsView, error) {
	// Refused before anything is written: its key would otherwise reach
	// the vault, which a read-only copy shares with the app of the
	// damaged database, before the database refuses the rows.
	if err := a.writable("SaveSettings"); err != nil {
		return SettingsView{}, err
	}
	rootBefore := a.workspace().Root
	ctx, cancel := a.ctx()
	defer cancel()
	if err := a.conf.SaveSettings(ctx, st); err != nil {
		return SettingsView{}, asError(err)
	}
	if a.workspace().Root != rootBefore {
		// MCP servers hear of the new workspace root.
		a.mcp.RootsChanged()
	}
	a.emit("status", a.Status())
	return a.GetSettings(), nil
}

// ConnectionResult is what TestConnection found (config.ConnectionResult).
type ConnectionResult = config.ConnectionResult

// TestConnection lists the models of the endpoint in st (a masked key means
// the stored one, of that URL only: config.Catalog.TestConnection).
func (a *App) TestConnection(st Settings) ConnectionResult {
	return a.conf.TestConnection(a.bgCtx, st)
}

// ListEndpoints lists the endpoints: the environment's, the saved ones,
// and the local servers that answer now. Keys are masked.
func (a *App) ListEndpoints() ([]Endpoint, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	list, err := a.conf.ListEndpoints(ctx)
	return list, asErrorOrNil(err)
}

// SaveEndpoint adds (id "") or replaces a saved endpoint, or sets the
// prices of a read-only one (the environment's, a detected server).
// isDefault set makes a saved endpoint the default (Settings → General
// then shows it). A masked key keeps the stored one.
func (a *App) SaveEndpoint(e Endpoint) (Endpoint, error) {
	if err := a.writable("SaveEndpoint"); err != nil {
		return Endpoint{}, err
	}
	ctx, cancel := a.ctx()
	defer cancel()
	saved, err := a.conf.SaveEndpoint(ctx, e)
	return saved, asErrorOrNil(err)
}

// DeleteEndpoint deletes a saved endpoint. The environment's and detected
// ones cannot be deleted. Chats that used it run with the default endpoint
// from their next model call (their header says so); deleting the default
// clears Settings → General's endpoint.
func (a *App) DeleteEndpoint(id string) error {
	if err := a.writable("DeleteEndpoint"); err != nil {
		return err
	}
	ctx, cancel := a.ctx()
	defer cancel()
	e, _, _ := a.conf.EndpointByID(ctx, id)
	return asErrorOrNil(a.demo.Delete(ctx, a.conf, e, id))
}

// ListModels asks an endpoint ("" = the default) for its models
// (GET {base}/models with its key).
func (a *App) ListModels(endpointID string) ([]string, error) {
	ctx, cancel := a.ctx()
	base, key, name, ok, err := a.conf.Target(ctx, endpointID)
	cancel()
	if err != nil {
		return nil, asError(err)
	}
	if !ok {
		return nil, errorf(CodeNotFound, "This endpoint no longer exists.")
	}
	if base == "" {
		return nil, errorf(CodeNotConfigured, "No endpoint is configured yet: add one in Settings → Endpoints.")
	}
	models, err := config.ListModels(a.bgCtx, base, key)
	if err != nil {
		return nil, errorf(CodeUnavailable, fmt.Sprintf("Could not list the models of %s: %v", name, err))
	}
	return models, nil
}

// ListPresets lists the presets: the default, the shipped ones and the
// person's own.
func (a *App) ListPresets() ([]Preset, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	list, err := a.conf.ListPresets(ctx)
	return list, asErrorOrNil(err)
}

// SavePreset adds (id "") or replaces a preset (config.Catalog.SavePreset).
func (a *App) SavePreset(p Preset) (Preset, error) {
	if err := a.writable("SavePreset"); err != nil {
		return Preset{}, err
	}
	ctx, cancel := a.ctx()
	defer cancel()
	saved, err := a.conf.SavePreset(ctx, p)
	return saved, asErrorOrNil(err)
}

// DeletePreset deletes the person's preset, or hides a shipped one. The
// default cannot be deleted.
func (a *App) DeletePreset(id string) error {
	if err := a.writable("DeletePreset"); err != nil {
		return err
	}
	ctx, cancel := a.ctx()
	defer cancel()
	return asErrorOrNil(a.conf.DeletePreset(ctx, id))
}
