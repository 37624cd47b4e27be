/* pal-prompt.c: what the person sends in one turn
 *
 * A prompt is what the composer hands over and what waits while a session
 * opens, is given back when it could not go out, or is kept as a draft: its
 * text and what is attached (PalAttachment). It becomes the ContentBlock
 * array of session/prompt only when sent, for the capabilities of the agent
 * that gets it:
 *
 * - the text, as a text block (every agent takes it);
 * - a file, as an embedded resource with its text when the agent takes
 *   embedded context and the file is text of at most PAL_PROMPT_EMBED_LIMIT
 *   bytes; otherwise as a resource_link (which every agent takes), with a
 *   note saying why when the agent could have had it embedded;
 * - a folder, as a resource_link;
 * - an image, as an image block when the agent takes images; otherwise it
 *   is left out, with a note.
 *
 * Files are read when the blocks are built, on a worker thread
 * (pal_prompt_build_blocks_async()).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-prompt.h"

struct _PalPrompt
{
  GObject     parent_instance;

  char       *text;
  GListStore *attachments;
};

G_DEFINE_FINAL_TYPE (PalPrompt, pal_prompt, G_TYPE_OBJECT)

static void
pal_prompt_finalize (GObject *object)
{
  PalPrompt *self = PAL_PROMPT (object);

  g_free (self->text);
  g_clear_object (&self->attachments);

  G_OBJECT_CLASS (pal_prompt_parent_class)->finalize (object);
}

static void
pal_prompt_class_init (PalPromptClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = pal_prompt_finalize;
}

static void
pal_prompt_init (PalPrompt *self)
{
  self->attachments = g_list_store_new (PAL_TYPE_ATTACHMENT);
}

/**
 * pal_prompt_new:
 * @text: what was written
 *
 * Returns: (transfer full): a prompt of @text, with nothing attached
 */
PalPrompt *
pal_prompt_new (const char *text)
{
  PalPrompt *self;

  g_return_val_if_fail (text != NULL, NULL);

  self = g_object_new (PAL_TYPE_PROMPT, NULL);
  self->text = g_strdup (text);

  return self;
}

const char *
pal_prompt_get_text (PalPrompt *self)
{
  g_return_val_if_fail (PAL_IS_PROMPT (self), NULL);

  return self->text;
}

/**
 * pal_prompt_get_attachments:
 * @self: a #PalPrompt
 *
 * Returns: (transfer none): the #PalAttachment items, in the order given
 */
GListModel *
pal_prompt_get_attachments (PalPrompt *self)
{
  g_return_val_if_fail (PAL_IS_PROMPT (self), NULL);

  return G_LIST_MODEL (self->attachments);
}

void
pal_prompt_add_attachment (PalPrompt     *self,
                           PalAttachment *attachment)
{
  g_return_if_fail (PAL_IS_PROMPT (self));
  g_return_if_fail (PAL_IS_ATTACHMENT (attachment));

  g_list_store_append (self->attachments, attachment);
}

void
pal_prompt_remove_attachment (PalPrompt     *self,
                              PalAttachment *attachment)
{
  guint position;

  g_return_if_fail (PAL_IS_PROMPT (self));
  g_return_if_fail (PAL_IS_ATTACHMENT (attachment));

  if (g_list_store_find (self->attachments, attachment, &position))
    g_list_store_remove (self->attachments, position);
}

/**
 * pal_prompt_needs_reading:
 * @self: a #PalPrompt
 *
 * Returns: whether building the blocks reads files (then use
 *   pal_prompt_build_blocks_async(), not pal_prompt_to_blocks())
 */
gboolean
pal_prompt_needs_reading (PalPrompt *self)
{
  guint n;

  g_return_val_if_fail (PAL_IS_PROMPT (self), FALSE);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->attachments));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(PalAttachment) attachment = g_list_model_get_item (G_LIST_MODEL (self->attachments), i);

      if (pal_attachment_get_kind (attachment) == PAL_ATTACHMENT_FILE)
        return TRUE;
    }

  return FALSE;
}

static JsonObject *
new_block (const char *type)
{
  JsonObject *block = json_object_new ();

  json_object_set_string_member (block, "type", type);
  return block;
}

static JsonObject *
new_link (GFile      *file,
          const char *name,
          const char *mime_type,
          gint64      size)
{
  JsonObject *block = new_block ("resource_link");
  g_autofree char *uri = g_file_get_uri (file);

  json_object_set_string_member (block, "uri", uri);
  json_object_set_string_member (block, "name", name);
  if (mime_type != NULL)
    json_object_set_string_member (block, "mimeType", mime_type);
  if (size >= 0)
    json_object_set_int_member (block, "size", size);

  return block;
}

static char *
guess_mime_type (const char *name,
                 const char *data,
                 gsize       length)
{
  g_autofree char *content_type = g_content_type_guess (name, (const guchar *) data, length, NULL);

  return g_content_type_get_mime_type (content_type);
}

