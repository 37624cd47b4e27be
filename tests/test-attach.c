/* test-attach.c: what is dropped, chosen or pasted reaches the agent
 *
 * A session view on the fake agent (its initialize answer says what it
 * takes), files dropped on the composer and on the transcript, an image
 * pasted; the content blocks the fake agent records are checked for each
 * combination of `image` and `embeddedContext`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "acp-session.h"
#include "find-descendant.h"
#include "pal-composer.h"
#include "pal-session-view.h"
#include "test-util.h"

typedef struct
{
  char           *tmpdir;
  char           *project;
  char           *record;
  AcpAgent       *agent;
  AcpSession     *session;
  GtkWidget      *window;
  PalSessionView *view;
  PalComposer    *composer;
} Fixture;

typedef struct
{
  gboolean image;
  gboolean embedded;
} Caps;

static GBytes *
make_png (int width,
          int height)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, width, height);
  g_autoptr(GError) error = NULL;
  char *buffer = NULL;
  gsize length = 0;

  gdk_pixbuf_fill (pixbuf, 0x22aa44ff);
  g_assert_true (gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &length, "png", &error, NULL));
  g_assert_no_error (error);

  return g_bytes_new_take (buffer, length);
}

static void
write_file (const char *path,
            const char *data,
            gsize       length)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, data, length, &error);
  g_assert_no_error (error);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  const Caps *caps = data;
  g_autofree char *scenario = NULL;
  g_autofree char *json = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GBytes) png = make_png (4000, 3000);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  const char *extra[] = { "--record", NULL, NULL };

  f->tmpdir = test_make_tmpdir ("test-attach-XXXXXX");
  f->project = g_build_filename (f->tmpdir, "project", NULL);
  f->record = g_build_filename (f->tmpdir, "record.jsonl", NULL);
  g_mkdir (f->project, 0700);
  path = g_build_filename (f->project, "src", NULL);
  g_mkdir (path, 0700);
  g_free (path);
  path = g_build_filename (f->project, "hello.c", NULL);
  write_file (path, "int main (void) { return 0; }\n", -1);
  g_free (path);
  path = g_build_filename (f->project, "shot.png", NULL);
  write_file (path, g_bytes_get_data (png, NULL), g_bytes_get_size (png));
  g_free (path);
  path = g_build_filename (f->tmpdir, "elsewhere.txt", NULL);
  write_file (path, "not in the project\n", -1);

  json = g_strdup_printf ("{\"handlers\": {"
                          " \"initialize\": [{\"op\": \"result\", \"result\": {\"protocolVersion\": 1,"
                          "   \"agentCapabilities\": {\"promptCapabilities\":"
                          "     {\"image\": %s, \"embeddedContext\": %s}}}}],"
                          " \"session/new\": [{\"op\": \"result\", \"result\": {\"sessionId\": \"s1\"}}],"
                          " \"session/prompt\": [{\"op\": \"result\", \"result\": {\"stopReason\": \"end_turn\"}}]"
                          "}}",
                          caps->image ? "true" : "false", caps->embedded ? "true" : "false");
  scenario = g_build_filename (f->tmpdir, "scenario.json", NULL);
  write_file (scenario, json, -1);

  extra[1] = f->record;
  f->agent = test_fake_agent_new (scenario, extra);
  test_agent_start (f->agent);
  f->session = acp_session_new (f->agent, f->project);
  acp_session_create_async (f->session, NULL, NULL, test_store_result_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (acp_session_create_finish (f->session, result, &error));
  g_assert_no_error (error);

  f->window = gtk_window_new ();
  f->view = PAL_SESSION_VIEW (pal_session_view_new ());
  f->composer = PAL_COMPOSER (pal_session_view_get_composer (f->view));
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->view));
  gtk_window_present (GTK_WINDOW (f->window));
  pal_session_view_set_session (f->view, f->session);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_object (&f->session);
  test_agent_stop (f->agent);
  g_clear_object (&f->agent);
  g_free (f->record);
  g_free (f->project);
  g_free (f->tmpdir);
}

static GFile *
project_file (Fixture    *f,
              const char *name)
{
  g_autofree char *path = g_build_filename (f->project, name, NULL);

  return g_file_new_for_path (path);
}

/* Drops @files on @widget, as a file manager would */
static void
drop_on (GtkWidget *widget,
         GSList    *files)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  g_auto(GValue) value = G_VALUE_INIT;
  gboolean handled = FALSE;
  GtkDropTarget *target = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && target == NULL; i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        target = GTK_DROP_TARGET (controller);
    }
  g_assert_nonnull (target);

  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_set_boxed (&value, files);
  g_signal_emit_by_name (target, "drop", &value, 1.0, 1.0, &handled);
  g_assert_true (handled);
}

