/* test-prompt.c: the blocks a prompt becomes, for each capability of the
 * agent it goes to
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "pal-prompt.h"
#include "test-util.h"

typedef struct
{
  char *dir;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->dir = test_make_tmpdir ("prompt");
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  test_remove_tree (f->dir);
  g_free (f->dir);
}

static GFile *
write_file (Fixture    *f,
            const char *name,
            const char *contents,
            gssize      length)
{
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);

  return g_file_new_for_path (path);
}

/* Builds the blocks on the worker thread, as sending does */
static JsonArray *
build (PalPrompt            *prompt,
       AcpAgentCapabilities  caps,
       GStrv                *notes)
{
  GAsyncResult *slot = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *blocks;

  pal_prompt_build_blocks_async (prompt, caps, NULL, test_store_result_cb, &slot);
  result = WAIT_RESULT (&slot);
  blocks = pal_prompt_build_blocks_finish (prompt, result, notes, &error);
  g_assert_no_error (error);
  g_assert_nonnull (blocks);

  return blocks;
}

static const char *
block_type (JsonArray *blocks,
            guint      i)
{
  return json_object_get_string_member (json_array_get_object_element (blocks, i), "type");
}

static void
test_text_only (void)
{
  g_autoptr(PalPrompt) prompt = pal_prompt_new ("Hello");
  g_autoptr(JsonArray) blocks = NULL;
  g_auto(GStrv) notes = NULL;

  g_assert_false (pal_prompt_needs_reading (prompt));
  blocks = pal_prompt_to_blocks (prompt, ACP_AGENT_CAP_NONE, &notes);
  g_assert_cmpuint (json_array_get_length (blocks), ==, 1);
  g_assert_cmpstr (block_type (blocks, 0), ==, "text");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (blocks, 0), "text"), ==,
                   "Hello");
  g_assert_cmpuint (g_strv_length (notes), ==, 0);
}

/* A text file is embedded for an agent that takes embedded context, and a
 * link (with its size) for one that does not */
static void
test_file (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GFile) file = write_file (f, "hello.c", "int main (void) { return 0; }\n", -1);
  g_autoptr(PalAttachment) attachment = pal_attachment_new_file (file);
  g_autoptr(PalPrompt) prompt = pal_prompt_new ("Look");
  g_autofree char *uri = g_file_get_uri (file);
  g_autoptr(JsonArray) embedded = NULL;
  g_autoptr(JsonArray) linked = NULL;
  g_auto(GStrv) notes = NULL;
  g_auto(GStrv) link_notes = NULL;
  JsonObject *block, *resource;

  pal_prompt_add_attachment (prompt, attachment);
  g_assert_true (pal_prompt_needs_reading (prompt));
  g_assert_cmpstr (pal_attachment_get_name (attachment), ==, "hello.c");

  embedded = build (prompt, ACP_AGENT_CAP_PROMPT_EMBEDDED_CONTEXT | ACP_AGENT_CAP_PROMPT_IMAGE, &notes);
  g_assert_cmpuint (json_array_get_length (embedded), ==, 2);
  g_assert_cmpstr (block_type (embedded, 1), ==, "resource");
  resource = json_object_get_object_member (json_array_get_object_element (embedded, 1), "resource");
  g_assert_cmpstr (json_object_get_string_member (resource, "uri"), ==, uri);
  g_assert_cmpstr (json_object_get_string_member (resource, "text"), ==, "int main (void) { return 0; }\n");
  g_assert_cmpstr (json_object_get_string_member (resource, "mimeType"), ==, "text/x-csrc");
  g_assert_cmpuint (g_strv_length (notes), ==, 0);

  linked = build (prompt, ACP_AGENT_CAP_PROMPT_IMAGE, &link_notes);
  g_assert_cmpuint (json_array_get_length (linked), ==, 2);
  block = json_array_get_object_element (linked, 1);
  g_assert_cmpstr (block_type (linked, 1), ==, "resource_link");
  g_assert_cmpstr (json_object_get_string_member (block, "uri"), ==, uri);
  g_assert_cmpstr (json_object_get_string_member (block, "name"), ==, "hello.c");
  g_assert_cmpint (json_object_get_int_member (block, "size"), ==, 30);
  g_assert_false (json_object_has_member (block, "resource"));
  /* a link is what the agent asked for: nothing to say */
  g_assert_cmpuint (g_strv_length (link_notes), ==, 0);
}

