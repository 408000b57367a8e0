//go:build desktop && linux && cgo

// The handler in front of Wails' "script-message-received::external"
// (wails v2.16.0, internal/frontend/desktop/linux/window.c,
// sendMessageToBackend): Wails' is blocked, and this one hands Wails'
// processBindingMessage only what the gate (framegateFilter) lets through,
// with the same source Wails would give it (the web view's address).

#include <string.h>
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#include "_cgo_export.h"

// Exported by Wails' Linux frontend (//export processBindingMessage). Weak:
// cgo links this package alone first, without Wails; the program's link
// resolves it. Missing, the gate is not installed and says so.
extern void processBindingMessage(char *, char *) __attribute__((weak));

static WebKitWebView *find_webview(GtkWidget *w)
{
    if (WEBKIT_IS_WEB_VIEW(w))
        return WEBKIT_WEB_VIEW(w);
    if (!GTK_IS_CONTAINER(w))
        return NULL;
    WebKitWebView *found = NULL;
    GList *kids = gtk_container_get_children(GTK_CONTAINER(w));
    for (GList *l = kids; l != NULL && found == NULL; l = l->next)
        found = find_webview(GTK_WIDGET(l->data));
    g_list_free(kids);
    return found;
}

static void on_message(WebKitUserContentManager *manager, WebKitJavascriptResult *result, gpointer data)
{
    WebKitWebView *webview = WEBKIT_WEB_VIEW(data);
    char *message = jsc_value_to_string(webkit_javascript_result_get_js_value(result));
    if (message == NULL)
        return;
    long at = framegateFilter(message, strlen(message));
    if (at >= 0) {
        const char *uri = webkit_web_view_get_uri(webview);
        char *source = g_strdup(uri != NULL ? uri : "");
        processBindingMessage(message + at, source);
        g_free(source);
    }
    g_free(message);
}

// block_all blocks every unblocked handler of signal with detail on
// instance and returns how many.
static int block_all(gpointer instance, guint signal, GQuark detail)
{
    int n = 0;
    gulong id;
    while ((id = g_signal_handler_find(instance, G_SIGNAL_MATCH_ID | G_SIGNAL_MATCH_DETAIL | G_SIGNAL_MATCH_UNBLOCKED,
                                       signal, detail, NULL, NULL, NULL)) != 0) {
        g_signal_handler_block(instance, id);
        n++;
    }
    return n;
}

static gboolean framegate_install(gpointer unused)
{
    (void)unused;
    if (processBindingMessage == NULL) {
        framegateInstalled(2, 0);
        return G_SOURCE_REMOVE;
    }
    WebKitWebView *webview = NULL;
    GList *tops = gtk_window_list_toplevels();
    for (GList *l = tops; l != NULL && webview == NULL; l = l->next)
        webview = find_webview(GTK_WIDGET(l->data));
    g_list_free(tops);
    if (webview == NULL) {
        framegateInstalled(1, 0);
        return G_SOURCE_REMOVE;
    }
    WebKitUserContentManager *manager = webkit_web_view_get_user_content_manager(webview);
    guint signal = g_signal_lookup("script-message-received", WEBKIT_TYPE_USER_CONTENT_MANAGER);
    // Wails connects with the detail "external"; a handler without a
    // detail would see every message too.
    int blocked = block_all(manager, signal, g_quark_from_static_string("external"));
    blocked += block_all(manager, signal, 0);
    g_signal_connect(manager, "script-message-received::external", G_CALLBACK(on_message), webview);
    framegateInstalled(0, blocked);
    return G_SOURCE_REMOVE;
}

// framegate_schedule runs framegate_install on the GTK main thread, before
// anything else waiting there (the page's loads come later).
void framegate_schedule(void)
{
    g_idle_add_full(G_PRIORITY_HIGH, framegate_install, NULL, NULL);
}