/* The widget of @root with the style class @name */
static GtkWidget *
find_with_class (GtkWidget  *root,
                 const char *name)
{
  if (gtk_widget_has_css_class (root, name))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_with_class (child, name);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static guint
n_attached (Fixture *f)
{
  return g_list_model_get_n_items (pal_composer_get_attachments (f->composer));
}

/* The blocks of the session/prompt the fake agent received */
static JsonArray *
recorded_prompt (Fixture *f)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (f->record, &text, NULL, NULL))
    return NULL;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *message;

      if (*lines[i] == '\0' || !json_parser_load_from_data (parser, lines[i], -1, NULL))
        continue;
      message = json_node_get_object (json_parser_get_root (parser));
      if (g_strcmp0 (json_object_get_string_member_with_default (message, "method", ""),
                     "session/prompt") == 0)
        return json_array_ref (json_object_get_array_member (json_object_get_object_member (message, "params"),
                                                             "prompt"));
    }

  return NULL;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* "type name" of each block after the text, sorted (images come when
 * they are scaled, in no set order) */
static char *
describe_blocks (JsonArray *blocks)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);

  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (blocks, 0), "type"),
                   ==, "text");
  for (guint i = 1; i < json_array_get_length (blocks); i++)
    {
      JsonObject *block = json_array_get_object_element (blocks, i);
      const char *type = json_object_get_string_member (block, "type");
      const char *uri = NULL;

      if (g_str_equal (type, "resource"))
        uri = json_object_get_string_member (json_object_get_object_member (block, "resource"), "uri");
      else
        uri = json_object_get_string_member_with_default (block, "uri", "pasted");
      g_ptr_array_add (parts, g_strdup_printf ("%s %s", type, strrchr (uri, '/') != NULL
                                                             ? strrchr (uri, '/') + 1 : uri));
    }
  g_ptr_array_sort (parts, compare_strings);
  g_ptr_array_add (parts, NULL);

  return g_strjoinv (", ", (char **) parts->pdata);
}

static void
assert_image_blocks (JsonArray *blocks)
{
  for (guint i = 1; i < json_array_get_length (blocks); i++)
    {
      JsonObject *block = json_array_get_object_element (blocks, i);
      g_autoptr(GdkPixbufLoader) loader = NULL;
      g_autofree guchar *data = NULL;
      gsize length = 0;
      GdkPixbuf *pixbuf;

      if (!g_str_equal (json_object_get_string_member (block, "type"), "image"))
        continue;
      g_assert_cmpstr (json_object_get_string_member (block, "mimeType"), ==, "image/png");
      data = g_base64_decode (json_object_get_string_member (block, "data"), &length);
      loader = gdk_pixbuf_loader_new ();
      g_assert_true (gdk_pixbuf_loader_write (loader, data, length, NULL));
      g_assert_true (gdk_pixbuf_loader_close (loader, NULL));
      pixbuf = gdk_pixbuf_loader_get_pixbuf (loader);
      /* the file was 4000 × 3000, the pasted image 3000 × 3000 */
      g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), ==, 2048);
      g_assert_cmpint (gdk_pixbuf_get_height (pixbuf), ==,
                       json_object_has_member (block, "uri") ? 1536 : 2048);
    }
}

