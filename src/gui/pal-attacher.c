/* pal-attacher.c: files, folders and images on their way to a prompt
 *
 * What the person drops, chooses or pastes becomes PalAttachment items in
 * the composer's list:
 *
 * - a file from outside the session's folders (its cwd and additional
 *   directories) is attached only once the person said yes, in a dialog
 *   that names it: the agent would read what the session was not given;
 * - what each file is (a folder, an image, another file) is asked of the
 *   file system asynchronously;
 * - an image is decoded and scaled down on a worker thread
 *   (pal-image-prepare.c); one that cannot be decoded is attached as a
 *   plain file;
 * - an image pasted (GdkClipboard holding a texture and no text) likewise.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-attacher.h"
#include "pal-attachment.h"
#include "pal-image-prepare.h"

struct _PalAttacher
{
  GObject               parent_instance;

  GListStore           *attachments;
  GtkWidget            *widget;
  GStrv                 folders;     /* nullable */
  GCancellable         *cancellable;
  GtkWindow            *question;    /* the dialog asking, while it shows */
  GtkFileChooserNative *chooser;
  guint                 pending;
};

enum {
  PROP_0,
  PROP_PENDING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PalAttacher, pal_attacher, G_TYPE_OBJECT)

static void
pal_attacher_dispose (GObject *object)
{
  PalAttacher *self = PAL_ATTACHER (object);

  g_cancellable_cancel (self->cancellable);
  if (self->question != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->question, self);
      gtk_window_destroy (self->question);
      self->question = NULL;
    }
  if (self->chooser != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->chooser, self);
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
      g_clear_object (&self->chooser);
    }
  g_clear_object (&self->attachments);
  self->widget = NULL;

  G_OBJECT_CLASS (pal_attacher_parent_class)->dispose (object);
}

static void
pal_attacher_finalize (GObject *object)
{
  PalAttacher *self = PAL_ATTACHER (object);

  g_clear_object (&self->cancellable);
  g_strfreev (self->folders);

  G_OBJECT_CLASS (pal_attacher_parent_class)->finalize (object);
}

static void
pal_attacher_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  PalAttacher *self = PAL_ATTACHER (object);

  switch (prop_id)
    {
    case PROP_PENDING:
      g_value_set_uint (value, self->pending);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
pal_attacher_class_init (PalAttacherClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = pal_attacher_dispose;
  object_class->finalize = pal_attacher_finalize;
  object_class->get_property = pal_attacher_get_property;

  /* files and images still being looked at or scaled */
  properties[PROP_PENDING] =
    g_param_spec_uint ("pending", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
pal_attacher_init (PalAttacher *self)
{
  self->cancellable = g_cancellable_new ();
}

/**
 * pal_attacher_new:
 * @attachments: a #GListStore of #PalAttachment
 * @widget: the widget the attachments are given to
 *
 * Returns: (transfer full): an attacher adding to @attachments
 */
PalAttacher *
pal_attacher_new (GListStore *attachments,
                  GtkWidget  *widget)
{
  PalAttacher *self;

  g_return_val_if_fail (G_IS_LIST_STORE (attachments), NULL);
  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  self = g_object_new (PAL_TYPE_ATTACHER, NULL);
  self->attachments = g_object_ref (attachments);
  self->widget = widget;

  return self;
}

/**
 * pal_attacher_set_folders:
 * @self: a #PalAttacher
 * @folders: (nullable) (array zero-terminated=1): the session's folders
 */
void
pal_attacher_set_folders (PalAttacher        *self,
                          const char * const *folders)
{
  g_return_if_fail (PAL_IS_ATTACHER (self));

  g_strfreev (self->folders);
  self->folders = g_strdupv ((GStrv) folders);
}

/**
 * pal_attacher_is_inside:
 * @self: a #PalAttacher
 * @file: a file
 *
 * Returns: whether @file lies in one of the session's folders
 */
gboolean
pal_attacher_is_inside (PalAttacher *self,
                        GFile       *file)
{
  g_return_val_if_fail (PAL_IS_ATTACHER (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->folders == NULL)
    return FALSE;

  for (guint i = 0; self->folders[i] != NULL; i++)
    {
      g_autoptr(GFile) folder = NULL;

      if (!g_path_is_absolute (self->folders[i]))
        continue;
      folder = g_file_new_for_path (self->folders[i]);
      if (g_file_equal (folder, file) || g_file_has_prefix (file, folder))
        return TRUE;
    }

  return FALSE;
}

guint
pal_attacher_get_pending (PalAttacher *self)
{
  g_return_val_if_fail (PAL_IS_ATTACHER (self), 0);

  return self->pending;
}

static void
begin_pending (PalAttacher *self)
{
  self->pending++;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING]);
}

static void
end_pending (PalAttacher *self)
{
  g_assert (self->pending > 0);
  self->pending--;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING]);
}