/* A file: embedded when it can be, else a link; reads it (not on the main
 * thread when @cancellable belongs to a task) */
static JsonObject *
file_block (PalAttachment        *attachment,
            AcpAgentCapabilities  caps,
            GPtrArray            *notes,
            GCancellable         *cancellable)
{
  GFile *file = pal_attachment_get_file (attachment);
  const char *name = pal_attachment_get_name (attachment);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *mime_type = NULL;
  g_autofree char *data = NULL;
  gsize length = 0;
  gint64 size;
  JsonObject *block, *resource;
  g_autofree char *uri = NULL;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                            G_FILE_QUERY_INFO_NONE, cancellable, &error);
  if (info == NULL)
    {
      /* Translators: %s is a file's name, then why it could not be read */
      g_ptr_array_add (notes, g_strdup_printf (_("%s is sent as a link: it could not be read (%s)."),
                                               name, error->message));
      return new_link (file, name, NULL, -1);
    }

  size = g_file_info_get_size (info);
  if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
    return new_link (file, name, "inode/directory", -1);

  if (!(caps & ACP_AGENT_CAP_PROMPT_EMBEDDED_CONTEXT))
    {
      mime_type = guess_mime_type (name, NULL, 0);
      return new_link (file, name, mime_type, size);
    }

  if (size > PAL_PROMPT_EMBED_LIMIT)
    {
      g_autofree char *limit = g_format_size (PAL_PROMPT_EMBED_LIMIT);

      mime_type = guess_mime_type (name, NULL, 0);
      /* Translators: %s is a file's name, then a size such as "262.1 kB" */
      g_ptr_array_add (notes, g_strdup_printf (_("%s is sent as a link: it is larger than %s."),
                                               name, limit));
      return new_link (file, name, mime_type, size);
    }

  /* read no more than the limit, whatever the size said */
  stream = g_file_read (file, cancellable, &error);
  if (stream != NULL)
    {
      data = g_malloc (PAL_PROMPT_EMBED_LIMIT + 1);
      if (!g_input_stream_read_all (G_INPUT_STREAM (stream), data, PAL_PROMPT_EMBED_LIMIT + 1,
                                    &length, cancellable, &error))
        g_clear_pointer (&data, g_free);
    }
  if (data == NULL)
    {
      g_ptr_array_add (notes, g_strdup_printf (_("%s is sent as a link: it could not be read (%s)."),
                                               name, error->message));
      return new_link (file, name, NULL, size);
    }

  mime_type = guess_mime_type (name, data, length);
  if (length > PAL_PROMPT_EMBED_LIMIT)
    {
      g_autofree char *limit = g_format_size (PAL_PROMPT_EMBED_LIMIT);

      g_ptr_array_add (notes, g_strdup_printf (_("%s is sent as a link: it is larger than %s."),
                                               name, limit));
      return new_link (file, name, mime_type, -1);
    }
  if (memchr (data, '\0', length) != NULL || !g_utf8_validate_len (data, length, NULL))
    {
      /* Translators: %s is a file's name */
      g_ptr_array_add (notes, g_strdup_printf (_("%s is sent as a link: it is not text."), name));
      return new_link (file, name, mime_type, length);
    }

  data[length] = '\0';
  block = new_block ("resource");
  resource = json_object_new ();
  uri = g_file_get_uri (file);
  json_object_set_string_member (resource, "uri", uri);
  json_object_set_string_member (resource, "mimeType", mime_type);
  json_object_set_object_member (block, "resource", resource);
  json_object_set_string_member (resource, "text", data);

  return block;
}

static JsonObject *
image_block (PalAttachment        *attachment,
             AcpAgentCapabilities  caps,
             GPtrArray            *notes)
{
  GBytes *data = pal_attachment_get_data (attachment);
  GFile *source = pal_attachment_get_file (attachment);
  g_autofree char *base64 = NULL;
  JsonObject *block;
  gsize length;
  const guchar *bytes;

  if (!(caps & ACP_AGENT_CAP_PROMPT_IMAGE))
    {
      /* Translators: %s is an image's name */
      g_ptr_array_add (notes, g_strdup_printf (_("%s was not sent: the agent does not accept images."),
                                               pal_attachment_get_name (attachment)));
      return NULL;
    }

  bytes = g_bytes_get_data (data, &length);
  base64 = g_base64_encode (bytes, length);
  block = new_block ("image");
  json_object_set_string_member (block, "data", base64);
  json_object_set_string_member (block, "mimeType", pal_attachment_get_mime_type (attachment));
  if (source != NULL)
    {
      g_autofree char *uri = g_file_get_uri (source);

      json_object_set_string_member (block, "uri", uri);
    }

  return block;
}