static void
test_blocks_sent (Fixture       *f,
                  gconstpointer  data)
{
  const Caps *caps = data;
  g_autoptr(GFile) hello = project_file (f, "hello.c");
  g_autoptr(GFile) shot = project_file (f, "shot.png");
  g_autoptr(GFile) src = project_file (f, "src");
  g_autoptr(GBytes) png = make_png (3000, 3000);
  g_autoptr(GdkTexture) texture = gdk_texture_new_from_bytes (png, NULL);
  g_autoptr(JsonArray) blocks = NULL;
  g_autofree char *described = NULL;
  GSList *on_composer = NULL, *on_chat = NULL;
  GtkWidget *text_view;
  const char *expected;

  /* a file and an image dropped on the composer, a folder on the transcript */
  on_composer = g_slist_append (g_slist_append (NULL, hello), shot);
  drop_on (GTK_WIDGET (f->composer), on_composer);
  on_chat = g_slist_append (NULL, src);
  drop_on (find_with_class (GTK_WIDGET (f->view), "chat-drop"), on_chat);
  g_slist_free (on_composer);
  g_slist_free (on_chat);

  /* an image pasted */
  text_view = find_descendant (GTK_WIDGET (f->composer), GTK_TYPE_TEXT_VIEW);
  gdk_clipboard_set_texture (gtk_widget_get_clipboard (text_view), texture);
  g_signal_emit_by_name (text_view, "paste-clipboard");

  WAIT_UNTIL (n_attached (f) == 4 && pal_attacher_get_pending (pal_composer_get_attacher (f->composer)) == 0);
  g_assert_cmpint (pal_composer_get_refusing_images (f->composer), ==, !caps->image);

  pal_composer_set_text (f->composer, "What are these?");
  g_assert_true (pal_composer_submit (f->composer));
  g_assert_cmpuint (n_attached (f), ==, 0);
  POLL_UNTIL ((blocks = recorded_prompt (f)) != NULL);

  described = describe_blocks (blocks);
  if (caps->image && caps->embedded)
    expected = "image pasted, image shot.png, resource hello.c, resource_link src";
  else if (caps->image)
    expected = "image pasted, image shot.png, resource_link hello.c, resource_link src";
  else if (caps->embedded)
    expected = "resource hello.c, resource_link src";
  else
    expected = "resource_link hello.c, resource_link src";
  g_assert_cmpstr (described, ==, expected);
  assert_image_blocks (blocks);
}

static void
test_outside_asks (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->tmpdir, "elsewhere.txt", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GSList *files = g_slist_append (NULL, file);
  AdwMessageDialog *dialog = NULL;

  for (guint round = 0; round < 2; round++)
    {
      GListModel *toplevels;

      pal_composer_add_files (f->composer, files);
      toplevels = gtk_window_get_toplevels ();
      dialog = NULL;
      for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
        {
          g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

          if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
            dialog = ADW_MESSAGE_DIALOG (window);
        }
      g_assert_nonnull (dialog);
      g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), path));
      test_drain_main_context ();
      /* nothing is read before the answer */
      g_assert_cmpuint (n_attached (f), ==, 0);
      g_assert_cmpuint (pal_attacher_get_pending (pal_composer_get_attacher (f->composer)), ==, 0);

      adw_message_dialog_response (dialog, round == 0 ? "cancel" : "attach");
      test_drain_main_context ();
      WAIT_UNTIL (pal_attacher_get_pending (pal_composer_get_attacher (f->composer)) == 0);
      g_assert_cmpuint (n_attached (f), ==, round == 0 ? 0 : 1);
    }

  g_slist_free (files);
}

int
main (int   argc,
      char *argv[])
{
  static const Caps all = { TRUE, TRUE }, image = { TRUE, FALSE };
  static const Caps embedded = { FALSE, TRUE }, none = { FALSE, FALSE };

  test_isolate_user_dirs ();
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add ("/attach/blocks/image-embedded", Fixture, &all, fixture_setup, test_blocks_sent, fixture_teardown);
  g_test_add ("/attach/blocks/image", Fixture, &image, fixture_setup, test_blocks_sent, fixture_teardown);
  g_test_add ("/attach/blocks/embedded", Fixture, &embedded, fixture_setup, test_blocks_sent, fixture_teardown);
  g_test_add ("/attach/blocks/none", Fixture, &none, fixture_setup, test_blocks_sent, fixture_teardown);
  g_test_add ("/attach/outside-asks", Fixture, &all, fixture_setup, test_outside_asks, fixture_teardown);

  return g_test_run ();
}