static void
free_files (GSList *files)
{
  g_slist_free_full (files, g_object_unref);
}

static void
append (PalAttacher   *self,
        PalAttachment *attachment)
{
  if (self->attachments != NULL)
    g_list_store_append (self->attachments, attachment);
}

typedef struct
{
  GWeakRef  attacher;
  GFile    *file;      /* nullable */
} Pending;

static Pending *
pending_new (PalAttacher *self,
             GFile       *file)
{
  Pending *pending = g_new0 (Pending, 1);

  g_weak_ref_init (&pending->attacher, self);
  pending->file = file != NULL ? g_object_ref (file) : NULL;
  begin_pending (self);

  return pending;
}

static void
pending_free (Pending *pending)
{
  g_weak_ref_clear (&pending->attacher);
  g_clear_object (&pending->file);
  g_free (pending);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Pending, pending_free)

/* The attacher still there, once the work is done, else NULL */
static PalAttacher *
pending_finish (Pending *pending)
{
  PalAttacher *self = g_weak_ref_get (&pending->attacher);

  if (self != NULL)
    end_pending (self);

  return self;
}

/* An image decoded and scaled, or a file that was not one after all */
static void
image_prepared_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(Pending) pending = user_data;
  g_autoptr(PalAttachment) attachment = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PalAttacher) self = NULL;

  attachment = pal_image_prepare_finish (result, &error);
  self = pending_finish (pending);
  if (self == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (attachment == NULL)
    {
      g_debug ("Not an image after all: %s", error->message);
      if (pending->file != NULL)
        attachment = pal_attachment_new_file (pending->file);
    }
  if (attachment != NULL)
    append (self, attachment);
}

static gboolean
is_image_type (const char *content_type)
{
  g_autofree char *mime_type = NULL;

  if (content_type == NULL)
    return FALSE;
  mime_type = g_content_type_get_mime_type (content_type);

  /* SVG is text, and goes as text */
  return mime_type != NULL && g_str_has_prefix (mime_type, "image/") &&
         !g_str_equal (mime_type, "image/svg+xml");
}

static void
file_info_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GFile *file = G_FILE (object);
  g_autoptr(Pending) pending = user_data;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PalAttacher) self = NULL;
  g_autoptr(PalAttachment) attachment = NULL;

  info = g_file_query_info_finish (file, result, &error);
  self = pending_finish (pending);
  if (self == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (info != NULL && g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
    attachment = pal_attachment_new_folder (file);
  else if (info != NULL && is_image_type (g_file_info_get_content_type (info)))
    {
      pal_image_prepare_async (NULL, file, self->cancellable, image_prepared_cb,
                               pending_new (self, file));
      return;
    }
  else
    /* unreadable ones too: sending says why they went as a link */
    attachment = pal_attachment_new_file (file);

  append (self, attachment);
}

static void
attach_now (PalAttacher *self,
            GSList      *files)
{
  for (GSList *l = files; l != NULL; l = l->next)
    g_file_query_info_async (l->data,
                             G_FILE_ATTRIBUTE_STANDARD_TYPE "," G_FILE_ATTRIBUTE_STANDARD_CONTENT_TYPE,
                             G_FILE_QUERY_INFO_NONE, G_PRIORITY_DEFAULT, self->cancellable,
                             file_info_cb, pending_new (self, l->data));
}

static void
question_response_cb (AdwMessageDialog *dialog,
                      const char       *response,
                      PalAttacher      *self)
{
  GSList *outside = g_object_get_data (G_OBJECT (dialog), "files");

  if (g_str_equal (response, "attach"))
    attach_now (self, outside);
  self->question = NULL;
}

static char *
describe_files (GSList *files)
{
  GString *text = g_string_new (NULL);

  for (GSList *l = files; l != NULL; l = l->next)
    {
      g_autofree char *where = g_file_get_parse_name (l->data);

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, where);
    }

  return g_string_free (text, FALSE);
}

static void
ask_for (PalAttacher *self,
         GSList      *outside)
{
  GtkRoot *root = self->widget != NULL ? gtk_widget_get_root (self->widget) : NULL;
  g_autofree char *names = describe_files (outside);
  g_autofree char *body = NULL;
  AdwMessageDialog *dialog;

  /* one question at a time: a new one replaces the one not answered */
  if (self->question != NULL)
    gtk_window_destroy (self->question);

  body = g_strdup_printf ("%s\n\n%s",
                          g_slist_length (outside) == 1
                          ? _("This file is outside the session’s folders. The agent will be able to read it.")
                          : _("These files are outside the session’s folders. The agent will be able to read them."),
                          names);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                       g_slist_length (outside) == 1
                                                       ? _("Attach a File From Elsewhere?")
                                                       : _("Attach Files From Elsewhere?"),
                                                       body));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "attach", _("_Attach"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "attach", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "files",
                          g_slist_copy_deep (outside, (GCopyFunc) g_object_ref, NULL),
                          (GDestroyNotify) free_files);
  g_signal_connect_object (dialog, "response", G_CALLBACK (question_response_cb), self, 0);
  self->question = GTK_WINDOW (dialog);
  gtk_window_present (self->question);
}