/* Too large, binary or unreadable: a link, and the person is told why */
static void
test_file_as_link (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *big = g_malloc (PAL_PROMPT_EMBED_LIMIT + 10);
  static const char binary[] = { 'E', 'L', 'F', 0, 1, 2, 0, 3 };
  g_autoptr(GFile) big_file = NULL;
  g_autoptr(GFile) binary_file = NULL;
  g_autoptr(GFile) invalid_file = NULL;
  g_autoptr(GFile) missing = NULL;
  g_autoptr(GFile) dir = g_file_new_for_path (f->dir);
  g_autoptr(PalPrompt) prompt = pal_prompt_new ("These");
  g_autoptr(JsonArray) blocks = NULL;
  g_auto(GStrv) notes = NULL;
  PalAttachment *attachment;

  memset (big, 'a', PAL_PROMPT_EMBED_LIMIT + 10);
  big_file = write_file (f, "big.log", big, PAL_PROMPT_EMBED_LIMIT + 10);
  binary_file = write_file (f, "tool", binary, sizeof binary);
  invalid_file = write_file (f, "latin1.txt", "caf\xe9", 4);
  missing = g_file_get_child (dir, "gone.txt");

  attachment = pal_attachment_new_file (big_file);
  pal_prompt_add_attachment (prompt, attachment);
  g_object_unref (attachment);
  attachment = pal_attachment_new_file (binary_file);
  pal_prompt_add_attachment (prompt, attachment);
  g_object_unref (attachment);
  attachment = pal_attachment_new_file (invalid_file);
  pal_prompt_add_attachment (prompt, attachment);
  g_object_unref (attachment);
  attachment = pal_attachment_new_file (missing);
  pal_prompt_add_attachment (prompt, attachment);
  g_object_unref (attachment);

  blocks = build (prompt, ACP_AGENT_CAP_PROMPT_EMBEDDED_CONTEXT, &notes);
  g_assert_cmpuint (json_array_get_length (blocks), ==, 5);
  for (guint i = 1; i < 5; i++)
    g_assert_cmpstr (block_type (blocks, i), ==, "resource_link");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (blocks, 1), "size"), ==,
                   PAL_PROMPT_EMBED_LIMIT + 10);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (blocks, 2), "size"), ==,
                   sizeof binary);

  g_assert_cmpuint (g_strv_length (notes), ==, 4);
  g_assert_nonnull (strstr (notes[0], "big.log"));
  g_assert_nonnull (strstr (notes[0], "larger than"));
  g_assert_nonnull (strstr (notes[1], "tool"));
  g_assert_nonnull (strstr (notes[1], "not text"));
  g_assert_nonnull (strstr (notes[2], "latin1.txt"));
  g_assert_nonnull (strstr (notes[2], "not text"));
  g_assert_nonnull (strstr (notes[3], "gone.txt"));
  g_assert_nonnull (strstr (notes[3], "could not be read"));
}

static void
test_folder (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GFile) folder = g_file_new_for_path (f->dir);
  g_autoptr(PalAttachment) attachment = pal_attachment_new_folder (folder);
  g_autoptr(PalPrompt) prompt = pal_prompt_new ("In here");
  g_autoptr(JsonArray) blocks = NULL;
  g_autofree char *uri = g_file_get_uri (folder);
  JsonObject *block;

  pal_prompt_add_attachment (prompt, attachment);
  g_assert_false (pal_prompt_needs_reading (prompt));
  blocks = pal_prompt_to_blocks (prompt, ACP_AGENT_CAP_PROMPT_EMBEDDED_CONTEXT, NULL);
  g_assert_cmpuint (json_array_get_length (blocks), ==, 2);
  block = json_array_get_object_element (blocks, 1);
  g_assert_cmpstr (block_type (blocks, 1), ==, "resource_link");
  g_assert_cmpstr (json_object_get_string_member (block, "uri"), ==, uri);
  g_assert_cmpstr (json_object_get_string_member (block, "mimeType"), ==, "inode/directory");
}

