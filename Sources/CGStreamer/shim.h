#include <gst/gst.h>
#include <gst/rtsp-server/rtsp-server.h>
#include <string.h>

/* GObject's signals, casts and variadic emits are macros or varargs, which Swift does not import;
   these wrappers give them types. */

static inline void cgst_init(void) { gst_init(NULL, NULL); }

typedef void (*cgst_media_configure_callback)(GstRTSPMediaFactory *factory, GstRTSPMedia *media, gpointer data);
typedef void (*cgst_media_callback)(GstRTSPMedia *media, gpointer data);

/* Calls `callback` with every new media of `factory` ("media-configure"). */
static inline gulong cgst_on_media_configure(GstRTSPMediaFactory *factory, cgst_media_configure_callback callback,
                                             gpointer data) {
    return g_signal_connect(factory, "media-configure", G_CALLBACK(callback), data);
}

/* Calls `callback` when `media` is torn down ("unprepared"). */
static inline gulong cgst_on_media_unprepared(GstRTSPMedia *media, cgst_media_callback callback, gpointer data) {
    return g_signal_connect(media, "unprepared", G_CALLBACK(callback), data);
}

/* The element named `name` in `media`'s pipeline, with a reference the caller drops. */
static inline GstElement *cgst_media_element_named(GstRTSPMedia *media, const char *name) {
    GstElement *bin = gst_rtsp_media_get_element(media);
    if (bin == NULL) return NULL;
    GstElement *element = gst_bin_get_by_name_recurse_up(GST_BIN(bin), name);
    gst_object_unref(bin);
    return element;
}

/* Pushes a copy of `size` bytes at `bytes` into the appsrc `source`; GST_FLOW_OK or the flow error. */
static inline int cgst_push_bytes(GstElement *source, const void *bytes, gsize size) {
    GstBuffer *buffer = gst_buffer_new_allocate(NULL, size, NULL);
    if (buffer == NULL) return GST_FLOW_ERROR;
    gst_buffer_fill(buffer, 0, bytes, size);
    GstFlowReturn result = GST_FLOW_OK;
    g_signal_emit_by_name(source, "push-buffer", buffer, &result);
    gst_buffer_unref(buffer);
    return result;
}

static GstRTSPFilterResult cgst_remove_client(GstRTSPServer *server, GstRTSPClient *client, gpointer data) {
    (void)server; (void)client; (void)data;
    return GST_RTSP_FILTER_REMOVE;
}

/* Closes every client connection of `server`. */
static inline void cgst_remove_all_clients(GstRTSPServer *server) {
    GList *kept = gst_rtsp_server_client_filter(server, cgst_remove_client, NULL);
    g_list_free_full(kept, g_object_unref);
}

/* Removes the source `id` (the server's listening socket) from `context`; the socket closes. */
static inline void cgst_destroy_source(GMainContext *context, guint id) {
    GSource *source = g_main_context_find_source_by_id(context, id);
    if (source != NULL) g_source_destroy(source);
}