/**
 * pal_attacher_add_files:
 * @self: a #PalAttacher
 * @files: (element-type GFile): files and folders
 *
 * Attaches @files: those inside the session's folders at once, the others
 * once the person said yes.
 */
void
pal_attacher_add_files (PalAttacher *self,
                        GSList      *files)
{
  g_autoptr(GSList) inside = NULL;
  g_autoptr(GSList) outside = NULL;

  g_return_if_fail (PAL_IS_ATTACHER (self));

  for (GSList *l = files; l != NULL; l = l->next)
    {
      g_return_if_fail (G_IS_FILE (l->data));

      if (pal_attacher_is_inside (self, l->data))
        inside = g_slist_prepend (inside, l->data);
      else
        outside = g_slist_prepend (outside, l->data);
    }
  inside = g_slist_reverse (inside);
  outside = g_slist_reverse (outside);

  attach_now (self, inside);
  if (outside != NULL)
    ask_for (self, outside);
}

/**
 * pal_attacher_add_texture:
 * @self: a #PalAttacher
 * @texture: an image
 *
 * Attaches @texture, scaled down, as a PNG image.
 */
void
pal_attacher_add_texture (PalAttacher *self,
                          GdkTexture  *texture)
{
  g_return_if_fail (PAL_IS_ATTACHER (self));
  g_return_if_fail (GDK_IS_TEXTURE (texture));

  pal_image_prepare_texture_async (texture, self->cancellable, image_prepared_cb,
                                   pending_new (self, NULL));
}

static void
texture_read_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(Pending) pending = user_data;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PalAttacher) self = NULL;

  texture = gdk_clipboard_read_texture_finish (GDK_CLIPBOARD (object), result, &error);
  self = pending_finish (pending);
  if (self == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (texture == NULL)
    {
      g_debug ("Could not paste an image: %s", error->message);
      return;
    }

  pal_attacher_add_texture (self, texture);
}

/**
 * pal_attacher_paste:
 * @self: a #PalAttacher
 * @clipboard: the clipboard pasted from
 *
 * Attaches the image on @clipboard, when it holds one and no text (text
 * is pasted as text).
 *
 * Returns: whether an image is being attached
 */
gboolean
pal_attacher_paste (PalAttacher  *self,
                    GdkClipboard *clipboard)
{
  g_autoptr(GdkContentFormats) formats = NULL;

  g_return_val_if_fail (PAL_IS_ATTACHER (self), FALSE);
  g_return_val_if_fail (GDK_IS_CLIPBOARD (clipboard), FALSE);

  /* what another program offers comes as mime types: add the types they
   * can be read as */
  formats = gdk_content_formats_union_deserialize_gtypes (
    gdk_content_formats_ref (gdk_clipboard_get_formats (clipboard)));
  if (!gdk_content_formats_contain_gtype (formats, GDK_TYPE_TEXTURE) ||
      gdk_content_formats_contain_gtype (formats, G_TYPE_STRING))
    return FALSE;

  gdk_clipboard_read_texture_async (clipboard, self->cancellable, texture_read_cb,
                                    pending_new (self, NULL));
  return TRUE;
}

static void
chooser_response_cb (GtkNativeDialog *chooser,
                     int              response,
                     PalAttacher     *self)
{
  g_autoptr(GListModel) files = NULL;
  g_autoptr(GSList) list = NULL;
  guint n;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));
      n = g_list_model_get_n_items (files);
      for (guint i = 0; i < n; i++)
        list = g_slist_prepend (list, g_list_model_get_item (files, i));
      list = g_slist_reverse (list);
      pal_attacher_add_files (self, list);
      g_slist_foreach (list, (GFunc) g_object_unref, NULL);
    }

  g_signal_handlers_disconnect_by_data (chooser, self);
  g_clear_object (&self->chooser);
}

/**
 * pal_attacher_choose_files:
 * @self: a #PalAttacher
 *
 * Lets the person choose files to attach (GtkFileChooserNative: GTK 4.8
 * has no GtkFileDialog), starting in the session's folder.
 */
void
pal_attacher_choose_files (PalAttacher *self)
{
  GtkRoot *root;

  g_return_if_fail (PAL_IS_ATTACHER (self));

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }

  root = self->widget != NULL ? gtk_widget_get_root (self->widget) : NULL;
  self->chooser = gtk_file_chooser_native_new (_("Attach Files"),
                                               GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_OPEN,
                                               _("_Attach"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (self->chooser), TRUE);
  if (self->folders != NULL && self->folders[0] != NULL && g_path_is_absolute (self->folders[0]))
    {
      g_autoptr(GFile) folder = g_file_new_for_path (self->folders[0]);

      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
    }
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}