/* An image goes as base64 to an agent that takes images, and is left out,
 * with a note, for one that does not */
static void
test_image (void)
{
  static const guchar png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0 };
  g_autoptr(GBytes) bytes = g_bytes_new_static (png, sizeof png);
  g_autoptr(PalAttachment) attachment = pal_attachment_new_image (bytes, "image/png", 640, 480, NULL);
  g_autoptr(PalPrompt) prompt = pal_prompt_new ("What is this?");
  g_autoptr(JsonArray) sent = NULL;
  g_autoptr(JsonArray) refused = NULL;
  g_auto(GStrv) notes = NULL;
  g_auto(GStrv) refused_notes = NULL;
  g_autofree char *base64 = g_base64_encode (png, sizeof png);
  JsonObject *block;

  pal_prompt_add_attachment (prompt, attachment);
  g_assert_cmpint (pal_attachment_get_kind (attachment), ==, PAL_ATTACHMENT_IMAGE);
  g_assert_cmpint (pal_attachment_get_width (attachment), ==, 640);
  g_assert_false (pal_prompt_needs_reading (prompt));

  sent = pal_prompt_to_blocks (prompt, ACP_AGENT_CAP_PROMPT_IMAGE, &notes);
  g_assert_cmpuint (json_array_get_length (sent), ==, 2);
  block = json_array_get_object_element (sent, 1);
  g_assert_cmpstr (block_type (sent, 1), ==, "image");
  g_assert_cmpstr (json_object_get_string_member (block, "data"), ==, base64);
  g_assert_cmpstr (json_object_get_string_member (block, "mimeType"), ==, "image/png");
  g_assert_false (json_object_has_member (block, "uri"));
  g_assert_cmpuint (g_strv_length (notes), ==, 0);

  refused = pal_prompt_to_blocks (prompt, ACP_AGENT_CAP_PROMPT_EMBEDDED_CONTEXT, &refused_notes);
  g_assert_cmpuint (json_array_get_length (refused), ==, 1);
  g_assert_cmpuint (g_strv_length (refused_notes), ==, 1);
  g_assert_nonnull (strstr (refused_notes[0], "does not accept images"));

  pal_prompt_remove_attachment (prompt, attachment);
  g_assert_cmpuint (g_list_model_get_n_items (pal_prompt_get_attachments (prompt)), ==, 0);
}

/* Cancelled before the thread ran: no blocks, the cancellation said */
static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GFile) file = write_file (f, "a.txt", "a", -1);
  g_autoptr(PalAttachment) attachment = pal_attachment_new_file (file);
  g_autoptr(PalPrompt) prompt = pal_prompt_new ("x");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  GAsyncResult *slot = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  pal_prompt_add_attachment (prompt, attachment);
  g_cancellable_cancel (cancellable);
  pal_prompt_build_blocks_async (prompt, ACP_AGENT_CAP_PROMPT_EMBEDDED_CONTEXT, cancellable,
                                 test_store_result_cb, &slot);
  result = WAIT_RESULT (&slot);
  g_assert_null (pal_prompt_build_blocks_finish (prompt, result, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/prompt/text-only", test_text_only);
  g_test_add ("/prompt/file", Fixture, NULL, fixture_set_up, test_file, fixture_tear_down);
  g_test_add ("/prompt/file-as-link", Fixture, NULL, fixture_set_up, test_file_as_link, fixture_tear_down);
  g_test_add ("/prompt/folder", Fixture, NULL, fixture_set_up, test_folder, fixture_tear_down);
  g_test_add_func ("/prompt/image", test_image);
  g_test_add ("/prompt/cancel", Fixture, NULL, fixture_set_up, test_cancel, fixture_tear_down);

  return g_test_run ();
}