static JsonArray *
build_blocks (const char           *text,
              GPtrArray            *attachments,
              AcpAgentCapabilities  caps,
              GPtrArray            *notes,
              GCancellable         *cancellable)
{
  JsonArray *blocks = json_array_new ();
  JsonObject *block = new_block ("text");

  json_object_set_string_member (block, "text", text);
  json_array_add_object_element (blocks, block);

  for (guint i = 0; i < attachments->len; i++)
    {
      PalAttachment *attachment = g_ptr_array_index (attachments, i);

      switch (pal_attachment_get_kind (attachment))
        {
        case PAL_ATTACHMENT_FILE:
          block = file_block (attachment, caps, notes, cancellable);
          break;

        case PAL_ATTACHMENT_FOLDER:
          block = new_link (pal_attachment_get_file (attachment), pal_attachment_get_name (attachment),
                            "inode/directory", -1);
          break;

        case PAL_ATTACHMENT_IMAGE:
          block = image_block (attachment, caps, notes);
          break;

        default:
          g_assert_not_reached ();
        }

      if (block != NULL)
        json_array_add_object_element (blocks, block);
    }

  return blocks;
}

static GPtrArray *
copy_attachments (PalPrompt *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->attachments));
  GPtrArray *copy = g_ptr_array_new_full (n, g_object_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (copy, g_list_model_get_item (G_LIST_MODEL (self->attachments), i));

  return copy;
}

static GStrv
steal_notes (GPtrArray *notes)
{
  g_ptr_array_add (notes, NULL);
  return (GStrv) g_ptr_array_free (notes, FALSE);
}

/**
 * pal_prompt_to_blocks:
 * @self: a #PalPrompt that needs no reading (pal_prompt_needs_reading())
 * @caps: the capabilities of the agent it goes to
 * @notes: (out) (optional) (transfer full): what the person should know
 *   of what is sent: an image left out
 *
 * Returns: (transfer full): the prompt of session/prompt, ContentBlock
 *   objects: its text, then what is attached, in the forms @caps allow
 */
JsonArray *
pal_prompt_to_blocks (PalPrompt            *self,
                      AcpAgentCapabilities  caps,
                      GStrv                *notes)
{
  g_autoptr(GPtrArray) attachments = NULL;
  GPtrArray *said = g_ptr_array_new_with_free_func (g_free);
  JsonArray *blocks;

  g_return_val_if_fail (PAL_IS_PROMPT (self), NULL);
  g_return_val_if_fail (!pal_prompt_needs_reading (self), NULL);

  attachments = copy_attachments (self);
  blocks = build_blocks (self->text, attachments, caps, said, NULL);
  if (notes != NULL)
    *notes = steal_notes (said);
  else
    g_ptr_array_unref (said);

  return blocks;
}

typedef struct
{
  char                 *text;
  GPtrArray            *attachments;
  AcpAgentCapabilities  caps;
  GStrv                 notes;
} Build;

static void
build_free (Build *build)
{
  g_free (build->text);
  g_ptr_array_unref (build->attachments);
  g_strfreev (build->notes);
  g_free (build);
}

static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Build *build = task_data;
  GPtrArray *notes = g_ptr_array_new_with_free_func (g_free);
  JsonArray *blocks;

  blocks = build_blocks (build->text, build->attachments, build->caps, notes, cancellable);
  build->notes = steal_notes (notes);
  if (g_task_return_error_if_cancelled (task))
    json_array_unref (blocks);
  else
    g_task_return_pointer (task, blocks, (GDestroyNotify) json_array_unref);
}

/**
 * pal_prompt_build_blocks_async:
 * @self: a #PalPrompt
 * @caps: the capabilities of the agent it goes to
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the blocks are built
 * @user_data: for @callback
 *
 * Builds the blocks as pal_prompt_to_blocks() does, reading the files
 * attached on a worker thread.
 */
void
pal_prompt_build_blocks_async (PalPrompt            *self,
                               AcpAgentCapabilities  caps,
                               GCancellable         *cancellable,
                               GAsyncReadyCallback   callback,
                               gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  Build *build;

  g_return_if_fail (PAL_IS_PROMPT (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, pal_prompt_build_blocks_async);
  build = g_new0 (Build, 1);
  build->text = g_strdup (self->text);
  build->attachments = copy_attachments (self);
  build->caps = caps;
  g_task_set_task_data (task, build, (GDestroyNotify) build_free);
  g_task_run_in_thread (task, build_thread);
}

/**
 * pal_prompt_build_blocks_finish:
 * @self: a #PalPrompt
 * @result: the result given to the callback
 * @notes: (out) (optional) (transfer full): what the person should know of
 *   what is sent: files sent as links rather than embedded, and why, and
 *   images left out
 * @error: return location for an error (only cancellation)
 *
 * Returns: (transfer full): the ContentBlock objects, or %NULL when
 *   cancelled
 */
JsonArray *
pal_prompt_build_blocks_finish (PalPrompt     *self,
                                GAsyncResult  *result,
                                GStrv         *notes,
                                GError       **error)
{
  Build *build;

  g_return_val_if_fail (PAL_IS_PROMPT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  build = g_task_get_task_data (G_TASK (result));
  if (notes != NULL)
    *notes = g_steal_pointer (&build->notes);

  return g_task_propagate_pointer (G_TASK (result), error);
}
