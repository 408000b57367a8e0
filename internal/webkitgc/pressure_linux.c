//go:build desktop && linux && cgo

#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <webkit2/webkit2.h>

enum { PRESSURE_INSTALLED = 0, PRESSURE_ALREADY = 1, PRESSURE_NO_PROPERTY = 2, PRESSURE_REFUSED = 3 };

// Wails v2 builds its web view on webkit_web_context_get_default(), which
// makes the context with g_object_new and no properties, so the context's
// construct-only "memory-pressure-settings" is left at NULL (WebKit's
// defaults). pressure_install puts a constructor in front of the class's:
// it fills that one construct property, when nobody gave it a value, with
// the settings made here, then hands over to the class's own constructor.
// GObject passes a custom constructor every construct property, with its
// default value when the caller gave none, and unsets those values after
// construction (so the copy g_value_set_boxed makes is freed there).

static GObject *(*pressure_parent_constructor)(GType, guint, GObjectConstructParam *);
static WebKitMemoryPressureSettings *pressure_settings;
static volatile gint pressure_applied;
// The thread pressure_install ran on: it set WebKit up (the class's
// initialization runs webkitInitialize, which makes the calling thread
// WebKit's main thread), so the window's context must be made, and GTK
// run, on that thread too. pressure_elsewhere counts contexts made on
// another.
static long pressure_thread;
static volatile gint pressure_elsewhere;

static GObject *pressure_constructor(GType type, guint n, GObjectConstructParam *params) {
    for (guint i = 0; i < n; i++) {
        if (strcmp(params[i].pspec->name, "memory-pressure-settings") == 0 &&
            G_VALUE_HOLDS(params[i].value, WEBKIT_TYPE_MEMORY_PRESSURE_SETTINGS) &&
            g_value_get_boxed(params[i].value) == NULL) {
            g_value_set_boxed(params[i].value, pressure_settings);
            g_atomic_int_inc(&pressure_applied);
            if (syscall(SYS_gettid) != pressure_thread)
                g_atomic_int_inc(&pressure_elsewhere);
        }
    }
    return pressure_parent_constructor(type, n, params);
}

// pressure_make makes the settings, or returns NULL if WebKit refused a
// value. WebKit's setters check each threshold against the other one
// already there (conservative below strict, strict above conservative;
// 0.33 and 0.5 by default) and ignore a value that fails, so the order
// matters: conservative first when it is below the strict one already
// there (lowering both), strict first otherwise (raising both).
static WebKitMemoryPressureSettings *pressure_make(unsigned int limit_mib, double conservative, double strict, double poll_seconds) {
    WebKitMemoryPressureSettings *s = webkit_memory_pressure_settings_new();
    webkit_memory_pressure_settings_set_memory_limit(s, limit_mib);
    if (conservative < webkit_memory_pressure_settings_get_strict_threshold(s)) {
        webkit_memory_pressure_settings_set_conservative_threshold(s, conservative);
        webkit_memory_pressure_settings_set_strict_threshold(s, strict);
    } else {
        webkit_memory_pressure_settings_set_strict_threshold(s, strict);
        webkit_memory_pressure_settings_set_conservative_threshold(s, conservative);
    }
    webkit_memory_pressure_settings_set_poll_interval(s, poll_seconds);
    if (webkit_memory_pressure_settings_get_memory_limit(s) != limit_mib ||
        webkit_memory_pressure_settings_get_conservative_threshold(s) != conservative ||
        webkit_memory_pressure_settings_get_strict_threshold(s) != strict ||
        webkit_memory_pressure_settings_get_kill_threshold(s) != 0 ||
        webkit_memory_pressure_settings_get_poll_interval(s) != poll_seconds) {
        webkit_memory_pressure_settings_free(s);
        return NULL;
    }
    return s;
}

// pressure_settings_taken reports whether WebKit keeps every value, made
// as pressure_install makes them: for the tests.
int pressure_settings_taken(unsigned int limit_mib, double conservative, double strict, double poll_seconds) {
    WebKitMemoryPressureSettings *s = pressure_make(limit_mib, conservative, strict, poll_seconds);
    if (s == NULL)
        return 0;
    webkit_memory_pressure_settings_free(s);
    return 1;
}

// pressure_lock makes pressure_install one at a time: two first installs
// at once would both pass the check, and the second would take
// pressure_constructor for the parent constructor it chains to (a
// constructor calling itself).
G_LOCK_DEFINE_STATIC(pressure_lock);

static int pressure_install_locked(unsigned int limit_mib, double conservative, double strict, double poll_seconds) {
    if (pressure_settings != NULL)
        return PRESSURE_ALREADY;
    GObjectClass *klass = G_OBJECT_CLASS(g_type_class_ref(WEBKIT_TYPE_WEB_CONTEXT));
    GParamSpec *spec = g_object_class_find_property(klass, "memory-pressure-settings");
    if (spec == NULL || !(spec->flags & G_PARAM_CONSTRUCT_ONLY) ||
        G_PARAM_SPEC_VALUE_TYPE(spec) != WEBKIT_TYPE_MEMORY_PRESSURE_SETTINGS) {
        g_type_class_unref(klass);
        return PRESSURE_NO_PROPERTY;
    }
    pressure_settings = pressure_make(limit_mib, conservative, strict, poll_seconds);
    if (pressure_settings == NULL) {
        g_type_class_unref(klass);
        return PRESSURE_REFUSED;
    }
    // The class reference is kept: the class must outlive the pointer to
    // the replaced constructor.
    pressure_thread = syscall(SYS_gettid);
    pressure_parent_constructor = klass->constructor;
    klass->constructor = pressure_constructor;
    return PRESSURE_INSTALLED;
}

int pressure_install(unsigned int limit_mib, double conservative, double strict, double poll_seconds) {
    G_LOCK(pressure_lock);
    int status = pressure_install_locked(limit_mib, conservative, strict, poll_seconds);
    G_UNLOCK(pressure_lock);
    return status;
}

int pressure_applied_count(void) { return g_atomic_int_get(&pressure_applied); }

int pressure_elsewhere_count(void) { return g_atomic_int_get(&pressure_elsewhere); }

// pressure_kill_threshold is the settings' kill threshold: 0 means none is
// set, and WebKit keeps its own (several GB) instead of one of ours near
// the release threshold (which would lose the page).
double pressure_kill_threshold(void) {
    return pressure_settings ? webkit_memory_pressure_settings_get_kill_threshold(pressure_settings) : -1;
}

// pressure_new_context makes a web context the way Wails' default one is
// made (g_object_new, no properties) and drops it: for the tests.
// GTK is started first (a web context needs a display), from the calling
// thread; returns 0 without a display.
int pressure_new_context(void) {
    if (!gtk_init_check(NULL, NULL))
        return 0;
    GObject *ctx = g_object_new(WEBKIT_TYPE_WEB_CONTEXT, NULL);
    g_object_unref(ctx);
    return 1;
}

// pressure_new_context_with_own makes and drops a web context given its own
// memory-pressure settings, as an embedder that sets them would: those
// must be kept (the constructor only fills a value nobody gave).
int pressure_new_context_with_own(void) {
    if (!gtk_init_check(NULL, NULL))
        return 0;
    WebKitMemoryPressureSettings *own = webkit_memory_pressure_settings_new();
    webkit_memory_pressure_settings_set_memory_limit(own, 2048);
    GObject *ctx = g_object_new(WEBKIT_TYPE_WEB_CONTEXT, "memory-pressure-settings", own, NULL);
    webkit_memory_pressure_settings_free(own);
    g_object_unref(ctx);
    return 1;
}
